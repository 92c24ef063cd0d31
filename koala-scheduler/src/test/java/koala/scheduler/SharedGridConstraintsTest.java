package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.RolePlacement;
import koala.api.scheduler.ShareReport;
import koala.api.scheduler.ShareReport.WorkerActivity;
import koala.arbitration.ArbitrationSettings;
import koala.arbitration.ShareRule;
import org.junit.jupiter.api.Test;

/**
 * Worker grows the grid's arbitration decides (policy fair, everything taken back in one round) for an
 * instance whose workers carry "cardinality 0..1 role=worker site": at most one of its workers per site.
 * A grow its hard constraints refuse says which constraint refused it, as a grow placed as it comes does.
 */
class SharedGridConstraintsTest {
    private static final ArbitrationSettings FAIR = ArbitrationSettings.of(ShareRule.FAIR).withRoundFraction(1.0);
    private static final RolePlacement ONE_PER_SITE = new RolePlacement("worker", 2, List.of(),
            List.of("cardinality 0..1 role=worker site"));

    private static Map<String, Integer> sites(Object... sizes) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < sizes.length; i += 2) {
            out.put((String) sizes[i], (Integer) sizes[i + 1]);
        }
        return out;
    }

    private static long instance(TestGrid grid, String owner, RolePlacement... roles) {
        long id = grid.allocations().open("runner-" + owner, owner, null, List.of(roles)).id();
        grid.frameworks().register(new FrameworkRegistration(id, "runner-" + owner, "x.jdf",
                "&(count = 1)(executable = /bin/true)", "ondemand", Map.of(), "http://127.0.0.1:1"));
        return id;
    }

    private static GrowRequest worker(long id, int nodes) {
        return new GrowRequest(nodes, "worker", "/bin/worker", List.of("worker-of-" + id), Map.of(), null);
    }

    private static GrowResult grow(TestGrid grid, long id, int nodes) {
        GrowResult r = grid.allocations().grow(id, worker(id, nodes));
        grid.arrive(id);
        return r;
    }

    /** Reports the instance's workers: busy, or idle for a while. */
    private static void report(TestGrid grid, long id, boolean busy) {
        List<WorkerActivity> workers = grid.scheduler.heldNow(id).nodes().stream()
                .filter(n -> "worker".equals(n.role()))
                .map(n -> new WorkerActivity(n.id(), busy, busy ? null : grid.clock.instant().minusSeconds(600),
                        busy ? 95.0 : 1.0))
                .toList();
        grid.scheduler.shareReport(id, new ShareReport(workers, null));
    }

    private static List<String> workerSites(TestGrid grid, long id) {
        return grid.scheduler.heldNow(id).nodes().stream().filter(n -> "worker".equals(n.role()))
                .map(koala.api.scheduler.NodeView::site).sorted().toList();
    }

    private static List<String> history(TestGrid grid, long id) {
        return grid.scheduler.status(id).history().stream().map(t -> t.event() + " " + t.reason()).toList();
    }

    private static String cardinality(long id, String site, int holds) {
        return "hard cardinality 0..1 of {job=" + id + ", role=worker} per site of {component=2, instance=" + id
                + ", job=" + id + ", owner=alice, role=worker} (site " + site + " would hold " + holds
                + " containers tagged {job=" + id + ", role=worker}, at most 1)";
    }

    /**
     * The example: a 2-site grid (fs0 4 nodes, fs1 4), A holds a worker on each. It asks for one
     * more: the grid has 6 free nodes, but no site may take a second worker of A's. Refused at once
     * naming the cardinality constraint, never "grid full" or "at share", and nothing is decided by the
     * arbiter for it.
     */
    @Test
    void aGrowNoSiteCanTakeIsRefusedNamingTheConstraintNotTheArbitersReason() {
        try (TestGrid grid = new TestGrid(sites("fs0", 4, "fs1", 4), Duration.ofSeconds(60))) {
            grid.scheduler.share(FAIR, site -> Map.of());
            long a = instance(grid, "alice", ONE_PER_SITE);
            assertThat(grow(grid, a, 1).granted()).isEqualTo(1);
            assertThat(grow(grid, a, 1).granted()).isEqualTo(1);
            assertThat(workerSites(grid, a)).containsExactly("fs0", "fs1");
            report(grid, a, true);

            GrowResult refused = grow(grid, a, 1);

            String why = "placement constraints: no site may take one more keeping the hard constraints: fs0: "
                    + cardinality(a, "fs0", 2) + "; fs1: " + cardinality(a, "fs1", 2);
            assertThat(refused).isEqualTo(new GrowResult(a, 1, 0, List.of(), why));
            assertThat(history(grid, a)).last().isEqualTo("GROW_REFUSED 1 worker nodes: " + why);
            assertThat(workerSites(grid, a)).containsExactly("fs0", "fs1");
        }
    }

    /**
     * fs0 4, fs1 4, fs2 1; A holds a worker on fs0 and on fs1, B (unconstrained) the one node of fs2. A
     * asks for one more: fs2 could take it were its node free, so the arbiter decides, and grants 1 of
     * the 6 free nodes — all on fs0 and fs1, where A's constraint keeps it out. The answer and A's
     * history name the constraint, not the arbiter's grant.
     */
    @Test
    void aGrantTheConstraintsKeepOffTheFreeNodesIsRefusedNamingTheConstraint() {
        try (TestGrid grid = new TestGrid(sites("fs0", 4, "fs1", 4, "fs2", 1), Duration.ofSeconds(60))) {
            grid.scheduler.share(FAIR, site -> Map.of());
            long a = instance(grid, "alice", ONE_PER_SITE);
            long b = instance(grid, "bob");
            grow(grid, a, 1);
            grow(grid, a, 1);
            grid.allocations().grow(b, new GrowRequest(1, "worker", "/bin/worker", List.of(), Map.of(), "fs2"));
            grid.arrive(b);
            assertThat(workerSites(grid, a)).containsExactly("fs0", "fs1");
            assertThat(workerSites(grid, b)).containsExactly("fs2");
            report(grid, a, true);
            report(grid, b, true);

            GrowResult refused = grow(grid, a, 1);

            String why = "placement constraints: no site may take one more keeping the hard constraints: fs0: "
                    + cardinality(a, "fs0", 2) + "; fs1: " + cardinality(a, "fs1", 2) + "; fs2: no idle node";
            assertThat(refused).isEqualTo(new GrowResult(a, 1, 0, List.of(), why));
            assertThat(history(grid, a)).last().isEqualTo("GROW_REFUSED 1 worker nodes: " + why);
            assertThat(workerSites(grid, b)).containsExactly("fs2");
        }
    }

    /**
     * fs0 1, fs1 1, fs2 2: the grid is full. A holds busy workers on fs0 and fs1; B two idle workers on
     * fs2. A asks for 2: B's idle workers are taken back and both granted to A in their slots on fs2. Checked
     * together, fs2 takes one of A's workers, not two: A gets 1, the constraint named for the other.
     */
    @Test
    void workersGrantedInTheSlotsOfNodesTakenBackAreCheckedTogether() {
        try (TestGrid grid = new TestGrid(sites("fs0", 1, "fs1", 1, "fs2", 2), Duration.ofSeconds(60))) {
            grid.scheduler.share(FAIR, site -> Map.of());
            long a = instance(grid, "alice", ONE_PER_SITE);
            long b = instance(grid, "bob");
            grow(grid, a, 1);
            grow(grid, a, 1);
            grow(grid, b, 2);
            assertThat(workerSites(grid, a)).containsExactly("fs0", "fs1");
            assertThat(workerSites(grid, b)).containsExactly("fs2", "fs2");
            report(grid, a, true);
            report(grid, b, false);

            GrowResult two = grow(grid, a, 2);

            assertThat(two.granted()).isEqualTo(1);
            assertThat(two.reason()).isEqualTo("placement constraints: the sites may take 1 more, not 2 keeping the "
                    + "hard constraints: fs2 (1 of 2 idle): " + cardinality(a, "fs2", 2) + "; fs0, fs1: no idle node");
            assertThat(workerSites(grid, a)).containsExactly("fs0", "fs1", "fs2");
            assertThat(history(grid, a)).last().asString().startsWith("GREW 1 worker nodes: 1 on fs2 (")
                    .endsWith("; 1 of 2 not placed: " + two.reason());
        }
    }
}
