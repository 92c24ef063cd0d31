package koala.site;

import koala.resourcemanager.ManagerUnreachable;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * The health rules as worked examples: probes every 2 s, DOWN when one has not answered within 5 s.
 * Probes run when the test says so ({@link Prober#answer}), at the test's clock.
 */
class CellHealthTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final String SILENT = "qstat -u koala did not answer within 5 s";

    /** Holds each probe the health starts until the test lets it answer, with the answer the test gives. */
    private static final class Prober implements Executor {
        private final Deque<Runnable> started = new ArrayDeque<>();
        private ManagerUnreachable next;

        @Override
        public void execute(Runnable probe) {
            started.add(probe);
        }

        int running() {
            return started.size();
        }

        /** The oldest running probe answers: {@code failure}, or fine when null. */
        void answer(ManagerUnreachable failure) {
            next = failure;
            started.remove().run();
        }

        void check() {
            if (next != null) {
                throw next;
            }
        }
    }

    private final ManualTimer timer = new ManualTimer(T0);
    private final Prober prober = new Prober();
    private final List<CellHealth.State> changes = new ArrayList<>();
    private final CellHealth health = new CellHealth("fs0", prober::check, "qstat -u koala", timer, timer, prober,
            Duration.ofSeconds(2), Duration.ofSeconds(5), changes::add);

    private void at(double seconds) {
        timer.advance(Duration.between(timer.instant(), T0.plusMillis(Math.round(seconds * 1000))));
    }

    private static Instant t(double seconds) {
        return T0.plusMillis(Math.round(seconds * 1000));
    }

    @Test
    void aQmasterPausedFromTenToThirtySecondsIsDownFromFifteenAndUpAtItsFirstAnswer() {
        assertThat(health.now()).isEqualTo(CellHealth.State.down("not checked yet", T0, false));
        health.start();
        for (int s = 0; s <= 8; s += 2) { // rounds at 0, 2, 4, 6, 8: each probe answers at once
            at(s);
            prober.answer(null);
        }
        assertThat(health.now()).isEqualTo(CellHealth.State.up(T0));

        at(10); // the round at 10 starts a probe; the qmaster is paused (kill -STOP) and it hangs
        assertThat(prober.running()).isEqualTo(1);
        at(14.999);
        assertThat(health.now().up()).isTrue(); // 4.999 s: not yet overdue; rounds at 12 and 14 start no second probe
        assertThat(prober.running()).isEqualTo(1);
        at(15); // 5 s after it started: DOWN at once, without waiting for the probe to end
        assertThat(health.now()).isEqualTo(CellHealth.State.down(SILENT, t(15), true));

        prober.answer(new ManagerUnreachable(SILENT, true)); // qstat killed at its own time-out: no change
        at(16); // the next round: a new probe, which hangs too; overdue at 21; still DOWN since 15
        at(21);
        prober.answer(new ManagerUnreachable(SILENT, true));
        at(22); // another probe, overdue at 27
        at(27);
        prober.answer(new ManagerUnreachable(SILENT, true));
        assertThat(health.now()).isEqualTo(CellHealth.State.down(SILENT, t(15), true));

        at(28); // a probe starts; the qmaster resumes at 30 and the probe answers at 30.1
        at(30.1);
        prober.answer(null);
        assertThat(health.now()).isEqualTo(CellHealth.State.up(t(30.1)));
        assertThat(changes).extracting(CellHealth.State::up).containsExactly(true, false, true);
    }

    @Test
    void aQmasterThatRefusesIsDownAtOnceWithSgesReasonAndUpAtTheNextAnswer() {
        health.start();
        at(0);
        prober.answer(null);
        at(2);
        prober.answer(new ManagerUnreachable("unable to contact qmaster using port 6444 on host \"vm\""));

        assertThat(health.now()).isEqualTo(CellHealth.State.down("unable to contact qmaster using port 6444 on host \"vm\"",
                t(2), false));
        at(4);
        prober.answer(null);
        assertThat(health.now()).isEqualTo(CellHealth.State.up(t(4)));
    }

    @Test
    void aFailureOtherWorkReportsHoldsUntilTheNextProbeAnswers() {
        health.start();
        at(0);
        prober.answer(null);
        at(1);
        health.report(new ManagerUnreachable("qstat -f -xml -u * did not answer within 20 s", true));

        assertThat(health.now()).isEqualTo(CellHealth.State.down("qstat -f -xml -u * did not answer within 20 s", t(1), true));
        at(2);
        prober.answer(null);
        assertThat(health.now()).isEqualTo(CellHealth.State.up(t(2)));
    }

    /** A snapshot's vaguer failure does not replace the reason the probe gave while the cell stays down. */
    @Test
    void aCellTheProbeFoundDownKeepsTheProbesReasonWhenOtherWorkFailsToo() {
        health.start();
        at(0);
        prober.answer(new ManagerUnreachable("squeue: error: Unable to contact slurm controller (connect failure)"));
        at(1);
        health.report(new ManagerUnreachable("sinfo --json: Unspecified error"));

        assertThat(health.now()).isEqualTo(CellHealth.State.down(
                "squeue: error: Unable to contact slurm controller (connect failure)", t(0), false));
        at(2);
        prober.answer(null);
        assertThat(health.now()).isEqualTo(CellHealth.State.up(t(2)));
    }

    @Test
    void whenProbingStopsUpIsBelievedForEveryPlusTimeOutAfterTheLastAnswer() {
        health.start();
        at(0);
        prober.answer(null);
        at(4);
        prober.answer(null); // the last answer, at 4
        timer.shutdownNow(); // no more rounds, no time-outs: as if the health thread were stuck

        at(11); // 4 + 2 + 5
        assertThat(health.now().up()).isTrue();
        at(12);
        assertThat(health.now()).isEqualTo(CellHealth.State.down("no probe of the cell has answered for 8 s", t(11), true));
    }

    @Test
    void aSecondReasonForBeingDownKeepsTheTimeItWentDown() {
        health.start();
        at(0);
        prober.answer(null);
        at(2);
        prober.answer(new ManagerUnreachable("unable to contact qmaster"));
        at(4);
        prober.answer(new ManagerUnreachable("commlib error: got select error (Connection refused)"));

        assertThat(health.now()).isEqualTo(CellHealth.State.down("commlib error: got select error (Connection refused)",
                t(2), false));
    }
}
