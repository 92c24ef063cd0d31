package koala.scheduler;

import static koala.scheduler.TestGrid.host;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.StartEstimateView;
import koala.estimate.Estimate;
import koala.estimate.GridSnapshot;
import koala.estimate.Hold;
import koala.estimate.QueuedJob;
import koala.placement.Resources;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Start estimates on a site of two hosts of 4 cores and 8 GiB (fs0-n1, fs0-n2): job 1 ("big", two nodes of
 * 4 cores, a wall time of 10 minutes) runs from 10:00:01 and holds both; what is queued behind it waits for
 * its end.
 */
class StartEstimatesTest {
    private static final String BIG = "+( &(name = big)(count = 2)(executable = /bin/sleep)(cores = 4)(maxWallTime = 10) )";
    private static final String NEXT = "+( &(name = next)(count = 1)(executable = /bin/true)(cores = 4)(maxWallTime = 5) )";

    private final TestGrid grid = new TestGrid(Map.of("fs0", 8), Duration.ofSeconds(60))
            .hosts("fs0", host("fs0-n1", 4, 8, 0), host("fs0-n2", 4, 8, 0));

    @AfterEach
    void close() {
        grid.close();
    }

    private long running(String jdf) {
        long id = grid.scheduler.submit("big.jdf", jdf, "alice", null).id();
        grid.tick(Duration.ofSeconds(1));
        grid.arrive(id);
        assertThat(grid.scheduler.status(id).state()).isEqualTo("RUNNING");
        return id;
    }

    /** The snapshot holds what runs (its start, wall time and hosts), what is queued in order, and nothing free. */
    @Test
    void theSnapshotHoldsTheRunningJobsNodesUntilItsEndAndTheQueueInItsOrder() {
        running(BIG);
        long next = grid.scheduler.submit("next.jdf", NEXT, "bob", null).id();
        long later = grid.scheduler.submit("later.jdf", NEXT.replace("next", "later"), "bob", null).id();
        grid.tick(Duration.ofSeconds(1));

        GridSnapshot s = grid.scheduler.startSnapshot(List.of(book(next), book(later)));

        assertThat(s.now()).isEqualTo(Instant.parse("2026-11-25T10:00:02Z"));
        assertThat(s.sites()).singleElement().satisfies(site -> assertThat(site.hosts())
                .allSatisfy(h -> assertThat(h.free().cores()).isZero()));
        assertThat(s.running()).singleElement().satisfies(r -> {
            assertThat(r.id()).isEqualTo("1");
            assertThat(r.owner()).isEqualTo("alice");
            assertThat(r.name()).isEqualTo("big");
            assertThat(r.started()).isEqualTo(Instant.parse("2026-11-25T10:00:01Z"));
            assertThat(r.wallTime()).isEqualTo(Duration.ofMinutes(10));
            assertThat(r.holds()).containsExactlyInAnyOrder(new Hold("fs0", "fs0-n1", new Resources(4, 0, 0)),
                    new Hold("fs0", "fs0-n2", new Resources(4, 0, 0)));
        });
        assertThat(s.queue()).extracting(QueuedJob::id).containsExactly("2", "3");
        assertThat(s.queue().get(0).wallTime()).isEqualTo(Duration.ofMinutes(5));
    }

    /**
     * Job 2 waits for job 1, whose nodes come back by its wall time (10:10:01) at the latest: likely at 10:05:01,
     * 8 times in 10 between 10:02:01 and 10:09:01 (the two jobs submitted in the last hour drawn as submissions to
     * come); it names job 1 as what it waits for.
     */
    @Test
    void aQueuedJobIsEstimatedToStartByTheEndOfTheJobThatHoldsItsHostsAndSaysSo() {
        running(BIG);
        long next = grid.scheduler.submit("next.jdf", NEXT, "bob", null).id();
        grid.tick(Duration.ofSeconds(1));

        Estimate e = grid.scheduler.startTimes().one(grid.scheduler.startSnapshot(List.of(book(next))), "2");

        // job 1's runtime is guessed from its wall time alone (no history): users' wall times are overestimates,
        // so its end is drawn between a twentieth of it and all of it; the range ends at its wall time
        assertThat(e.status()).isEqualTo(Estimate.Status.WAITING);
        assertThat(e.sites()).containsExactly("fs0");
        assertThat(e.likely()).isEqualTo(Instant.parse("2026-11-25T10:05:01Z"));
        assertThat(e.low()).isEqualTo(Instant.parse("2026-11-25T10:02:01Z"));
        assertThat(e.high()).isEqualTo(Instant.parse("2026-11-25T10:09:01Z"));
        assertThat(e.waits()).singleElement().satisfies(w -> assertThat(w.ending()).containsExactly("1"));
        assertThat(e.describe(java.time.ZoneOffset.UTC)).startsWith("likely ~10:05 (80%: 10:02 to 10:09); fs0 busy until")
                .contains("with jobs 1");
    }

