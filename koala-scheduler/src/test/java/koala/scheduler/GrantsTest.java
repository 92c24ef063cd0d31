package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.NodeTask;
import koala.api.scheduler.ShareReport;
import koala.api.scheduler.ShareReport.WorkerActivity;
import koala.arbitration.ArbitrationSettings;
import koala.arbitration.ShareRule;
import koala.scheduler.claiming.NodeClaim;
import org.junit.jupiter.api.Test;

/**
 * Whose command and environment a node the arbiter grants runs. One site of 4 nodes shared fairly
 * (weights 1, everything taken back in one round) by alice's instance A and bob's instance B: a
 * grant to B, whoever's grow it is decided in, runs B's worker with B's runner address and secrets.
 */
class GrantsTest {
    private static final ArbitrationSettings FAIR = ArbitrationSettings.of(ShareRule.FAIR).withRoundFraction(1.0);

    /**
     * A holds 3 busy workers, B 1 busy worker and asks for 2 more: fair shares 2 and 2, so A is asked
     * to give 1 back and B is promised it. A gives it back; before the next round A asks for 1: the
     * decision refuses A and grants B its owed node. That node must run B's worker, not A's.
     */
    @Test
    void anOwedNodeGrantedInAnotherInstancesGrowRunsItsOwnWorker() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60))) {
            grid.scheduler.share(FAIR, site -> Map.of());
            long a = instance(grid, "runner-a", "alice");
            long b = instance(grid, "runner-b", "bob");
            List<String> aWorkers = grow(grid, a, 3, "alice-secret");
            List<String> bWorkers = grow(grid, b, 1, "bob-secret");
            report(grid, a, aWorkers);
            report(grid, b, bWorkers);

            GrowResult promised = grid.allocations().grow(b, worker(b, 2, "bob-secret"));
            assertThat(promised.granted()).isZero();
            assertThat(promised.reason()).startsWith("1 more node being taken back for it");

            grid.allocations().release(a, List.of(aWorkers.get(0)), "given back");
            report(grid, a, aWorkers.subList(1, 3));
            GrowResult refused = grid.allocations().grow(a, worker(a, 1, "alice-secret"));
            assertThat(refused.granted()).isZero();

            List<NodeClaim> bNew = grid.store.nodes(b).stream()
                    .filter(n -> !bWorkers.contains(n.id())).toList();
            assertThat(bNew).hasSize(1);
            NodeTask task = grid.nodes().arrive(bNew.get(0).id(), bNew.get(0).token(), "fs0-n4");
            assertThat(task.action()).isEqualTo("RUN");
            assertThat(task.arguments()).containsExactly("worker-of-" + b);
            assertThat(task.environment()).containsEntry("KOALA_INSTANCE", Long.toString(b))
                    .containsEntry("KOALA_RUNNER_TOKEN", "bob-secret")
                    .doesNotContainValue("alice-secret");
        }
    }

    /**
     * An owed node for an instance that asked for workers but was never granted one (its grow only
     * promised) runs the worker that grow asked for, not the JDF's bare worker component, which has no
     * runner address.
     */
    @Test
    void anOwedNodeForAnInstanceThatNeverGrewRunsTheGrowItAskedFor() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60))) {
            grid.scheduler.share(FAIR, site -> Map.of());
            long a = instance(grid, "runner-a", "alice");
            long b = instance(grid, "runner-b", "bob");
            List<String> aWorkers = grow(grid, a, 4, "alice-secret");
            report(grid, a, aWorkers);
            report(grid, b, List.of());

            GrowResult promised = grid.allocations().grow(b, worker(b, 2, "bob-secret"));
            assertThat(promised.granted()).isZero();

            grid.allocations().release(a, List.of(aWorkers.get(0)), "given back");
            report(grid, a, aWorkers.subList(1, 4));
            grid.allocations().grow(a, worker(a, 1, "alice-secret"));

            List<NodeClaim> bNew = grid.store.nodes(b);
            assertThat(bNew).hasSize(1);
            NodeTask task = grid.nodes().arrive(bNew.get(0).id(), bNew.get(0).token(), "fs0-n4");
            assertThat(task.arguments()).containsExactly("worker-of-" + b);
            assertThat(task.environment()).containsEntry("KOALA_RUNNER_TOKEN", "bob-secret");
        }
    }

    private static long instance(TestGrid grid, String holder, String owner) {
        long id = grid.allocations().open(holder, owner).id();
        grid.frameworks().register(new FrameworkRegistration(id, holder, "x.jdf",
                "&(count = 1)(executable = /bin/true)", "ondemand", Map.of(), "http://127.0.0.1:1"));
        return id;
    }

    /** A worker grow as runner {@code id} asks it: its own command and environment. */
    private static GrowRequest worker(long id, int nodes, String secret) {
        return new GrowRequest(nodes, "worker", "/bin/worker", List.of("worker-of-" + id),
                Map.of("KOALA_INSTANCE", Long.toString(id), "KOALA_RUNNER_URL", "http://198.18.0.1:" + (9000 + id),
                        "KOALA_RUNNER_TOKEN", secret), null);
    }

    private static List<String> grow(TestGrid grid, long id, int nodes, String secret) {
        GrowResult r = grid.allocations().grow(id, worker(id, nodes, secret));
        assertThat(r.granted()).isEqualTo(nodes);
        grid.arrive(id);
        return r.nodes();
    }

    private static void report(TestGrid grid, long id, List<String> busy) {
        grid.scheduler.shareReport(id, new ShareReport(busy.stream()
                .map(n -> new WorkerActivity(n, true, null, 95.0)).toList(), null));
    }
}
