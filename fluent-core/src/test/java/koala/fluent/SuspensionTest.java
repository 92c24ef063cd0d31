package koala.fluent;

import static koala.fluent.Fixtures.T0;
import static koala.fluent.Fixtures.at;
import static koala.fluent.Fixtures.idle;
import static koala.fluent.Fixtures.job;
import static koala.fluent.Fixtures.rl;
import static koala.fluent.Fixtures.swc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.provisioning.PolicyKind;
import org.junit.jupiter.api.Test;

/**
 * Neptune-style suspension, worked examples. 8-slot workers; T0 is 10:00:00; RLs run 600 s; SWC
 * n=0 has 3 components, n=2 has 6.
 */
class SuspensionTest {

    private static FrameworkState master(int k, boolean moves) {
        return new FrameworkState(new FrameworkSettings(PolicyKind.STATIC, 8, Duration.ofSeconds(180))
                .withSuspension(k, moves), T0);
    }

    private static FluentJob jobAt(long seconds, String id, Application... apps) {
        return new FluentJob(id, List.of(apps), at(seconds));
    }

    /** w1 runs swc-a (6 slots, 300 s) from T0, w2 rl-1 (600 s) from T0; rl-2 arrives at 10 s. */
    private static FrameworkState busyScene(int k, boolean moves) {
        FrameworkState master = master(k, moves);
        master.addWorker("w1", T0);
        master.addWorker("w2", T0);
        assertThat(master.submit(job("j1", swc("swc-a", 2, 300), rl("rl-1")), T0).reasons())
                .containsExactly("swc-a placed: 6 slots on w1", "rl-1 placed: idle worker w2");
        return master;
    }

    @Test
    void anRlWithoutAnIdleWorkerSuspendsTheSwcOfABusyOneAndTheSwcResumesWhenTheRlEnds() {
        FrameworkState master = busyScene(3, false);

        PlacementOutcome j2 = master.submit(jobAt(10, "j2", rl("rl-2")), at(10));

        assertThat(j2.reasons()).containsExactly("rl-2 placed: worker w1, suspending swc-a (6 slots, suspension 1 of 3)");
        assertThat(j2.apps().get(0).suspended()).containsExactly(new Suspended("swc-a", "w1", 6, 1, 3));
        FluentWorker w1 = master.workers().get(0);
        assertThat(w1.running()).containsExactly(new FluentWorker.Running("rl-2", 8));
        assertThat(w1.suspended()).containsExactly(new FluentWorker.Running("swc-a", 6));
        assertThat(master.suspendedApps()).extracting(r -> r.app().id()).containsExactly("swc-a");
        assertThat(master.metrics(at(10)).rejected()).isZero();

        // rl-1 ends at 600 s: w2 is idle, but without moves swc-a waits for w1
        assertThat(master.end("rl-1", at(600)).resumed()).isEmpty();
        assertThat(master.workers().get(1).isIdle()).isTrue();

        // rl-2 ends at 610 s: swc-a takes its 6 slots back after 600 s, and ends 600 s later than it would have
        FrameworkState.Started started = master.end("rl-2", at(610));
        assertThat(started.resumed()).containsExactly(new Resumed("swc-a", List.of(new Assignment("w1", 6)),
                List.of(), Duration.ofSeconds(600), "swc-a resumed after 600 s suspended: w1 (6)"));
        FrameworkState.RunningApp a = master.running().get(0);
        assertThat(a.endsAt()).isEqualTo(at(900));
        assertThat(a.suspensions()).isEqualTo(1);
        assertThat(master.workers().get(0).running()).containsExactly(new FluentWorker.Running("swc-a", 6));

        Metrics m = master.metrics(at(610));
        assertThat(List.of(m.suspended(), m.resumed(), m.moved(), m.suspendedNow())).containsExactly(1, 1, 0, 0);
    }

