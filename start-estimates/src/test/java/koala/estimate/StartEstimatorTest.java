package koala.estimate;

import static koala.estimate.Grids.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import koala.placement.PlacementReason;
import org.junit.jupiter.api.Test;

class StartEstimatorTest {
    private static final Duration DEFAULT = Duration.ofHours(1);

    /**
     * fs0 and fs1 of 4 nodes; job 31 holds all of fs0 until 10:05, job 33 three of fs1 until 10:20 (each ran an
     * hour before, started an hour ago). Queue: a (2 nodes, 30 min), b (4 nodes, 20 min), c (1 node, 10 min).
     * 10:00: only c fits (fs1's free node). 10:05: 31 ends, a goes to fs0 (worst fit: 4 idle against 0), b does
     * not fit in the 2 left. 10:10: c ends, fs1 has 1. 10:20: 33 ends, b takes fs1.
     */
    @Test
    void twoSitesTwoRunningJobsThreeQueued() {
        GridSnapshot snap = Grids.snapshot(List.of(Grids.site("fs0", 4, 4), Grids.site("fs1", 4, 3)),
                List.of(Grids.running("31", "09:05", Grids.holds("fs0", 0, 4)), Grids.running("33", "09:20", Grids.holds("fs1", 0, 3))),
                List.of(Grids.queued("a", 2), Grids.queued("b", 4), Grids.queued("c", 1)));
        RunHistory history = Grids.ran(Map.of("31", 60, "33", 60, "a", 30, "b", 20, "c", 10));
        List<Estimate> e = new StartEstimator(RuntimeGuess.exact(history, DEFAULT), 5, 1).estimate(snap);

        assertEquals(List.of("a", "b", "c"), e.stream().map(Estimate::jobId).toList());
        assertEquals(new Estimate("a", Estimate.Status.WAITING, at("10:05"), at("10:05"), at("10:05"), at("10:05"), List.of("fs0"),
                e.get(0).reasons(), List.of(new Estimate.SiteWait("fs0", at("10:05"), List.of("31"), List.of()))), e.get(0));
        assertEquals(PlacementReason.Kind.NOT_ENOUGH_IDLE, e.get(0).reasons().get(0).kind());
        assertEquals(at("10:20"), e.get(1).likely());
        assertEquals(List.of(new Estimate.SiteWait("fs1", at("10:20"), List.of("c", "33"), List.of())), e.get(1).waits());
        assertEquals(Estimate.Status.NOW, e.get(2).status());
        assertEquals(at("10:00"), e.get(2).likely());
        assertEquals("likely ~10:05 (80%: 10:05 to 10:05); fs0 busy until ~10:05 with jobs 31", e.get(0).describe(ZoneOffset.UTC));
    }

    /**
     * fs0 has 4 idle nodes, fs1 3 (one busy); job "cf" asks one node by Close-to-Files for its input "data", 10 GB
     * kept on fs1 only. With the grid's file catalog in the snapshot it is said to start now on fs1, as placement
     * would put it; without one (as before), Close-to-Files ranks as Worst-Fit and the estimate named fs0.
     */
    @Test
    void closeToFilesIsEstimatedWhereTheFilesAreByTheSnapshotsCatalog() {
        koala.placement.JobNeed need = new koala.placement.JobNeed("cf", List.of(new koala.placement.ComponentNeed(0, 1,
                null, List.of("data"))), false);
        QueuedJob cf = new QueuedJob("cf", "ann", "cf", need, koala.placement.PlacementPolicies.byName("close-to-files"), null);
        koala.placement.FileLocations catalog = new koala.placement.FileLocations(Map.of("data",
                new koala.placement.StoredFile(10_000_000_000L, java.util.Set.of("fs1"))), Map.of(), 100.0);
        List<SiteState> sites = List.of(Grids.site("fs0", 4, 0), Grids.site("fs1", 4, 1));
        List<RunningWork> running = List.of(Grids.running("33", "09:20", Grids.holds("fs1", 0, 1)));
        StartEstimator estimator = new StartEstimator(RuntimeGuess.exact(Grids.ran(Map.of("33", 60)), DEFAULT), 5, 1);

        Estimate withFiles = estimator.estimate(new GridSnapshot(Grids.TEN, sites, running, List.of(), List.of(), Map.of(),
                List.of(cf), Arrivals.NONE, catalog)).get(0);
        Estimate without = estimator.estimate(Grids.snapshot(sites, running, List.of(cf))).get(0);

        assertEquals(Estimate.Status.NOW, withFiles.status());
        assertEquals(List.of("fs1"), withFiles.sites());
        assertEquals(List.of("fs0"), without.sites());
    }

