package koala.fluent;

import koala.provisioning.PolicyKind;
import static koala.fluent.Fixtures.T0;
import static koala.fluent.Fixtures.at;
import static koala.fluent.Fixtures.job;
import static koala.fluent.Fixtures.rl;
import static koala.fluent.Fixtures.swc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** 8-slot workers, t_idle 180 s; T0 is 10:00:00. RLs run 600 s. */
class FrameworkStateTest {

    private static FrameworkState master(PolicyKind policy) {
        return new FrameworkState(new FrameworkSettings(policy, 8, Duration.ofSeconds(180)), T0);
    }

    private static FluentJob jobAt(Instant at, String id, Application... apps) {
        return new FluentJob(id, List.of(apps), at);
    }

    @Test
    void queuedSwcsStartFirstComeFirstServedAsApplicationsFinish() {
        FrameworkState master = master(PolicyKind.ONDEMAND);
        master.addWorker("w1", T0);
        master.addWorker("w2", T0);
        master.submit(job("j1", rl("rl-1"), swc("swc-a", 2, 300)), T0);

        PlacementOutcome j2 = master.submit(jobAt(at(10), "j2", swc("swc-b", 2, 300), swc("swc-c", 0, 300), rl("rl-d")), at(10));

        assertThat(j2.reasons()).containsExactly(
                "swc-b queued: needs 6 slots, 2 free",
                "swc-c queued: 1 SWC waiting ahead",
                "rl-d rejected: needs 1 idle worker, 0 free");
        assertThat(master.running()).filteredOn(r -> r.app().id().equals("swc-a")).singleElement()
                .extracting(FrameworkState.RunningApp::endsAt).isEqualTo(at(300));

        // swc-a frees 6 slots of w2: swc-b takes them; swc-c (3) finds only 2 free and waits
        assertThat(master.finish("swc-a", at(300))).extracting(AppOutcome::reason)
                .containsExactly("swc-b started from the queue: 6 slots on w2, waited 290 s");
        assertThat(master.queue()).extracting(Application::id).containsExactly("swc-c");

        // rl-1 frees w1: swc-c packs the 2 slots left on w2 before taking 1 of the idle w1
        assertThat(master.finish("rl-1", at(600))).extracting(AppOutcome::reason)
                .containsExactly("swc-c started from the queue: 3 slots on w2 (2), w1 (1), waited 590 s");
        assertThat(master.queue()).isEmpty();
        assertThat(master.running()).extracting(r -> r.app().id()).containsExactly("swc-b", "swc-c");
    }