    @Test
    void withMovesTheSuspendedSwcTakesTheFirstWorkerThatComesIdle() {
        FrameworkState master = busyScene(3, true);
        master.submit(jobAt(10, "j2", rl("rl-2")), at(10));

        FrameworkState.Started started = master.end("rl-1", at(600));

        assertThat(started.resumed()).extracting(Resumed::reason).containsExactly(
                "swc-a resumed after 590 s suspended: w2 (6) moved from w1");
        assertThat(master.workers()).extracting(FluentWorker::running).containsExactly(
                List.of(new FluentWorker.Running("rl-2", 8)), List.of(new FluentWorker.Running("swc-a", 6)));
        assertThat(master.workers().get(0).suspended()).isEmpty();
        // 300 s of work and 590 s suspended: it ends at 890 s; rl-2 ending frees w1 alone
        assertThat(master.running()).filteredOn(r -> r.app().id().equals("swc-a")).singleElement()
                .extracting(FrameworkState.RunningApp::endsAt).isEqualTo(at(890));
        assertThat(master.end("rl-2", at(610)).resumed()).isEmpty();
        assertThat(master.workers().get(0).isIdle()).isTrue();
    }

    @Test
    void anSwcIsSuspendedAtMostKTimesThenAnRlIsRejectedAsBefore() {
        FrameworkState master = busyScene(1, false);
        master.submit(jobAt(10, "j2", rl("rl-2")), at(10));
        master.end("rl-2", at(610)); // swc-a resumes on w1, suspended once

        PlacementOutcome j3 = master.submit(jobAt(620, "j3", rl("rl-3")), at(620));

        // w2 still runs rl-1 (its end was not reported here), and swc-a has been suspended its k = 1 times
        assertThat(j3.reasons()).containsExactly(
                "rl-3 rejected: needs 1 idle worker, 0 free, none with only suspendable work");
        assertThat(master.metrics(at(620)).rejected()).isEqualTo(1);
    }

    @Test
    void withoutSuspensionTheSameRlIsRejectedWithTodaysReason() {
        FrameworkState master = busyScene(0, false);

        assertThat(master.submit(jobAt(10, "j2", rl("rl-2")), at(10)).reasons())
                .containsExactly("rl-2 rejected: needs 1 idle worker, 0 free");
    }

    /**
     * w1 runs swc-a (6 slots), w2 swc-b (3), w3 swc-c (3) and swc-d (3): w2 pauses 3 slots, w3 6,
     * w1 6, so rl-1 takes w2; rl-2 then has w1 and w3 at 6 each, equal counts: w1 by id; rl-3 finds
     * w3; rl-4 finds nothing left to suspend.
     */
    @Test
    void theWorkerWhoseSuspensionPausesFewestSlotsIsChosenThenTheLeastSuspendedThenById() {
        List<FluentWorker> workers = List.of(
                new FluentWorker("w1", 8, List.of(new FluentWorker.Running("swc-a", 6)), null),
                new FluentWorker("w2", 8, List.of(new FluentWorker.Running("swc-b", 3)), null),
                new FluentWorker("w3", 8, List.of(new FluentWorker.Running("swc-c", 3), new FluentWorker.Running("swc-d", 3)), null));
        Suspendable may = new Suspendable(3, Map.of("swc-a", 0, "swc-b", 0, "swc-c", 0, "swc-d", 0),
                Map.of("swc-a", 6, "swc-b", 3, "swc-c", 3, "swc-d", 3));

        PlacementOutcome out = ApplicationPlacement.place(workers,
                job("j1", rl("rl-1"), rl("rl-2"), rl("rl-3"), rl("rl-4")), 0, may);

        assertThat(out.reasons()).containsExactly(
                "rl-1 placed: worker w2, suspending swc-b (3 slots, suspension 1 of 3)",
                "rl-2 placed: worker w1, suspending swc-a (6 slots, suspension 1 of 3)",
                "rl-3 placed: worker w3, suspending swc-c (3 slots, suspension 1 of 3), swc-d (3 slots, suspension 1 of 3)",
                "rl-4 rejected: needs 1 idle worker, 0 free, none with only suspendable work");
    }

