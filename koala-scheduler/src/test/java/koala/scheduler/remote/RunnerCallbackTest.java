package koala.scheduler.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A runner's call-back as the head node keeps it: one line each, exact text both ways. */
class RunnerCallbackTest {
    private static final RunnerCallback RUNNER = new RunnerCallback(new CallBacks.Endpoint("koala-host", 41234), 45002,
            47401, "koala-host");
    private static final RunnerCallback ON_LOOPBACK = new RunnerCallback(new CallBacks.Endpoint("127.0.0.1", 7501), 45003,
            47402, "koala-b");

    @Test
    void aLineIsTheEndpointTheForwardTheRelayAndTheHostOfTheSchedulerThatMadeIt() {
        assertThat(RUNNER.line()).isEqualTo("koala-host:41234 45002 47401 koala-host");
        assertThat(RunnerCallback.parse("koala-host:41234 45002 47401 koala-host")).contains(RUNNER);
        assertThat(RunnerCallback.parse("  127.0.0.1:7501\t45003 47402 koala-b  ")).contains(ON_LOOPBACK);
    }

    @Test
    void theFileHoldsALineEachInTheOrderOfTheirEndpoints() {
        String text = RunnerCallback.format(List.of(RUNNER, ON_LOOPBACK));

        assertThat(text).isEqualTo("127.0.0.1:7501 45003 47402 koala-b\nkoala-host:41234 45002 47401 koala-host\n");
        assertThat(RunnerCallback.parseAll(text)).containsExactly(ON_LOOPBACK, RUNNER);
        assertThat(RunnerCallback.format(List.of())).isEmpty();
    }

    /** A line cut short (a full disk) or not a call-back at all is skipped; the others are read. */
    @Test
    void linesThatAreNotACallBackAreSkipped() {
        assertThat(RunnerCallback.parseAll("\nkoala-host:41234 45002\nkoala-host 45002 47401 koala-host\n"
                + ":41234 45002 47401 koala-host\nkoala-host:x 45002 47401 koala-host\n"
                + "koala-host:41234 45002 47401 koala-host\n")).containsExactly(RUNNER);
    }
}
