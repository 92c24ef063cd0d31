package koala.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The head node's probe output, as its script prints it, and what the scheduler makes of it. */
class HeadNodeProbeTest {
    private static final String GOOD = """
            dir=/home/koala/.koala
            java=/usr/bin/java
            javaVersion=openjdk version "17.0.15" 2025-04-15
            cell=yes
            qstat=yes
            drmaaJar=yes
            drmaaLibrary=yes
            preload=yes
            hostname=fs0
            """;

    @Test
    void aReadyHeadNodeGivesItsDirectoryAndJava() {
        assertThat(HeadNodeProbe.read(SshErrorsTest.SITE, GOOD))
                .isEqualTo(new HeadNodeProbe.HeadNode("/home/koala/.koala", "/usr/bin/java", "fs0"));
    }

    /**
     * The probe run by a shell whose home is a fresh directory, with the usual umask 022: the agent's
     * directory (.koala, parents included) is made 0700, and one made 0755 before is tightened.
     */
    @Test
    void theAgentsDirectoryOnTheHeadNodeIsTheSiteAccountsAlone(@TempDir Path home) throws Exception {
        assertThat(probeIn(home)).contains("dir=" + home.toRealPath().resolve(".koala"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve(".koala"))))
                .isEqualTo("rwx------");

        Files.setPosixFilePermissions(home.resolve(".koala"), PosixFilePermissions.fromString("rwxr-xr-x"));
        probeIn(home);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.resolve(".koala"))))
                .isEqualTo("rwx------");
    }

    private static String probeIn(Path home) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", "umask 022; " + HeadNodeProbe.script(SshErrorsTest.SITE))
                .redirectErrorStream(true);
        builder.environment().put("HOME", home.toString());
        Process shell = builder.start();
        String output = new String(shell.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(shell.waitFor(10, TimeUnit.SECONDS)).as("the probe ended").isTrue();
        return output;
    }

    @Test
    void noJavaNamesTheKey() {
        assertThatThrownBy(() -> HeadNodeProbe.read(SshErrorsTest.SITE, GOOD.replace("java=/usr/bin/java", "java=")
                .replaceAll("javaVersion=.*\n", ""))).hasMessage("site das4: head node fs0.das4.example: no Java on the "
                + "head node: site.das4.ssh.java = java is not found (install Java 17 there, or name its path)");
    }

    @Test
    void anOldJavaIsRefusedWithItsVersion() {
        assertThatThrownBy(() -> HeadNodeProbe.read(SshErrorsTest.SITE, GOOD.replace("\"17.0.15\"", "\"1.8.0_392\"")))
                .hasMessage("site das4: head node fs0.das4.example: site.das4.ssh.java = /usr/bin/java is Java 8; "
                        + "the agent needs Java 17 or later");
        assertThat(HeadNodeProbe.major("openjdk version \"21\" 2023-09-19")).contains(21);
        assertThat(HeadNodeProbe.major("java version \"11.0.2\" 2019-01-15 LTS")).contains(11);
        assertThat(HeadNodeProbe.major("bash: java: command not found")).isEmpty();
    }

    @Test
    void noSgeListsEveryMissingPieceWithItsKey() {
        String noSge = GOOD.replace("cell=yes", "cell=no").replace("qstat=yes", "qstat=no")
                .replace("drmaaLibrary=yes", "drmaaLibrary=no");
        assertThatThrownBy(() -> HeadNodeProbe.read(SshErrorsTest.SITE, noSge)).hasMessage("site das4: head node "
                + "fs0.das4.example: no SGE cell on the head node at site.das4.sge.root/site.das4.sge.cell = "
                + "/cm/sge/default (no common/act_qmaster); no SGE commands on the head node: site.das4.sge.bin = "
                + "/cm/sge/bin has no qstat; site.das4.drmaa.library = /usr/lib/gridengine-drmaa/lib/libdrmaa.so.1.0: "
                + "no such file on the head node");
    }

    @Test
    void aDirectoryThatCannotBeMadeIsNamed() {
        assertThatThrownBy(() -> HeadNodeProbe.read(SshErrorsTest.SITE, GOOD.replace("dir=/home/koala/.koala\n", "")))
                .hasMessageContaining("site.das4.ssh.dir = .koala: cannot be created in the home of koala");
    }

    @Test
    void theScriptQuotesWhatTheConfigurationSays() {
        assertThat(HeadNodeProbe.script(SshErrorsTest.SITE)).contains("J='java'; R='/cm/sge'; C='default'; B='/cm/sge/bin'")
                .contains("mkdir -p '.koala'");
        assertThat(Sh.quote("it's")).isEqualTo("'it'\\''s'");
    }

    @Test
    void aHeadNodeWithoutAHostNameNeedsTheRelayHostSetting() {
        assertThatThrownBy(() -> HeadNodeProbe.read(SshErrorsTest.SITE, GOOD.replace("hostname=fs0", "hostname=")))
                .hasMessage("site das4: head node fs0.das4.example: hostname printed nothing there: set "
                        + "site.das4.ssh.relayHost to the head node's name or address as its compute nodes reach it");
        assertThat(HeadNodeProbe.script(SshErrorsTest.SITE)).contains("echo \"hostname=$(hostname 2>/dev/null)\"");
    }

    /** An SGE site's probe, whole: a Slurm site's has a script of its own ({@link SlurmHeadNodeTest}). */
    @Test
    void anSgeSitesProbeChecksItsCellAndDrmaa() {
        assertThat(HeadNodeProbe.script(SshErrorsTest.SITE)).isEqualTo(String.join("\n",
                "J='java'; R='/cm/sge'; C='default'; B='/cm/sge/bin'",
                "DJ='/usr/share/java/drmaa.jar'; DL='/usr/lib/gridengine-drmaa/lib/libdrmaa.so.1.0'; "
                        + "P='/usr/lib/x86_64-linux-gnu/libjemalloc.so.2'",
                "D=$(cd && umask 077 && mkdir -p '.koala' && chmod go-rwx '.koala' && cd '.koala' && pwd) && echo \"dir=$D\"",
                "JP=$(command -v \"$J\" 2>/dev/null); echo \"java=$JP\"",
                "[ -n \"$JP\" ] && echo \"javaVersion=$(\"$JP\" -version 2>&1 | head -n 1)\"",
                "[ -f \"$R/$C/common/act_qmaster\" ] && echo cell=yes || echo cell=no",
                "[ -x \"$B/qstat\" ] && echo qstat=yes || echo qstat=no",
                "[ -f \"$DJ\" ] && echo drmaaJar=yes || echo drmaaJar=no",
                "[ -f \"$DL\" ] && echo drmaaLibrary=yes || echo drmaaLibrary=no",
                "[ -z \"$P\" ] || { [ -f \"$P\" ] && echo preload=yes || echo preload=no; }",
                "echo \"hostname=$(hostname 2>/dev/null)\"",
                "exit 0"));
    }
}
