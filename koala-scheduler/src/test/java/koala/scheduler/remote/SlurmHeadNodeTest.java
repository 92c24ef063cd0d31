package koala.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import koala.grid.CellEnvironment;
import koala.grid.DrmaaInstall;
import koala.grid.SiteConfig;
import koala.grid.SlurmEnvironment;
import koala.grid.SshConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A Slurm site's head node as the probe's script prints it, and what the scheduler makes of it. */
class SlurmHeadNodeTest {
    private static final String GOOD = """
            dir=/home/koala/.koala
            java=/usr/bin/java
            javaVersion=openjdk version "17.0.15" 2025-04-15
            sbatch=yes
            squeue=yes
            scancel=yes
            sinfo=yes
            scontrol=yes
            sacct=yes
            slurmConf=yes
            controller=yes
            hostname=fs3-head
            """;

    @TempDir
    Path tmp;

    @Test
    void aReadySlurmHeadNodeGivesItsDirectoryAndJava() {
        assertThat(HeadNodeProbe.read(site("java", "/opt/slurm/bin", "/etc/slurm-fs3/slurm.conf"), GOOD))
                .isEqualTo(new HeadNodeProbe.HeadNode("/home/koala/.koala", "/usr/bin/java", "fs3-head"));
    }

    /**
     * Java 11, sbatch and squeue not in slurm.bin but on the login shell's PATH, sacct nowhere, the
     * slurm.conf unreadable and the controller unreachable: each problem names the key to fix.
     */
    @Test
    void aBrokenSlurmHeadNodeListsEveryProblemWithItsKey() {
        String broken = GOOD.replace("\"17.0.15\"", "\"11.0.2\"").replace("sbatch=yes", "sbatch=no /usr/local/slurm/bin/sbatch")
                .replace("squeue=yes", "squeue=no /usr/local/slurm/bin/squeue").replace("sacct=yes", "sacct=no")
                .replace("slurmConf=yes", "slurmConf=no").replace("controller=yes", "controller=no 1 slurm_load_ctl_conf "
                        + "error: Unable to contact slurm controller (connect failure)");

        assertThatThrownBy(() -> HeadNodeProbe.read(site("java", "/opt/slurm/bin", "/etc/slurm-fs3/slurm.conf"), broken))
                .hasMessage("site fs3: head node fs3-head: site.fs3.ssh.java = /usr/bin/java is Java 11; the agent needs "
                        + "Java 17 or later; Slurm commands missing on the head node: site.fs3.slurm.bin = /opt/slurm/bin "
                        + "has no sbatch, squeue, sacct (the login shell's PATH has sbatch, squeue in /usr/local/slurm/bin: "
                        + "name that directory); site.fs3.slurm.conf = /etc/slurm-fs3/slurm.conf: not readable on the head "
                        + "node; Slurm's controller does not answer scontrol show config with site.fs3.slurm.conf = "
                        + "/etc/slurm-fs3/slurm.conf: slurm_load_ctl_conf error: Unable to contact slurm controller "
                        + "(connect failure)");
    }

    @Test
    void aSilentControllerAndCommandsNowhereAreNamed() {
        String silent = GOOD.replace("sacct=yes", "sacct=no").replace("controller=yes", "controller=no 124");

        assertThatThrownBy(() -> HeadNodeProbe.read(site("java", "/opt/slurm/bin", "/etc/slurm/slurm.conf"), silent))
                .hasMessage("site fs3: head node fs3-head: Slurm commands missing on the head node: site.fs3.slurm.bin = "
                        + "/opt/slurm/bin has no sacct (nor does the login shell's PATH find them); Slurm's controller does "
                        + "not answer scontrol show config with site.fs3.slurm.conf = /etc/slurm/slurm.conf: no answer "
                        + "within 15 s");
    }

    /** No SGE cell, qstat or DRMAA file is asked for on a Slurm site's head node. */
    @Test
    void aSlurmSitesProbeAsksForNoSgeOrDrmaa() {
        String script = HeadNodeProbe.script(site("java", "/opt/slurm/bin", "/etc/slurm-fs3/slurm.conf"));

        assertThat(script).startsWith("J='java'; S='/opt/slurm/bin'; F='/etc/slurm-fs3/slurm.conf'\n")
                .contains("[ -x \"$S/sacct\" ] && echo sacct=yes || echo \"sacct=no $(command -v sacct 2>/dev/null)\"")
                .contains("[ -r \"$F\" ] && echo slurmConf=yes || echo slurmConf=no")
                .doesNotContain("qstat").doesNotContain("act_qmaster").doesNotContain("drmaa").endsWith("\nexit 0");
    }

