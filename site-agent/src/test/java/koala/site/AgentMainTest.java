package koala.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import koala.api.site.AgentSecret;
import koala.process.AgentProcess;
import koala.process.ProcessClasspath;
import org.junit.jupiter.api.Test;

class AgentMainTest {
    /** The scheduler and the CLI start agents by this name without depending on this module. */
    @Test
    void theNameAgentsAreStartedByIsThisClass() {
        assertThat(AgentProcess.MAIN_CLASS).isEqualTo(AgentMain.class.getName());
    }

    @Test
    void theSecretIsTheFirstLineOfTheInputAndNothingMoreIsRead() throws Exception {
        AgentSecret secret = AgentSecret.random();
        ByteArrayInputStream in = new ByteArrayInputStream((secret.value() + "\nmore\n").getBytes(StandardCharsets.US_ASCII));

        assertThat(AgentMain.readSecret(in)).isEqualTo(secret);
        assertThat(in.available()).isEqualTo("more\n".length());
    }

    @Test
    void noSecretOnTheInputIsABadStart() {
        assertThatThrownBy(() -> AgentMain.readSecret(new ByteArrayInputStream(new byte[0])))
                .hasMessageStartingWith("expected the agent's secret as the first line of standard input");
        assertThatThrownBy(() -> AgentMain.readSecret(new ByteArrayInputStream("x".repeat(1000).getBytes(StandardCharsets.US_ASCII))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * What an agent runs on, of a scheduler's class path, by this module's own list: both managers'
     * adapters, so that a remote head node gets the Slurm adapter with the rest of the agent's jars.
     */
    @Test
    void theAgentRunsOnBothManagersAdaptersAndNothingOfTheScheduler() {
        List<Path> classpath = List.of(Path.of("/lib/koala-scheduler-0.1.0.jar"), Path.of("/lib/site-agent-0.1.0.jar"),
                Path.of("/lib/sge-adapter-0.1.0.jar"), Path.of("/lib/slurm-adapter-0.1.0.jar"), Path.of("/lib/h2-2.3.232.jar"));

        assertThat(ProcessClasspath.of(ProcessClasspath.SITE_AGENT, classpath)).containsExactly(
                Path.of("/lib/site-agent-0.1.0.jar"), Path.of("/lib/sge-adapter-0.1.0.jar"),
                Path.of("/lib/slurm-adapter-0.1.0.jar"));
    }
}