    /** Job x asks 9 nodes of a grid of 4 + 4: never placeable, with placement's reason, and it blocks nobody. */
    @Test
    void aJobPlacementCanNeverPlaceSaysSo() {
        GridSnapshot snap = Grids.snapshot(List.of(Grids.site("fs0", 4, 0), Grids.site("fs1", 4, 0)), List.of(),
                List.of(Grids.queued("x", 9), Grids.queued("y", 4)));
        List<Estimate> e = new StartEstimator(RuntimeGuess.exact(RunHistory.empty(), DEFAULT), 5, 1).estimate(snap);

        assertEquals(Estimate.Status.NEVER_PLACEABLE, e.get(0).status());
        assertNull(e.get(0).likely());
        assertEquals(PlacementReason.Kind.NEVER_FITS, e.get(0).reasons().get(0).kind());
        assertEquals(Estimate.Status.NOW, e.get(1).status());
    }

    /**
     * A framework instance holds fs0's 4 nodes; 2 of them have been idle and come back at 10:03 (what is left of
     * their t_idle). A 2-node job starts then; a 4-node job never sees the other 2 come back: not foreseen.
     */
    @Test
    void anIdleAllocationsShrinkFreesItsNodesAtTIdle() {
        GridSnapshot snap = new GridSnapshot(Grids.TEN, List.of(Grids.site("fs0", 4, 4)), List.of(), List.of(),
                Grids.holds("fs0", 0, 2).stream().map(h -> new Shrink("fw1", h, at("10:03"))).toList(), Map.of(),
                List.of(Grids.queued("big", 4), Grids.queued("two", 2)));
        List<Estimate> e = new StartEstimator(RuntimeGuess.exact(RunHistory.empty(), DEFAULT), 5, 1).estimate(snap);

        assertEquals(Estimate.Status.NOT_FORESEEN, e.get(0).status());
        assertEquals(at("10:03"), e.get(1).likely());
        assertEquals(List.of(new Estimate.SiteWait("fs0", at("10:03"), List.of("fw1"), List.of())), e.get(1).waits());
    }

    /**
     * fs0 of 4 nodes, job 7 holds 2 until 10:30, 2 free. Local users hold none now but 1 core on average over the
     * last hours: the estimate gives them one of the 2 free, so a 2-node job waits for 7 (10:30) instead of
     * starting now.
     */
    @Test
    void localLoadHoldsNodesBack() {
        RunHistory history = Grids.ran(Map.of("7", 60, "x", 10));
        GridSnapshot idle = Grids.snapshot(List.of(Grids.site("fs0", 4, 2)),
                List.of(Grids.running("7", "09:30", Grids.holds("fs0", 0, 2))), List.of(Grids.queued("x", 2)));
        GridSnapshot local = new GridSnapshot(idle.now(), idle.sites(), idle.running(), List.of(), List.of(),
                Map.of("fs0", new LocalLoad(0, 1, 1)), idle.queue());
        StartEstimator estimator = new StartEstimator(RuntimeGuess.exact(history, DEFAULT), 5, 1);

        assertEquals(at("10:00"), estimator.estimate(idle).get(0).likely());
        assertEquals(at("10:30"), estimator.estimate(local).get(0).likely());
    }

    /**
     * As above, but local users' jobs hold cores 20 min on average: they lack one core below their mean and take it
     * as their next jobs come, after ln 2 of 20 min in the likely run (13.9 min; the samples draw that time), not at
     * once. KOALA's round comes first: x fits in the 2 free nodes now and starts now.
     */
    @Test
    void localUsersBelowTheirMeanTakeWhatTheyLackAfterTheirTurnover() {
        RunHistory history = Grids.ran(Map.of("7", 60, "x", 10));
        GridSnapshot idle = Grids.snapshot(List.of(Grids.site("fs0", 4, 2)),
                List.of(Grids.running("7", "09:30", Grids.holds("fs0", 0, 2))), List.of(Grids.queued("x", 2)));
        GridSnapshot local = new GridSnapshot(idle.now(), idle.sites(), idle.running(), List.of(), List.of(),
                Map.of("fs0", new LocalLoad(0, 1, 1, Duration.ofMinutes(20))), idle.queue());
        Estimate e = new StartEstimator(RuntimeGuess.exact(history, DEFAULT), 5, 1).estimate(local).get(0);

        assertEquals(Estimate.Status.NOW, e.status());
        assertEquals(at("10:00"), e.likely());
    }

