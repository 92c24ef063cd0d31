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

    /**
     * The start estimate places by the job's policy kept with its constraints, as a round does: bob's quiet job,
     * kept off alice's noisy nodes' site, is estimated to start now on fs1, where Worst-Fit alone would say fs0
     * (6 idle against 4).
     */
    @Test
    void aStartEstimateKeepsTheJobsConstraintsAsPlacementDoes() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 8, "fs1", 4), Duration.ofSeconds(60))) {
            grid.scheduler.submit("noisy.jdf", "&(count = 2)(executable = /bin/true)(tags = noisy)", "alice", null);
            grid.tick(Duration.ofSeconds(1));

            koala.estimate.GridSnapshot quiet = grid.scheduler.dryRunSnapshot("quiet.jdf", "&(count = 2)"
                    + "(executable = /bin/true)(constraints = \"anti-affinity owner=alice,noisy site\")", "bob");
            koala.estimate.GridSnapshot plain = grid.scheduler.dryRunSnapshot("plain.jdf", "&(count = 2)"
                    + "(executable = /bin/true)", "bob");

            assertThat(grid.scheduler.startTimes().one(quiet, "0").sites()).containsExactly("fs1");
            assertThat(grid.scheduler.startTimes().one(plain, "0").sites()).containsExactly("fs0");
        }
    }

    /**
     * Over racks, on fs0's 4 hosts (fs0-n1..fs0-n4; racks r1 = n1, n2 and r2 = n3, n4): the job's a node,
     * kept out of b's racks, is pinned to fs0-n1, its b node to fs0-n3 (both fixed on fs0). The a node
     * arrives; the b node's pilot does not start, so after the claim time-out (60 s) b is placed again on
     * fs0, and pinned again in r2: fs0-n2, idle, would put it beside a (and did, before the job's own held
     * nodes counted when part of it is placed again).
     */
    @Test
    void nodesKeptApartOverRacksArePinnedAndPinnedAgainWhenPlacedAgain() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60))) {
            grid.scheduler.nodeGroups(Map.of("fs0", Map.of("rack", Map.of(
                    "r1", koala.grid.HostList.parse("fs0-n1..fs0-n2"),
                    "r2", koala.grid.HostList.parse("fs0-n3..fs0-n4")))));
            long job = grid.scheduler.submit("racks.jdf", "+( &(resourceManagerContact = fs0)(count = 1)"
                    + "(executable = /bin/true)(tags = a)(constraints = \"anti-affinity b rack\") )"
                    + "( &(resourceManagerContact = fs0)(count = 1)(executable = /bin/true)(tags = b) )", "alice", null).id();
            grid.tick(Duration.ofSeconds(1));
            assertThat(hosts(grid, job)).containsExactly(Map.entry(0, "fs0-n1"), Map.entry(1, "fs0-n3"));

            NodeClaim a = live(grid, job).stream().filter(n -> n.component() == 0).findFirst().orElseThrow();
            grid.nodes().arrive(a.id(), a.token(), "fs0-n1");
            grid.tick(Duration.ofSeconds(60));

            assertThat(grid.events(job)).contains("REPLACED");
            NodeClaim b = live(grid, job).stream().filter(n -> n.component() == 1).findFirst().orElseThrow();
            assertThat(b.attempt()).isEqualTo(2);
            assertThat(b.host()).isEqualTo("fs0-n3");
        }
    }

    private static java.util.List<NodeClaim> live(TestGrid grid, long job) {
        return grid.store.nodes(job).stream().filter(n -> n.state().held()).toList();
    }

    private static Map<Integer, String> hosts(TestGrid grid, long job) {
        Map<Integer, String> hosts = new java.util.TreeMap<>();
        live(grid, job).forEach(n -> hosts.put(n.component(), n.host()));
        return hosts;
    }
}