    /** Once a refresh has run (off the loop), the job's status carries its estimate; once it runs, none. */
    @Test
    void aWaitingJobsStatusCarriesItsLatestEstimateAndARunningJobsNone() {
        long big = running(BIG);
        long next = grid.scheduler.submit("next.jdf", NEXT, "bob", null).id();

        StartEstimateView view = estimated(next);

        assertThat(view.status()).isEqualTo("WAITING");
        assertThat(view.sites()).containsExactly("fs0");
        assertThat(view.because()).contains("busy until").contains("with jobs 1");
        assertThat(grid.scheduler.status(big).estimate()).isNull();
    }

    /**
     * A grow the grid is too full for is told from when a node will likely be idle for it: when job 1's nodes come
     * back (likely at 10:05:01, as for a queued job of one node: a grow takes what is idle when asked again, ahead of
     * the queue); a node of 8 cores never will be.
     */
    @Test
    void aGrowTheGridIsTooFullForIsToldWhenANodeWillLikelyBeIdle() {
        running(BIG);
        grid.scheduler.startTimes().refresh(grid.scheduler.startSnapshot(List.of()));

        assertThat(grid.scheduler.startTimes().likelyIdle(new Resources(4, 0, 0), "fs0"))
                .contains(Instant.parse("2026-11-25T10:05:01Z"));
        assertThat(grid.scheduler.startTimes().likelyIdle(new Resources(8, 0, 0), "fs0")).isEmpty();
    }

    /**
     * A framework instance (OnDemand, {@code tIdle = 60}) holds fs0-n1's 4 cores with four workers; its runner
     * reports one busy and three idle since 10:00:00. Those three come back at 10:01:00, when their t_idle has
     * passed; the busy one is held past every estimate.
     */
    @Test
    void aFrameworkInstancesIdleWorkersComeBackWhenTheirTIdlePasses() {
        long id = grid.allocations().open("fluent", "alice").id();
        grid.frameworks().register(new koala.api.scheduler.FrameworkRegistration(id, "fluent", "x.jdf",
                "&(count = 1)(executable = /bin/true)", "ondemand", Map.of("tIdle", "60"), "http://127.0.0.1:1"));
        List<String> workers = grid.allocations().grow(id, new koala.api.scheduler.GrowRequest(4, "worker", "/bin/w",
                List.of(), Map.of(), "fs0")).nodes();
        grid.store.nodes(id).forEach(n -> grid.nodes().arrive(n.id(), n.token(), "fs0-n1"));
        Instant idleSince = Instant.parse("2026-11-25T10:00:00Z");
        grid.scheduler.shareReport(id, new koala.api.scheduler.ShareReport(List.of(
                new koala.api.scheduler.ShareReport.WorkerActivity(workers.get(0), true, null, 95.0),
                new koala.api.scheduler.ShareReport.WorkerActivity(workers.get(1), false, idleSince, 0.0),
                new koala.api.scheduler.ShareReport.WorkerActivity(workers.get(2), false, idleSince, 0.0),
                new koala.api.scheduler.ShareReport.WorkerActivity(workers.get(3), false, idleSince, 0.0)), null));

        GridSnapshot s = grid.scheduler.startSnapshot(List.of());

        assertThat(s.shrinks()).hasSize(3).allSatisfy(shrink -> {
            assertThat(shrink.instance()).isEqualTo(Long.toString(id));
            assertThat(shrink.at()).isEqualTo(Instant.parse("2026-11-25T10:01:00Z"));
            assertThat(shrink.hold().held()).isEqualTo(new Resources(1, 0, 0));
        });
        assertThat(s.running()).isEmpty();
    }

    /** The metrics show the waiting jobs' likely wait from now, at a scrape, and that none is unforeseen. */
    @Test
    void theMetricsShowHowLongTheWaitingJobsWillLikelyWait() {
        running(BIG);
        long next = grid.scheduler.submit("next.jdf", NEXT, "bob", null).id();
        StartEstimateView view = estimated(next);
        grid.metrics.startEstimates(grid.scheduler::startFigures);

        double wait = Duration.between(grid.clock.instant(), view.likely()).toMillis() / 1000.0;
        assertThat(grid.scrape()).contains("koala_queue_likely_wait_seconds{at=\"p50\"} " + wait)
                .contains("koala_queue_likely_wait_seconds{at=\"max\"} " + wait)
                .contains("koala_queue_jobs_unforeseen{why=\"never\"} 0.0");
    }

