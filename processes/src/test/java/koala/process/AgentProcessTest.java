package koala.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import koala.api.site.AgentSecret;
import koala.grid.CellEnvironment;
import koala.grid.DrmaaInstall;
import koala.grid.SiteConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The secret reaches the agent on its standard input, also through runuser, and nowhere else. */
class AgentProcessTest {
    private static final SiteConfig SITE = new SiteConfig("fs0", new CellEnvironment(Path.of("/var/lib/gridengine"),
            "fs0", 6444, 6445, Path.of("/usr/bin")), "koala", 0, "", 1, DrmaaInstall.debian(), Optional.empty());
    /** Stands in for the agent: reads the first line of its input and says READY with what it read in the URL. */
    private static final String FAKE_AGENT = "IFS= read -r s; echo \"READY http://127.0.0.1:1/$s\"; exec sleep 30";

    @TempDir
    Path dir;

    @Test
    void theSecretIsTheFirstLineOfTheAgentsInputAndNotOnItsCommandLine() {
        AgentSecret secret = AgentSecret.random();
        try (AgentProcess agent = AgentProcess.start(SITE, List.of("sh", "-c", FAKE_AGENT), dir.resolve("agent.log"),
                Duration.ofSeconds(10), secret)) {
            assertThat(agent.url().getPath()).isEqualTo("/" + secret.value());
            assertThat(agent.secret()).isEqualTo(secret);
            assertThat(ProcessHandle.of(agent.pid()).orElseThrow().info().commandLine().orElse(""))
                    .doesNotContain(secret.value());
        }
    }

    @Test
    void runuserPassesTheSecretThrough() {
        assumeTrue(System.getProperty("user.name").equals("root"), "runuser needs root");
        AgentSecret secret = AgentSecret.random();
        try (AgentProcess agent = AgentProcess.start(SITE, List.of("runuser", "-u", "nobody", "--", "sh", "-c", FAKE_AGENT),
                dir.resolve("agent.log"), Duration.ofSeconds(10), secret)) {
            assertThat(agent.url().getPath()).isEqualTo("/" + secret.value());
        }
    }

    @Test
    void theAgentsCommandCarriesNoSecret() {
        // the command is made without the secret: nothing to leak on a command line or in the environment
        JavaCommand command = AgentProcess.command(SITE, Path.of("/usr/bin/java"), List.of(Path.of("/rt/a.jar")),
                Path.of("/native"), List.of("--site", "fs0"));
        assertThat(command.env()).containsOnlyKeys("SGE_ROOT", "SGE_CELL", "SGE_QMASTER_PORT", "SGE_EXECD_PORT");
    }

    @Test
    void handingOverWritesOneLineAndClosesTheInput() throws Exception {
        AgentSecret secret = AgentSecret.of("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
        boolean[] closed = {false};
        ByteArrayOutputStream stdin = new ByteArrayOutputStream() {
            @Override
            public void close() {
                closed[0] = true;
            }
        };

        AgentProcess.handOver(stdin, secret);

        assertThat(stdin.toString()).isEqualTo("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n");
        assertThat(closed[0]).isTrue();
    }

    /** The agent is told, not its runuser, which would wait 2 s after a TERM of its own: both end at once. */
    @Test
    void anAgentStartedThroughRunuserAndItsLauncherEndWellWithinASecondOfATerm() throws Exception {
        assumeTrue(System.getProperty("user.name").equals("root"), "runuser needs root");
        Process launcher = new ProcessBuilder("runuser", "-u", "nobody", "--", "sleep", "30").start();
        assertThat(koala.common.time.Poll.system().until(() -> launcher.toHandle().descendants().findAny().isPresent(),
                Duration.ofSeconds(5))).isTrue();
        long asked = System.nanoTime();

        List<ProcessHandle> going = AgentProcess.terminate(launcher.toHandle());

        assertThat(going).hasSize(2);
        for (ProcessHandle p : going) {
            p.onExit().get(1, java.util.concurrent.TimeUnit.SECONDS);
        }
        assertThat(Duration.ofNanos(System.nanoTime() - asked)).isLessThan(Duration.ofSeconds(1));
    }
}