    /**
     * fs0 of 4 nodes, all free; local users hold none now, 0.5 cores on average (90th percentile 1.5), and no
     * turnover is known. In the likely run their level rounds to 1 core, held for good, so "whole" (4 nodes) never
     * starts there; the samples draw the level around 0.5, and in 3 of seed 1's 5 it rounds to 0 and whole starts
     * at once. Its median is a start, so it waits, and the sites are those of the sample that starts it then.
     */
    @Test
    void aJobTheLikelyRunNeverStartsTakesItsSitesFromTheMedianSample() {
        GridSnapshot idle = Grids.snapshot(List.of(Grids.site("fs0", 4, 0)), List.of(), List.of(Grids.queued("whole", 4)));
        GridSnapshot local = new GridSnapshot(idle.now(), idle.sites(), idle.running(), List.of(), List.of(),
                Map.of("fs0", new LocalLoad(0, 0.5, 1.5)), idle.queue());
        Estimate e = new StartEstimator(RuntimeGuess.exact(RunHistory.empty(), DEFAULT), 5, 1).estimate(local).get(0);

        assertEquals(Estimate.Status.WAITING, e.status());
        assertEquals(at("10:00"), e.likely());
        assertEquals(List.of("fs0"), e.sites());
    }

    /** A claim in flight holds fs0's 4 nodes for job 40 (15 min wall time, no history): starting; q starts at 10:15. */
    @Test
    void aClaimInFlightIsBusyAndItsJobIsStarting() {
        GridSnapshot snap = new GridSnapshot(Grids.TEN, List.of(Grids.site("fs0", 4, 4)), List.of(),
                List.of(new Claim("40", "bob", "render", Duration.ofMinutes(15), Grids.holds("fs0", 0, 4))), List.of(), Map.of(),
                List.of(Grids.queued("q", 3)));
        List<Estimate> e = new StartEstimator(RuntimeGuess.exact(RunHistory.empty(), DEFAULT), 5, 1).estimate(snap);

        assertEquals(Estimate.Status.STARTING, e.get(0).status());
        assertEquals(List.of("fs0"), e.get(0).sites());
        assertEquals(at("10:15"), e.get(1).likely());
    }

    /**
     * The range from seeded samples. One node, held by job 9 (started 10:00, predicted 60 min from history), and
     * history's 23 ratios of actual to predicted: ten of 0.5, three of 1.0 (the runs that made the predictions) and
     * ten of 1.5. Job w (history: 10 min) waits for 9: the likely run takes the median ratio, 1.0 (w starts at
     * 11:00); in the 21 drawn runs (seed 3) 9 ends at 10:30, 11:00 or 11:30: w's 10th percentile is 10:30, its
     * median 11:00 and its 90th 11:30.
     */
    @Test
    void theRangeComesFromSampledRuntimes() {
        RunHistory history = Grids.ran(Map.of("9", 60, "w", 10));
        RuntimeGuess.Prediction sixty = new RuntimeGuess.Prediction(Duration.ofMinutes(60), RuntimeGuess.Basis.HISTORY);
        for (int i = 0; i < 10; i++) {
            history = history.with("other", "o", Duration.ofMinutes(30), sixty).with("other", "o", Duration.ofMinutes(90), sixty);
        }
        history = history.with("ann", "9", Duration.ofMinutes(60), sixty);
        GridSnapshot snap = Grids.snapshot(List.of(Grids.site("fs0", 1, 1)),
                List.of(Grids.running("9", "10:00", Grids.holds("fs0", 0, 1))), List.of(Grids.queued("w", 1)));
        Estimate e = new StartEstimator(RuntimeGuess.of(history, DEFAULT), 21, 3).estimate(snap).get(0);

        assertEquals(at("11:00"), e.likely());
        assertEquals(at("10:30"), e.low());
        assertEquals(at("11:30"), e.high());
        assertEquals(List.of(new Estimate.SiteWait("fs0", at("11:00"), List.of("9"), List.of())), e.waits());
    }
}