    /**
     * A dry run's job goes last in its priority's part of the queue, as a submit's would: a low one behind both
     * queued jobs, a high one ahead of them. Nothing is queued.
     */
    @Test
    void aDryRunsJobTakesTheQueuePlaceASubmitWouldGiveItAndQueuesNothing() {
        running(BIG);
        grid.scheduler.submit("next.jdf", NEXT, "bob", null);
        grid.scheduler.submit("later.jdf", NEXT.replace("next", "later"), "bob", null);

        GridSnapshot low = grid.scheduler.dryRunSnapshot("dry.jdf", NEXT.replace("next", "dry"), "carol");
        GridSnapshot high = grid.scheduler.dryRunSnapshot("dry.jdf",
                NEXT.replace("(name = next)", "(name = dry)(priority = high)"), "carol");

        assertThat(low.queue()).extracting(QueuedJob::id).containsExactly("2", "3", "0");
        assertThat(high.queue()).extracting(QueuedJob::id).containsExactly("0", "2", "3");
        assertThat(high.queue().get(0).owner()).isEqualTo("carol");
        assertThat(grid.scheduler.list()).hasSize(3);
    }

    /** A dry run's JDF is checked as a submit's is. */
    @Test
    void aDryRunOfABadJobDescriptionIsRefusedAsASubmitWouldBe() {
        assertThatThrownBy(() -> grid.scheduler.dryRunSnapshot("bad.jdf", "+( &(count = 0)(executable = /bin/true) )",
                "carol")).isInstanceOf(koala.jdf.JdfException.class).hasMessageContaining("bad.jdf:1:");
    }

    /**
     * A job estimated while it waited, then placed, is evidence of how right the estimates are: the wait its first
     * estimate's likely replay said, against the wait it had, calibrates the next ones.
     */
    @Test
    void aJobPlacedAfterItsEstimateCalibratesTheNextOnes() {
        long big = running(BIG);
        long next = grid.scheduler.submit("next.jdf", NEXT, "bob", null).id();
        estimated(next);
        grid.store.nodes(big).forEach(n -> grid.nodes().exited(n.id(), n.token(), 0));
        grid.tick(Duration.ofSeconds(1));
        grid.tick(Duration.ofSeconds(1));

        assertThat(grid.scheduler.status(next).state()).isEqualTo("CLAIMING");
        assertThat(grid.scheduler.startTimes().startHistory().ratios().stream().mapToInt(List::size).sum()).isEqualTo(1);
    }

    /** What a job that ran is guessed to run next time: the mean of its owner's last two runs of that name. */
    @Test
    void aJobThatRanIsHistoryForItsOwnersNextRunOfTheSameName() {
        long big = ranFourMinutes();
        assertThat(grid.scheduler.status(big).state()).isEqualTo("FINISHED");

        assertRanFourMinutes();
    }

    /**
     * The history outlives its scheduler: a round writes it to the store (at most every 30 s while it changes), and
     * a scheduler started again on that store, as after a crash or by a standby taking over, guesses from it.
     */
    @Test
    void aSchedulerStartedAgainGuessesFromTheHistoryTheOneBeforeItKept() {
        ranFourMinutes();
        assertThat(grid.store.state("start.runHistory")).as("written by the round after the job ended").isPresent();

        grid.scheduler = grid.start();

        assertRanFourMinutes();
    }

    /**
     * So does the calibration: a history of how right the estimates were (here one start, 2 min after a replayed
     * 1 min), kept by a round, is what a scheduler started again calibrates with.
     */
    @Test
    void aSchedulerStartedAgainCalibratesWithTheRatiosTheOneBeforeItKept() {
        koala.estimate.StartHistory one = koala.estimate.StartHistory.empty().with(Duration.ofMinutes(1),
                Duration.ofMinutes(2));
        new KeptHistory<>(grid.store, "start.calibration", koala.estimate.StartHistory.class,
                koala.estimate.StartHistory.empty()).keep(one, java.time.Instant.EPOCH);

        grid.scheduler = grid.start();

        assertThat(grid.scheduler.startTimes().startHistory()).isEqualTo(one);
        assertThat(one.ratios().get(0)).containsExactly(2.0);
    }

    /** Alice's job "big" runs 4 minutes and ends; a round follows. */
    private long ranFourMinutes() {
        long big = running(BIG);
        grid.tick(Duration.ofMinutes(4));
        grid.store.nodes(big).forEach(n -> grid.nodes().exited(n.id(), n.token(), 0));
        grid.tick(Duration.ofSeconds(1));
        return big;
    }

    /** The history has alice's "big" once, at 4 minutes (to the round's second). */
    private void assertRanFourMinutes() {
        assertThat(grid.scheduler.startTimes().history().lastRuns("alice", "big")).singleElement()
                .satisfies(d -> assertThat(d).isBetween(Duration.ofMinutes(4), Duration.ofMinutes(4).plusSeconds(1)));
    }

    /**
     * Job {@code id}'s estimate once a refresh made one: rounds run, {@link StartTimes#EVERY} apart, until then (a
     * round finds the refresh before it still running and leaves the next to a later round, as the loop does).
     */
    private StartEstimateView estimated(long id) {
        return Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> {
            grid.tick(StartTimes.EVERY);
            return grid.scheduler.status(id).estimate();
        }, java.util.Objects::nonNull);
    }

    private Job book(long id) {
        return grid.scheduler.job(id);
    }
}
