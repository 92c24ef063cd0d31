package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RttProbeTest {
    @Test
    void eachAddressHasItsMedianAndLeastOrTheReasonNoneAnswered() {
        Map<String, RttProbe.Measured> m = RttProbe.parse("""
                198.18.1.12 0.031 0.028
                198.18.2.11 10.454 10.301
                198.18.0.12 - TimeoutError

                198.18.0.13 ten 10
                """);
        assertThat(m).containsExactly(
                Map.entry("198.18.1.12", new RttProbe.Measured(0.031, 0.028, null)),
                Map.entry("198.18.2.11", new RttProbe.Measured(10.454, 10.301, null)),
                Map.entry("198.18.0.12", new RttProbe.Measured(null, null, "TimeoutError")),
                Map.entry("198.18.0.13", new RttProbe.Measured(null, null, "unreadable: 198.18.0.13 ten 10")));
    }

    @Test
    void theProgramRunsInTheHostsNetworkWithEveryAddressAsAnArgument() {
        List<String> command = RttProbe.command("fs0-n1", List.of("198.18.1.12", "198.18.2.11"));
        assertThat(command.subList(0, 6)).containsExactly("ip", "netns", "exec", "fs0-n1", "/usr/bin/python3", "-c");
        assertThat(command.subList(7, 9)).containsExactly("198.18.1.12", "198.18.2.11");
        assertThat(command.get(6)).contains("for _ in range(5):", "s.connect((address, 1))", "\"%.3f %.3f\" % (");
    }

    @Test
    void theStatusIsUpWithoutADelayOrWithItsProcess() {
        assertThat(new WanStatus(0, null, List.of()).up()).isTrue();
        assertThat(new WanStatus(5, 1234L, List.of()).up()).isTrue();
        assertThat(new WanStatus(5, null, List.of()).up()).isFalse();
    }
}
