package koala.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import koala.arbitration.ArbitrationSettings;
import koala.arbitration.ShareRule;
import koala.provisioning.PolicyKind;
import koala.provisioning.ProvisioningSettings;
import org.junit.jupiter.api.Test;

/**
 * An OnDemand instance r (minShare 2) runs two RLs of 300 s from 10 s on a grid of 2 nodes; an
 * OnDemand instance w of word counts (8-slot workers) gets a job of one SWC of 8 mappers, 600 s, at
 * 100 s. O_grow 30 s, samples every 40 s, rounds every 15 s, fair; the run lasts 1,500 s.
 */
class QueuedWorkTest {
    private static final Workload R = WorkloadFile.parse("r.txt", List.of("# length 1500",
            "10 j1 r1 rl 300 30 80", "10 j1 r2 rl 300 30 80"), 1);
    private static final Workload W = WorkloadFile.parse("w.txt", List.of("# length 1500",
            "100 j1 w1 swc 600 3 60"), 1);

    private static Simulation.Shared run(boolean queuedDemand) {
        return new Simulation(new SimGrid(List.of(2), SimGrid.Background.NONE, 1), 1)
                .arbitrated(ArbitrationSettings.of(ShareRule.FAIR).withQueuedDemand(queuedDemand))
                .instance("r", R, ProvisioningSettings.builtIn(PolicyKind.ONDEMAND).withMinShare(2).toSettings(),
                        GrowDelay.fixed(Duration.ofSeconds(30)), "fs0")
                .instance("w", W, ProvisioningSettings.defaults(PolicyKind.ONDEMAND, 0),
                        GrowDelay.fixed(Duration.ofSeconds(30)), "fs0")
                .runShared(R.end());
    }

    @Test
    void withoutItAWordCountRefusedOnArrivalWaitsForAnAskThatNeverComes() {
        // 100 s: w asks for 2 workers (8 mappers and a reducer: 9 slots); r holds its minimum share, 2: refused.
        // The SWC queues in w's master, which asks again only for a new job. r's RLs end at 340 s; its runner sees
        // them idle from its sample of 360 s and gives them back at that of 560 s (t_idle 6 × O_grow = 180 s), and
        // w's SWC still waits at 1,500 s: slowdown (1,400 + 600) / 600
        TenantMetrics w = run(false).tenants().get(1);
        assertThat(w.meanSlowdown()).isEqualTo(2000 / 600.0);
        assertThat(w.run().allocatedHours()).isZero();
    }

    @Test
    void withItTheQueueIsServedAtTheFirstRoundAfterNodesComeFree() {
        // the queue is w's standing request: at the round of 570 s (r gave its 2 nodes back at 560 s) it gets both,
        // "grant 2 for its queued work, from the free nodes"; they report in at 600 s, where the SWC starts: it ends
        // at 1,200 s, slowdown 1,100 / 600
        TenantMetrics w = run(true).tenants().get(1);
        assertThat(w.meanSlowdown()).isEqualTo(1100 / 600.0);
    }
}
