package koala.sim.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import koala.estimate.RunHistory;
import koala.estimate.RuntimeGuess;
import koala.placement.PlacementPolicies;
import koala.sim.experiment.StartTimeReplay.Observed;
import koala.sim.experiment.StartTimeReplay.Variant;
import koala.sim.experiment.StartTimeWorkload.Job;
import org.junit.jupiter.api.Test;

class StartTimeReplayTest {
    private static final long MIN = 60_000;

    /**
     * One site of 4 hosts of 8 cores, no local users. Job 1 (32 nodes, wall time 1 h) runs its hour from 0; job 2
     * (32 nodes, wall time 1 h, runs 30 min) is submitted at 10 min. Told the wall times, the estimate says job 2
     * starts at 60 min, when it does: a wait of 50 min, error 0, inside its range. The naive estimate (no job ahead
     * of it in the queue) says it starts at once: error 100%.
     */
    @Test
    void theEstimateAtSubmissionBesideTheStartThatHappened() {
        StartTimeWorkload w = new StartTimeWorkload(List.of(
                new Job(1, 0, "ann", "a", 32, 60 * MIN, Duration.ofHours(1)),
                new Job(2, 10 * MIN, "bob", "b", 32, 30 * MIN, Duration.ofHours(1))), List.of());
        Variant walls = new Variant("wall times", h -> RuntimeGuess.exact(RunHistory.empty(), Duration.ofHours(1)), 1, false,
                false, false);
        List<Observed> o = StartTimeReplay.run(w, new int[] {4}, 8, PlacementPolicies.byName("worst-fit"), List.of(walls));

        assertEquals(List.of(0L, 60 * MIN), o.stream().map(Observed::startMs).toList());
        assertEquals(50 * MIN, o.get(1).waitMs());
        assertEquals(60 * MIN, o.get(1).likely()[0]);
        assertEquals(0.0, StartTimeExperiment.error(o.get(1).likely()[0], o.get(1)));
        assertEquals(10 * MIN, o.get(1).naiveMs());
        assertEquals(1.0, StartTimeExperiment.error(o.get(1).naiveMs(), o.get(1)));
    }
}
