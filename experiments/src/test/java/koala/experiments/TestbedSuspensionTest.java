package koala.experiments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.fluent.wire.FluentMessages.AppReply;
import org.junit.jupiter.api.Test;

/** The figures of a testbed run with suspension, from the master's answers and its events. */
class TestbedSuspensionTest {
    private static final Instant T = Instant.parse("2026-11-26T10:00:00Z");

    private static String event(double seconds, String kind, String text, String extra) {
        return "{\"time\":\"" + T.plusMillis(Math.round(seconds * 1000)) + "\",\"kind\":\"" + kind + "\",\"text\":\""
                + text + "\"" + extra + "}";
    }

    private static AppReply app(String id, String kind, String verdict, String state) {
        return new AppReply(id, kind, verdict, state, List.of(), null, "", Map.of());
    }

    /**
     * Job j1 (2 RLs) arrived at 0 s, job j2 (an RL and a word count) at 10 s. j1.rl1 is placed at 0.5 s
     * and j1.rl2 rejected; j2.swc1 is placed at 10.2 s and suspended at 11 s for j2.rl1, placed then; its
     * 4 components move at 40 s and it finishes at 80 s. RLs: 3, 1 rejected (33.3%); RL start: (0.5 + 1)
     * / 2 = 0.75 s, the 95th percentile the larger, 1 s; the word count: 70 s from its arrival;
     * node-hours: 7,200 worker-seconds = 2.
     */
    @Test
    void rlRejectionsStartsAndWordCountCompletionComeFromTheAnswersAndTheEvents() throws Exception {
        TestbedFigures figures = new TestbedFigures("static", 4, 1, new double[] {0, 0}, 0, 7200, 0, 0, 0, List.of());
        TestbedRun.Result run = new TestbedRun.Result(figures, List.of(), 7, 0, Path.of("runner.log"),
                List.of(new TestbedRun.Submitted("j1", 2, T, 0.5), new TestbedRun.Submitted("j2", 2, T.plusSeconds(10),
                        1.0)),
                List.of(app("j1.rl1", "rl", "PLACED", "FINISHED"), app("j1.rl2", "rl", "REJECTED", "REJECTED"),
                        app("j2.rl1", "rl", "PLACED", "FINISHED"), app("j2.swc1", "swc", "PLACED", "FINISHED")));
        List<String> events = List.of(
                event(0.5, "NOTE", "j1.rl1 placed: idle worker w1", ""),
                event(0.5, "NOTE", "j1.rl2 rejected: needs 1 idle worker, 0 free", ""),
                event(10.2, "NOTE", "j2.swc1 placed: 4 slots on w2", ""),
                event(11, "NOTE", "j2.swc1 suspended (1 of 3) for an RL on w2", ""),
                event(11, "NOTE", "j2.rl1 placed: worker w2, suspending j2.swc1 (4 slots, suspension 1 of 3)", ""),
                event(40, "MOVED", "j2.swc1: moved 4 components: counter w2 → w3", ",\"app\":\"j2.swc1\",\"components\":4"),
                event(80, "APP_FINISHED", "j2.swc1 finished on w3: counts check: 8000 words", ",\"app\":\"j2.swc1\""),
                "");

        TestbedSuspension.Figures f = TestbedSuspension.figures("static", 3, run, events);

        assertThat(f.rls()).isEqualTo(3);
        assertThat(f.rlsRejected()).isEqualTo(1);
        assertThat(f.rejectedPercent()).isCloseTo(33.33, within(0.01));
        assertThat(f.rlStartMean()).isCloseTo(0.75, within(1e-9));
        assertThat(f.rlStartP95()).isCloseTo(1.0, within(1e-9));
        assertThat(f.swcs()).isEqualTo(1);
        assertThat(f.swcsFinished()).isEqualTo(1);
        assertThat(f.swcCompletionMean()).isCloseTo(70.0, within(1e-9));
        assertThat(f.nodeHours()).isCloseTo(2.0, within(1e-9));
        assertThat(f.suspensions()).isEqualTo(1);
        assertThat(f.moved()).isEqualTo(4);
    }
}