    @Test
    void anSwcSpreadOverTwoWorkersCountsAllItsSlotsAndOneSuspendedMoreOftenLosesTheTie() {
        // swc-a: 3 on w1 and 3 on w2 (6 paused either way); swc-b: 6 on w3, suspended twice already
        List<FluentWorker> workers = List.of(
                new FluentWorker("w1", 8, List.of(new FluentWorker.Running("swc-a", 3), new FluentWorker.Running("rl-x", 5)), null),
                new FluentWorker("w2", 8, List.of(new FluentWorker.Running("swc-a", 3)), null),
                new FluentWorker("w3", 8, List.of(new FluentWorker.Running("swc-b", 6)), null));
        Suspendable may = new Suspendable(3, Map.of("swc-a", 0, "swc-b", 2), Map.of("swc-a", 6, "swc-b", 6));

        PlacementOutcome out = ApplicationPlacement.place(workers, job("j1", rl("rl-1")), 0, may);

        // w1 also holds rl-x, which is not suspendable; w2 and w3 pause 6 slots each; swc-a has the lower count
        assertThat(out.reasons()).containsExactly("rl-1 placed: worker w2, suspending swc-a (3 slots, suspension 1 of 3)");
    }

    @Test
    void onDemandDoesNotGrowForAnRlThatCanSuspendBatchWork() {
        FrameworkState with = new FrameworkState(new FrameworkSettings(PolicyKind.ONDEMAND, 8, Duration.ofSeconds(180))
                .withSuspension(3, true), T0);
        with.addWorker("w1", T0);
        with.submit(job("j1", swc("swc-a", 2, 300)), T0);

        assertThat(with.growRequest(jobAt(10, "j2", rl("rl-1"))).reason())
                .isEqualTo("no grow: job j2 lacks no workers: its 1 application starts on the current workers");
        // two RLs, one SWC to suspend: one new worker, which the first RL takes (idle first), the second suspends swc-a
        assertThat(with.growRequest(jobAt(10, "j2", rl("rl-1"), rl("rl-2"))).reason())
                .isEqualTo("ask to grow 1: job j2 lacks 1 worker of 8 slots: rl-1 needs an idle worker");
    }

    @Test
    void losingTheWorkerAnSwcIsSuspendedOnFailsIt() {
        FrameworkState master = busyScene(3, false);
        master.submit(jobAt(10, "j2", rl("rl-2")), at(10));

        FrameworkState.Lost lost = master.lose("w1", at(20));

        assertThat(lost.failed()).extracting(Application::id).containsExactly("rl-2", "swc-a");
        assertThat(master.suspendedApps()).isEmpty();
        assertThat(master.running()).extracting(r -> r.app().id()).containsExactly("rl-1");
    }

    @Test
    void aSnapshotKeepsSuspendedWorkAndTheOldCallIsRefusedWhenSomethingResumed() {
        FrameworkState master = busyScene(3, false);
        master.submit(jobAt(10, "j2", rl("rl-2")), at(10));

        FrameworkState restored = FrameworkState.restore(master.settings(), master.snapshot());
        assertThat(restored.snapshot()).isEqualTo(master.snapshot());
        assertThat(restored.end("rl-2", at(610)).resumed()).extracting(Resumed::reason)
                .containsExactly("swc-a resumed after 600 s suspended: w1 (6)");
        assertThatThrownBy(() -> master.finish("rl-2", at(610))).isInstanceOf(IllegalStateException.class)
                .hasMessage("SWCs resumed (swc-a resumed after 600 s suspended: w1 (6)): with suspension the caller "
                        + "takes Started");
    }

    @Test
    void aWorkerIsIdleOnlyWithNothingRunningOrSuspendedOnIt() {
        FluentWorker w = idle("w1").start("swc-a", 6).suspend(List.of("swc-a"));
        assertThat(w.isIdle()).isFalse();
        assertThat(w.freeSlots()).isEqualTo(8);
        assertThat(w.idleSince()).isNull();
        assertThat(w.stop("swc-a", at(5)).idleSince()).isEqualTo(at(5));
        assertThatThrownBy(() -> w.start("rl-1", 8).resume("swc-a")).isInstanceOf(IllegalStateException.class)
                .hasMessage("w1: swc-a needs 6 slots, 0 free");
    }