    /**
     * The script run by a real shell on a stand-in head node: Slurm's commands in a directory, a
     * {@code scontrol} that answers when {@code SLURM_CONF} names a readable file, as a controller does.
     */
    @Test
    void theScriptRunByAShellFindsAGoodHeadNode() throws Exception {
        Path bin = commands(tmp.resolve("slurm/bin"), "sbatch", "squeue", "scancel", "sinfo", "scontrol", "sacct");
        Path conf = Files.writeString(tmp.resolve("slurm.conf"), "ClusterName=fs3\n");
        SiteConfig site = site(java(), bin.toString(), conf.toString());

        String output = probe(site, "");

        assertThat(output).contains("\nsbatch=yes\nsqueue=yes\nscancel=yes\nsinfo=yes\nscontrol=yes\nsacct=yes\n"
                + "slurmConf=yes\ncontroller=yes\n");
        assertThat(HeadNodeProbe.read(site, output).dir())
                .isEqualTo(tmp.resolve("home").toRealPath().resolve(".koala").toString());
    }

    @Test
    void theScriptRunByAShellFindsWhatIsMissingAndWhereThePathHasIt() throws Exception {
        Path bin = commands(tmp.resolve("slurm/bin"), "sbatch", "squeue", "scancel", "sinfo", "scontrol");
        Path elsewhere = commands(tmp.resolve("elsewhere"), "sacct");

        String output = probe(site(java(), bin.toString(), tmp.resolve("none.conf").toString()), elsewhere + ":");

        assertThat(output).contains("\nsacct=no " + elsewhere.resolve("sacct") + "\nslurmConf=no\ncontroller=no 1 "
                + "slurm_load_ctl_conf error: Unable to contact slurm controller (connect failure)\n");
    }

    private String probe(SiteConfig site, String pathBefore) throws Exception {
        Files.createDirectories(tmp.resolve("home"));
        ProcessBuilder builder = new ProcessBuilder("sh", "-c", HeadNodeProbe.script(site));
        builder.environment().put("HOME", tmp.resolve("home").toString());
        builder.environment().put("PATH", pathBefore + builder.environment().get("PATH"));
        Process shell = builder.start();
        String output = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(shell.waitFor(20, TimeUnit.SECONDS)).as("the probe ended").isTrue();
        return output;
    }

    /** Stand-ins for Slurm's commands; {@code scontrol show config} fails as Slurm's does without a controller. */
    private static Path commands(Path dir, String... names) throws Exception {
        Files.createDirectories(dir);
        for (String name : names) {
            Path command = Files.writeString(dir.resolve(name), name.equals("scontrol") ? String.join("\n", "#!/bin/sh",
                    "[ \"$1 $2\" = 'show config' ] && [ -r \"$SLURM_CONF\" ] && { echo 'Configuration data as of now'; exit 0; }",
                    "echo 'slurm_load_ctl_conf error: Unable to contact slurm controller (connect failure)' >&2; exit 1", "")
                    : "#!/bin/sh\nexit 0\n");
            Files.setPosixFilePermissions(command, PosixFilePermissions.fromString("rwx------"));
        }
        return dir;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static SiteConfig site(String java, String slurmBin, String slurmConf) {
        return new SiteConfig("fs3", new CellEnvironment(Path.of("/var/lib/gridengine"), "fs3", 6444, 6445,
                Path.of("/usr/bin")), "koala", 0, "", 4, DrmaaInstall.debian(), Optional.of(new SshConfig("fs3-head", 22,
                "koala", Path.of("/k"), Path.of("/kh"), true, ".koala", java, Duration.ofMinutes(10), Optional.of("fs3-head"))),
                Optional.empty(), 1, 1, Optional.of(new SlurmEnvironment(Path.of(slurmConf), Path.of(slurmBin))));
    }
}
