package koala.fluent;

import static koala.fluent.Fixtures.busy;
import static koala.fluent.Fixtures.idle;
import static koala.fluent.Fixtures.job;
import static koala.fluent.Fixtures.rl;
import static koala.fluent.Fixtures.swc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Workers have 8 slots; SWC n=0 has 3 components, n=2 has 6, n=3 has 10. */
class ApplicationPlacementTest {

    @Test
    void partiallyBusyWorkersArePackedMostLoadedFirstThenIdleOnes() {
        List<FluentWorker> workers = List.of(busy("w10", 5), busy("w3", 2), idle("w1"), busy("w2", 5));
        FluentJob job = job("j1", swc("a", 0, 60), swc("b", 0, 60), swc("c", 2, 60), swc("d", 0, 60));

        PlacementOutcome outcome = ApplicationPlacement.place(workers, job);

        // w2 and w10 both have 3 free: w2 first in natural order; c fits exactly in w3; d finds no
        // partially busy worker with room and takes the idle w1
        assertThat(outcome.reasons()).containsExactly(
                "a placed: 3 slots on w2",
                "b placed: 3 slots on w10",
                "c placed: 6 slots on w3",
                "d placed: 3 slots on w1");
        assertThat(outcome.workers()).extracting(FluentWorker::freeSlots).containsExactly(0, 0, 5, 0);
        assertThat(outcome.allPlaced()).isTrue();
    }

    @Test
    void anSwcTooLargeForAnyBusyWorkerSpreadsOverThemBeforeTakingAnIdleOne() {
        List<FluentWorker> workers = List.of(idle("w4"), idle("w3"), busy("w2", 5), busy("w1", 6));

        PlacementOutcome outcome = ApplicationPlacement.place(workers, job("j1", swc("swc-1", 3, 60)));

        assertThat(outcome.reasons()).containsExactly("swc-1 placed: 10 slots on w1 (2), w2 (3), w3 (5)");
        assertThat(outcome.of("swc-1").orElseThrow().assignments()).containsExactly(
                new Assignment("w1", 2), new Assignment("w2", 3), new Assignment("w3", 5));
        assertThat(outcome.workers().get(0).isIdle()).as("w4 stays idle").isTrue();
    }

    @Test
    void anRlTakesAWholeIdleWorkerFirstByNaturalIdAndLeavesBusyOnesAlone() {
        List<FluentWorker> workers = List.of(busy("w1", 1), idle("w10"), idle("w9"));

        PlacementOutcome outcome = ApplicationPlacement.place(workers, job("j1", rl("rl-1"), rl("rl-2")));

        assertThat(outcome.reasons()).containsExactly("rl-1 placed: idle worker w9", "rl-2 placed: idle worker w10");
        assertThat(outcome.of("rl-1").orElseThrow().assignments()).containsExactly(new Assignment("w9", 8));
        assertThat(outcome.workers()).extracting(FluentWorker::freeSlots).containsExactly(7, 0, 0);
    }

    @Test
    void anRlWithoutAnIdleWorkerIsRejectedWhileSwcsQueueInOrder() {
        List<FluentWorker> workers = List.of(busy("w1", 8), busy("w2", 5));
        FluentJob job = job("j2", rl("rl-3"), swc("swc-4", 2, 60), swc("swc-5", 0, 60));

        PlacementOutcome outcome = ApplicationPlacement.place(workers, job);

        // swc-5 would fit the 3 free slots of w2 but does not overtake swc-4
        assertThat(outcome.reasons()).containsExactly(
                "rl-3 rejected: needs 1 idle worker, 0 free",
                "swc-4 queued: needs 6 slots, 3 free",
                "swc-5 queued: 1 SWC waiting ahead");
        assertThat(outcome.with(AppOutcome.Verdict.REJECTED)).hasSize(1);
        assertThat(outcome.with(AppOutcome.Verdict.QUEUED)).hasSize(2);
        assertThat(outcome.workers()).isEqualTo(workers);
    }

    @Test
    void swcsWaitingInTheMastersQueueKeepANewSwcBehindThemButNotAnRl() {
        PlacementOutcome outcome = ApplicationPlacement.place(List.of(idle("w1"), idle("w2")),
                job("j3", swc("swc-6", 0, 60), rl("rl-7")), 2);

        assertThat(outcome.reasons()).containsExactly(
                "swc-6 queued: 2 SWC waiting ahead",
                "rl-7 placed: idle worker w1");
    }

    @Test
    void anRlPlacedEarlierInTheJobTakesTheIdleWorkerALaterSwcWouldHaveUsed() {
        PlacementOutcome outcome = ApplicationPlacement.place(List.of(idle("w1")),
                job("j4", rl("rl-1"), swc("swc-2", 0, 60)));

        assertThat(outcome.reasons()).containsExactly(
                "rl-1 placed: idle worker w1",
                "swc-2 queued: needs 3 slots, 0 free");
    }

    @Test
    void aWorkerListedTwiceIsRefused() {
        assertThatThrownBy(() -> ApplicationPlacement.place(List.of(idle("w1"), idle("w1")), job("j", rl("r"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("worker w1 appears twice");
    }
}