    /**
     * Taken back: w1 holds swc-a (6) and swc-b (2), w2 swc-b (1). At 30 s swc-a's 6 would fit w2's
     * 7 free slots, but swc-b may not move onto w2, which holds it already: w1 cannot yield. Once
     * w3 has joined, swc-a goes to w2 (the busy worker with room, best fit) and swc-b to w3.
     */
    @Test
    void aWorkerTakenBackYieldsItsBatchWorkWhenTheOthersHaveTheSlots() {
        FrameworkState master = master(3, true);
        master.addWorker("w1", T0);
        master.addWorker("w2", T0);
        master.submit(job("j1", swc("swc-a", 2, 300), swc("swc-b", 0, 300)), T0);
        assertThat(master.workers()).extracting(FluentWorker::usedSlots).containsExactly(8, 1);

        assertThat(master.yieldWorker("w1", at(30))).isEmpty();
        master.addWorker("w3", at(40));
        List<Resumed> moved = master.yieldWorker("w1", at(50)).orElseThrow();

        assertThat(moved).extracting(Resumed::reason).containsExactly(
                "swc-a moved from w1 to w2 (6): w1 taken back", "swc-b moved from w1 to w3 (2): w1 taken back");
        assertThat(master.workers()).extracting(FluentWorker::id).containsExactly("w2", "w3");
        assertThat(master.running()).filteredOn(r -> r.app().id().equals("swc-b")).singleElement()
                .extracting(FrameworkState.RunningApp::where).isEqualTo(List.of(new Assignment("w2", 1),
                        new Assignment("w3", 2)));
        assertThat(master.metrics(at(50)).yielded()).isEqualTo(1);
        FrameworkState noMoves = master(3, false);
        noMoves.addWorker("w1", T0);
        noMoves.addWorker("w2", T0);
        noMoves.submit(job("j1", swc("swc-a", 0, 300)), T0);
        assertThat(noMoves.yieldWorker("w1", at(10))).as("moves off: nothing yields").isEmpty();
    }

    /**
     * swc-b takes 4 slots of w1; swc-a (n=3, 10 components) packs w1's other 4 and 6 of w2. rl-1
     * finds no idle worker: w2 pauses 10 slots (swc-a), w1 14 (swc-a and swc-b), so w2 goes. The
     * whole of swc-a is suspended: its 4 slots on w1 are lent too; when rl-1 ends, swc-a takes back
     * its slots on both workers.
     */
    @Test
    void aSuspendedSwcLendsItsSlotsOnEveryWorkerAndTakesThemAllBack() {
        FrameworkState master = master(3, false);
        master.addWorker("w1", T0);
        master.addWorker("w2", T0);
        master.submit(job("j1", swc("swc-b", 1, 900)), T0);
        assertThat(master.submit(job("j2", swc("swc-a", 3, 300)), T0).reasons())
                .containsExactly("swc-a placed: 10 slots on w1 (4), w2 (6)");

        assertThat(master.submit(jobAt(10, "j3", rl("rl-1")), at(10)).reasons())
                .containsExactly("rl-1 placed: worker w2, suspending swc-a (6 slots, suspension 1 of 3)");
        assertThat(master.workers().get(0).suspended()).containsExactly(new FluentWorker.Running("swc-a", 4));
        assertThat(master.workers().get(0).freeSlots()).isEqualTo(4);

        FrameworkState.Started started = master.end("rl-1", at(610));
        assertThat(started.resumed()).extracting(Resumed::reason)
                .containsExactly("swc-a resumed after 600 s suspended: w1 (4), w2 (6)");
        assertThat(master.workers()).extracting(FluentWorker::freeSlots).containsExactly(0, 2);
    }
}
