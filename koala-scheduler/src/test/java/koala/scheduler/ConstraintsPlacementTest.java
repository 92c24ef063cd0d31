package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import koala.scheduler.claiming.NodeClaim;
import org.junit.jupiter.api.Test;

/**
 * A job's placement constraints as the scheduler keeps them, on the fake grid (Worst-Fit by default):
 * fs0 with 8 nodes, fs1 with 4, all idle.
 */
class ConstraintsPlacementTest {
    private static final String APART = "+( &(count = 2)(executable = /bin/true)(tags = a)"
            + "(constraints = \"anti-affinity b site\") )( &(count = 2)(executable = /bin/true)(tags = b) )";

    private static Map<Integer, String> sites(TestGrid grid, long job) {
        Map<Integer, String> sites = new java.util.TreeMap<>();
        for (NodeClaim n : grid.store.nodes(job)) {
            sites.put(n.component(), n.site());
        }
        return sites;
    }

    @Test
    void twoComponentsKeptOnDifferentSites() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 8, "fs1", 4), Duration.ofSeconds(60))) {
            // Worst-Fit alone: 2 nodes on fs0 (8 idle), then 2 more on fs0 (6 idle against fs1's 4)
            long plain = grid.scheduler.submit("plain.jdf", APART.replace("anti-affinity b site", "affinity b site soft"),
                    "alice", null).id();
            grid.tick(Duration.ofSeconds(1));
            assertThat(sites(grid, plain)).containsExactly(Map.entry(0, "fs0"), Map.entry(1, "fs0"));
            grid.scheduler.cancel(plain);
            grid.tick(Duration.ofSeconds(1));

            long job = grid.scheduler.submit("apart.jdf", APART, "alice", null).id();
            grid.tick(Duration.ofSeconds(1));

            assertThat(sites(grid, job)).containsExactly(Map.entry(0, "fs0"), Map.entry(1, "fs1"));
        }
    }

    @Test
    void aJobNoSiteCanTakeWaitsAndItsStatusNamesTheConstraint() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 8), Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("apart.jdf", APART, "alice", null).id();
            grid.tick(Duration.ofSeconds(1));

            assertThat(grid.scheduler.status(job).state()).isEqualTo("QUEUED");
            assertThat(grid.scheduler.status(job).waitingBecause()).isEqualTo("component 1 (2 nodes) may go on no "
                    + "site: fs0: hard anti-affinity of {a, component=0, job=1, owner=alice} to {b, job=1} over site "
                    + "(site fs0 holds 2 containers tagged {a, component=0, job=1, owner=alice}, which keeps {b, "
                    + "job=1} out of its site)");
            assertThat(grid.store.nodes(job)).isEmpty();
        }
    }

    @Test
    void aConstraintOnAnotherJobsNodesHoldsAsItRuns() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 8, "fs1", 4), Duration.ofSeconds(60))) {
            long noisy = grid.scheduler.submit("noisy.jdf", "&(count = 2)(executable = /bin/true)(tags = noisy)",
                    "alice", null).id();
            grid.tick(Duration.ofSeconds(1));
            assertThat(sites(grid, noisy)).containsExactly(Map.entry(0, "fs0"));

            long quiet = grid.scheduler.submit("quiet.jdf", "&(count = 2)(executable = /bin/true)"
                    + "(constraints = \"anti-affinity owner=alice,noisy site\")", "bob", null).id();
            grid.tick(Duration.ofSeconds(1));

            // Worst-Fit would take fs0 (6 idle against fs1's 4); alice's noisy nodes are there
            assertThat(sites(grid, quiet)).containsExactly(Map.entry(0, "fs1"));
        }
    }
}