    @Test
    void aLostWorkerFailsWhatRanOnItAndTheQueueStartsOnTheWorkersLeftNeverOnIt() {
        FrameworkState master = master(PolicyKind.ONDEMAND);
        master.addWorker("w1", T0);
        master.addWorker("w2", T0);
        // swc-a takes 6 slots of w1 (2 left), swc-b 6 (the 2 of w1 and 4 of w2); swc-d (6) finds 4 free and waits
        assertThat(master.submit(job("j1", swc("swc-a", 2, 300), swc("swc-b", 2, 300), swc("swc-d", 2, 300)), T0)
                .reasons()).containsExactly("swc-a placed: 6 slots on w1", "swc-b placed: 6 slots on w1 (2), w2 (4)",
                "swc-d queued: needs 6 slots, 4 free");

        // w1 is ended at 10:01:00: swc-a and swc-b fail (swc-b's 4 slots on w2 are free again) and swc-d starts on w2,
        // not on w1, which is gone
        FrameworkState.Lost lost = master.lose("w1", at(60));
        assertThat(lost.failed()).extracting(Application::id).containsExactly("swc-a", "swc-b");
        assertThat(lost.started()).extracting(AppOutcome::reason)
                .containsExactly("swc-d started from the queue: 6 slots on w2, waited 60 s");
        assertThat(master.workers()).extracting(FluentWorker::id).containsExactly("w2");
        assertThat(master.running()).extracting(r -> r.app().id()).containsExactly("swc-d");
        // w1's busy time up to its end is kept
        assertThat(master.metrics(at(60)).workerTime().get("w1").busy()).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void theHeadOfTheQueueIsNotOvertakenByASmallerSwcBehindIt() {
        FrameworkState master = master(PolicyKind.STATIC);
        master.addWorker("w1", T0);
        master.submit(job("j1", swc("big-0", 2, 100)), T0);
        master.submit(job("j2", swc("big-1", 2, 100), swc("small-2", 0, 100)), T0);

        // 2 slots free: small-2 (3) would not fit anyway; a worker joining gives big-1 room first
        assertThat(master.addWorker("w2", at(50))).extracting(AppOutcome::reason).containsExactly(
                "big-1 started from the queue: 6 slots on w1 (2), w2 (4), waited 50 s",
                "small-2 started from the queue: 3 slots on w2, waited 50 s");
    }

    @Test
    void metricsCountApplicationsAndEachWorkersBusyAndIdleTime() {
        FrameworkState master = master(PolicyKind.ONDEMAND);
        master.addWorker("w1", T0);
        master.addWorker("w2", T0);
        master.submit(job("j1", rl("rl-1"), swc("swc-a", 2, 300)), T0);
        master.submit(jobAt(at(10), "j2", swc("swc-b", 2, 300), swc("swc-c", 0, 300), rl("rl-d")), at(10));
        master.finish("swc-a", at(300));
        master.finish("rl-1", at(600));
        master.addWorker("w3", at(650));
        master.removeWorker("w3", at(680));

        Metrics metrics = master.metrics(at(700));

        assertThat(metrics.accepted()).isEqualTo(2);
        assertThat(metrics.queued()).isEqualTo(2);
        assertThat(metrics.rejected()).isEqualTo(1);
        assertThat(metrics.startedFromQueue()).isEqualTo(2);
        assertThat(metrics.finished()).isEqualTo(2);
        assertThat(metrics.waiting()).isZero();
        assertThat(metrics.running()).isEqualTo(2);
        assertThat(metrics.workerTime()).isEqualTo(Map.of(
                "w1", new WorkerTime(Duration.ofSeconds(700), Duration.ZERO),
                "w2", new WorkerTime(Duration.ofSeconds(700), Duration.ZERO),
                "w3", new WorkerTime(Duration.ZERO, Duration.ofSeconds(30))));
    }

    @Test
    void aWorkerIdleBetweenApplicationsCountsThatTimeAsIdle() {
        FrameworkState master = master(PolicyKind.ONDEMAND);
        master.addWorker("w1", T0);
        master.submit(jobAt(at(100), "j1", swc("a", 0, 200)), at(100));
        master.finish("a", at(300));

        assertThat(master.metrics(at(400)).workerTime().get("w1"))
                .isEqualTo(new WorkerTime(Duration.ofSeconds(200), Duration.ofSeconds(200)));
    }

    @Test
    void onDemandAsksForExactlyTheWorkersAJobLacksAndTheJobStartsOnceTheyJoin() {
        FrameworkState master = master(PolicyKind.ONDEMAND);
        master.addWorker("w1", T0);
        master.addWorker("w2", T0);
        master.submit(job("j1", swc("swc-0", 2, 900)), T0);
        FluentJob j2 = jobAt(at(60), "j2", rl("rl-1"), rl("rl-2"), rl("rl-3"), swc("swc-4", 2, 300));

        // swc-0 packs w1 and leaves w2 idle: 1 idle worker and 2 free slots, as in the issue
        assertThat(master.growRequest(j2)).isEqualTo(new ResizeRequest(3, List.of(), true,
                "ask to grow 3: job j2 lacks 3 workers of 8 slots: rl-2, rl-3 need an idle worker each; "
                        + "swc-4 needs 4 slots more"));

        master.addWorker("w3", at(90));
        master.addWorker("w4", at(90));
        master.addWorker("w5", at(90));
        assertThat(master.submit(j2, at(90)).reasons()).containsExactly(
                "rl-1 placed: idle worker w2",
                "rl-2 placed: idle worker w3",
                "rl-3 placed: idle worker w4",
                "swc-4 placed: 6 slots on w1 (2), w5 (4)");
    }

    @Test
    void proactiveAndStaticOnlyReportWhatOnDemandWouldAsk() {
        FrameworkState master = master(PolicyKind.PROACTIVE);
        FluentJob job = job("j1", rl("rl-1"));

        assertThat(master.growRequest(job)).isEqualTo(new ResizeRequest(1, List.of(), false,
                "report only (proactive provisioning): job j1 lacks 1 worker of 8 slots: rl-1 needs an idle worker"));
        master.addWorker("w1", T0);
        assertThat(master.growRequest(job)).isEqualTo(new ResizeRequest(0, List.of(), false,
                "no grow: job j1 lacks no workers: its 1 application starts on the current workers"));
    }

    @Test
    void onDemandAsksToReleaseWorkersIdleAtLeastTIdleLongestIdleFirst() {
        FrameworkState onDemand = releaseScene(PolicyKind.ONDEMAND);

        assertThat(onDemand.releaseRequest(at(200))).isEqualTo(new ResizeRequest(0, List.of("w2"), true,
                "ask to release w2: w2 idle since 10:00:00, 200 s >= t_idle 180 s"));
        assertThat(onDemand.releaseRequest(at(240))).isEqualTo(new ResizeRequest(0, List.of("w2", "w3"), true,
                "ask to release w2, w3: w2 idle since 10:00:00, 240 s >= t_idle 180 s; "
                        + "w3 idle since 10:01:00, 180 s >= t_idle 180 s"));
        assertThat(onDemand.releaseRequest(at(179))).isEqualTo(new ResizeRequest(0, List.of(), false,
                "no release: no worker idle >= t_idle 180 s"));
        assertThat(releaseScene(PolicyKind.STATIC).releaseRequest(at(200))).isEqualTo(new ResizeRequest(0,
                List.of("w2"), false, "report only (static provisioning): w2 idle since 10:00:00, 200 s >= t_idle 180 s"));
    }

    /** w1 runs an RL from T0, w2 is idle from T0, w3 joins at 10:01:00. */
    private static FrameworkState releaseScene(PolicyKind policy) {
        FrameworkState master = master(policy);
        master.addWorker("w1", T0);
        master.addWorker("w2", T0);
        master.submit(job("j1", rl("rl-1")), T0);
        master.addWorker("w3", at(60));
        return master;
    }

    @Test
    void aBusyWorkerIsNotRemovedAndTimeDoesNotGoBack() {
        FrameworkState master = master(PolicyKind.ONDEMAND);
        master.addWorker("w1", T0);
        master.submit(job("j1", rl("rl-1")), T0);

        assertThatThrownBy(() -> master.removeWorker("w1", at(10))).isInstanceOf(IllegalStateException.class)
                .hasMessage("w1 runs rl-1; only an idle worker is removed");
        master.finish("rl-1", at(600));
        assertThatThrownBy(() -> master.addWorker("w2", at(599))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("time went back from 2024-05-01T10:10:00Z to 2024-05-01T10:09:59Z");
    }

    @Test
    void anApplicationIdIsUniqueAmongLiveApplicationsOnly() {
        FrameworkState master = master(PolicyKind.ONDEMAND);
        master.addWorker("w1", T0);
        master.submit(job("j1", rl("rl-1")), T0);

        assertThatThrownBy(() -> master.submit(job("j2", rl("rl-1")), at(10)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("application rl-1 is already running or queued");
        master.finish("rl-1", at(600));
        assertThat(master.submit(jobAt(at(600), "j3", rl("rl-1")), at(600)).allPlaced()).isTrue();
    }

    @Test
    void retunedSettingsApplyToTheNextRequests() {
        FrameworkState master = new FrameworkState(new FrameworkSettings(PolicyKind.ONDEMAND, 8,
                Duration.ofSeconds(180)), Instant.parse("2026-11-21T10:00:00Z"));
        master.addWorker("w1", Instant.parse("2026-11-21T10:00:00Z"));
        Instant later = Instant.parse("2026-11-21T10:01:00Z");
        assertThat(master.releaseRequest(later).release()).isEmpty();
        master.retune(new FrameworkSettings(PolicyKind.ONDEMAND, 8, Duration.ofSeconds(60)));
        assertThat(master.releaseRequest(later).release()).containsExactly("w1");
        master.retune(new FrameworkSettings(PolicyKind.PROACTIVE, 8, Duration.ofSeconds(60)));
        assertThat(master.releaseRequest(later).ask()).as("proactive: reported, not asked").isFalse();
    }

    /**
     * A restored snapshot is the same state machine: w1 runs rl-1 (8 slots), w2 runs swc-a (6 of 8);
     * swc-b (6) and swc-c (3) wait. When swc-a ends at 300 s, both the original and the restored
     * start swc-b on w2 and keep swc-c waiting (2 free), with the same counters.
     */
    @Test
    void aRestoredSnapshotMakesTheSameDecisionsAsTheStateItWasTakenOf() {
        FrameworkState original = master(PolicyKind.STATIC);
        original.addWorker("w1", T0);
        original.addWorker("w2", T0);
        original.submit(job("j1", rl("rl-1"), swc("swc-a", 2, 300)), T0);
        original.submit(jobAt(at(10), "j2", swc("swc-b", 2, 300), swc("swc-c", 0, 300)), at(10));

        FrameworkState restored = FrameworkState.restore(original.settings(), original.snapshot());
        assertThat(restored.snapshot()).isEqualTo(original.snapshot());

        List<AppOutcome> fromOriginal = original.finish("swc-a", at(300));
        List<AppOutcome> fromRestored = restored.finish("swc-a", at(300));
        assertThat(fromRestored).isEqualTo(fromOriginal);
        assertThat(fromRestored).extracting(AppOutcome::reason)
                .containsExactly("swc-b started from the queue: 6 slots on w2, waited 290 s");
        assertThat(restored.queue()).extracting(Application::id).containsExactly("swc-c");
        assertThat(restored.metrics(at(300))).isEqualTo(original.metrics(at(300)));
        assertThatThrownBy(() -> restored.finish("swc-a", at(301))).hasMessageContaining("no running application swc-a");
    }
}
