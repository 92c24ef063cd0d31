package koala.site;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import koala.api.site.AgentSecret;
import koala.process.AgentProcess;
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
}
