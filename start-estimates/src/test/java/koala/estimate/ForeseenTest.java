package koala.estimate;

import static koala.estimate.Grids.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the snapshot foresees beyond the work running now: submissions to come, local users leaving, calibration. */
class ForeseenTest {
    private static final Duration DEFAULT = Duration.ofHours(1);

    /**
     * fs0 of 4 nodes: r1 holds 2 until 10:30, r2 2 until 11:15; "big" (4 nodes) waits. One submission an hour
     * lately, of "small" (2 nodes, 30 min): the likely run submits it at 11:00, it takes the 2 nodes r1 left
     * (no job blocks the ones behind it) until 11:30, so big starts at 11:30, not at 11:15. (The samples draw the
     * submissions' times, a Poisson stream of that rate, so their median need not be the likely run's.)
     */
    @Test
    void aSubmissionToComeMayStartBeforeALargeWaitingJob() {
        RunHistory history = Grids.ran(Map.of("r1", 60, "r2", 60, "small", 30));
        List<RunningWork> running = List.of(Grids.running("r1", "09:30", Grids.holds("fs0", 0, 2)),
                Grids.running("r2", "10:15", Grids.holds("fs0", 2, 2)));
        GridSnapshot quiet = Grids.snapshot(List.of(Grids.site("fs0", 4, 4)), running, List.of(Grids.queued("big", 4)));
        GridSnapshot busy = new GridSnapshot(quiet.now(), quiet.sites(), running, List.of(), List.of(), Map.of(), quiet.queue(),
                new Arrivals(1, List.of(Grids.queued("small", 2))));
        StartEstimator estimator = new StartEstimator(RuntimeGuess.exact(history, DEFAULT), 5, 1);

        assertEquals(at("11:15"), estimator.estimate(quiet).get(0).likely());
        Estimate e = estimator.estimate(busy).get(0);
        assertEquals(List.of(new Estimate.SiteWait("fs0", at("11:30"), List.of("r1", "r2", "new-1"), List.of())), e.waits());
    }

    /**
     * A queue that starves a large job: fs0 of 2 nodes, r1 holds one until 10:30, r2 the other until 10:45; "big"
     * (2 nodes) waits. One 1-node, 60-min job is submitted every 30 min: in the likely run each takes the node the one
     * two before it gives back at that very instant, so both are never free at once while submissions come. They stop
     * after 2 x 1 queued + 1000 (the guard): submission 1002 comes at 10:00 + 1002 x 30 min, and big starts when it
     * ends, at 10:00 + 1004 x 30 min (502 h later). With the guard at 50 more, as before, it would have been 27 h.
     */
    @Test
    void aStarvingJobWaitsAsLongAsSubmissionsKeepComing() {
        RunHistory history = Grids.ran(Map.of("r1", 60, "r2", 60, "small", 60));
        List<RunningWork> running = List.of(Grids.running("r1", "09:30", Grids.holds("fs0", 0, 1)),
                Grids.running("r2", "09:45", Grids.holds("fs0", 1, 1)));
        GridSnapshot snap = new GridSnapshot(Grids.TEN, List.of(Grids.site("fs0", 2, 2)), running, List.of(), List.of(), Map.of(),
                List.of(Grids.queued("big", 2)), new Arrivals(2, List.of(Grids.queued("small", 1))));
        Estimate e = new StartEstimator(RuntimeGuess.exact(history, DEFAULT), 5, 1).estimate(snap).get(0);

        Estimate.SiteWait w = e.waits().get(0);
        assertEquals(Grids.TEN.plus(Duration.ofMinutes(1004 * 30)), w.until());
        assertEquals("new-1002", w.ending().get(w.ending().size() - 1));
    }

    /**
     * fs0 of 4 nodes, local users hold 2 of them now but none on average, and their jobs hold cores an hour on
     * average: in the likely run the 2 come back after ln 2 of an hour (the median of an exponential turnover), when
     * a 4-node job starts (the samples draw that time). Without a turnover they never leave: no start is foreseen.
     */
    @Test
    void localUsersAboveTheirMeanLeaveAfterTheirTurnover() {
        GridSnapshot snap = Grids.snapshot(List.of(Grids.site("fs0", 4, 2)), List.of(), List.of(Grids.queued("x", 4)));
        StartEstimator estimator = new StartEstimator(RuntimeGuess.exact(RunHistory.empty(), DEFAULT), 5, 1);

        Estimate leaving = estimator.estimate(withLocal(snap, new LocalLoad(2, 0, 0, Duration.ofHours(1)))).get(0);
        assertEquals(new Estimate.SiteWait("fs0", Grids.TEN.plusMillis(Math.round(Math.log(2) * 3_600_000)),
                List.of("local users of fs0"), List.of()), leaving.waits().get(0));
        Estimate staying = estimator.estimate(withLocal(snap, new LocalLoad(2, 0, 0))).get(0);
        assertEquals(Estimate.Status.NOT_FORESEEN, staying.status());
        assertNull(staying.likely());
    }

    /**
     * The replays say 10:20 (r ends then). Earlier estimates of 10 min to an hour: 20 started after 0.5, 2.0 or 4.0
     * times their replayed wait (2, 15 and 3 of them): the likely wait becomes 2 x 20 min (10:40), the range is
     * widened to 0.5 x to 4 x (10:10 to 11:20); the replayed start stays 10:20.
     */
    @Test
    void earlierEstimatesCalibrateTheLikelyStartAndTheRange() {
        GridSnapshot snap = Grids.snapshot(List.of(Grids.site("fs0", 1, 1)),
                List.of(Grids.running("r", "09:20", Grids.holds("fs0", 0, 1))), List.of(Grids.queued("w", 1)));
        StartEstimator estimator = new StartEstimator(RuntimeGuess.exact(Grids.ran(Map.of("r", 60)), DEFAULT), 5, 1);
        StartHistory started = StartHistory.empty();
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            ratios.add(i < 2 ? 0.5 : i < 17 ? 2.0 : 4.0);
        }
        for (double r : ratios) {
            started = started.with(Duration.ofMinutes(20), Duration.ofSeconds(Math.round(1200 * r)));
        }
        Estimate e = estimator.estimate(snap, started).get(0);

        assertEquals(List.of(at("10:40"), at("10:10"), at("11:20"), at("10:20")), List.of(e.likely(), e.low(), e.high(), e.replayed()));
        assertEquals(at("10:20"), estimator.estimate(snap).get(0).likely());
    }

    private static GridSnapshot withLocal(GridSnapshot s, LocalLoad load) {
        return new GridSnapshot(s.now(), s.sites(), s.running(), s.claims(), s.shrinks(), Map.of("fs0", load), s.queue());
    }
}
