package koala.api.site;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AgentStateTest {
    private static final AgentSecret SECRET = AgentSecret.of("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");

    @Test
    void anAgentThatServesAndItsRelaysOneALine() {
        AgentState state = new AgentState(Optional.of(new AgentState.Serving(41234, 777, SECRET)),
                List.of(new AgentState.Relay(45001, 47400), new AgentState.Relay(45002, 47401)));

        assertThat(state.text()).isEqualTo("""
                agent 41234 777 AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
                relay 45001 47400
                relay 45002 47401
                """);
        assertThat(AgentState.parse(state.text())).isEqualTo(state);
    }

    @Test
    void aStoppedAgentLeavesItsRelays() {
        AgentState state = AgentState.parse("agent 41234 777 " + SECRET.value() + "\nrelay 45001 47400\n").stopped();

        assertThat(state.text()).isEqualTo("relay 45001 47400\n");
    }

    @Test
    void linesItDoesNotUnderstandAreSkipped() {
        AgentState state = AgentState.parse("41234 777\nagent 1 2 not-a-secret\nrelay x 3\ncmdline java koala.site.AgentMain\n"
                + "relay 45001 47400\n");

        assertThat(state).isEqualTo(new AgentState(Optional.empty(), List.of(new AgentState.Relay(45001, 47400))));
    }
}
