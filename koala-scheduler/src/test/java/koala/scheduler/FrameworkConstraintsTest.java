package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.RolePlacement;
import koala.api.scheduler.TransitionView;
import koala.common.failure.InvalidField;
import koala.scheduler.claiming.NodeClaim;
import org.junit.jupiter.api.Test;

/**
 * A framework instance's placement constraints, as its runner sends them when it opens its allocation:
 * its grows (the initial deployment's too) placed with them by Flexible Cluster Minimization over the
 * sites they allow, on the fake grid (every site's nodes idle unless a test says otherwise).
 */
class FrameworkConstraintsTest {
    private static final RolePlacement MASTER_APART = new RolePlacement("master", 0, List.of(),
            List.of("anti-affinity role=orchestrator site"));
    private static final RolePlacement ORCHESTRATOR = new RolePlacement("orchestrator", 1, List.of(), List.of());
    private static final RolePlacement TWO_PER_HOST = new RolePlacement("worker", 2, List.of("hbase"),
            List.of("cardinality 0..2 role=worker host"));

    private static Map<String, Integer> sites(Object... sizes) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < sizes.length; i += 2) {
            out.put((String) sizes[i], (Integer) sizes[i + 1]);
        }
        return out;
    }

    private static GrowRequest grow(int nodes, String role) {
        return new GrowRequest(nodes, role, "/bin/sleep", List.of("infinity"), Map.of(), null);
    }

    private static long open(TestGrid grid, String owner, RolePlacement... roles) {
        return grid.allocations().open("runner", owner, null, List.of(roles)).id();
    }

    /** Where each role's nodes are, in the order they were granted: {master=[fs0], worker=[fs0, fs1]}. */
    private static Map<String, List<String>> where(TestGrid grid, long id) {
        Map<String, List<String>> out = new java.util.TreeMap<>();
        for (koala.api.scheduler.NodeView n : grid.scheduler.heldNow(id).nodes()) {
            out.computeIfAbsent(n.role(), r -> new java.util.ArrayList<>()).add(n.site());
        }
        return out;
    }

    private static List<String> history(TestGrid grid, long id) {
        return grid.scheduler.status(id).history().stream().map(t -> t.event() + " " + t.reason()).toList();
    }

    /**
     * fs0 has 8 idle nodes, fs1 4. Alone, Flexible Cluster Minimization puts the orchestrator beside the
     * master on fs0 (7 idle against 4); with "anti-affinity role=orchestrator site" on the master, on fs1.
     */
    @Test
    void anInstancesMasterAndOrchestratorOnDifferentSites() {
        try (TestGrid grid = new TestGrid(sites("fs0", 8, "fs1", 4), Duration.ofSeconds(60))) {
            long plain = open(grid, "alice", new RolePlacement("master", 0, List.of(), List.of()), ORCHESTRATOR);
            grid.allocations().grow(plain, grow(1, "master"));
            grid.allocations().grow(plain, grow(1, "orchestrator"));
            assertThat(where(grid, plain)).isEqualTo(Map.of("master", List.of("fs0"), "orchestrator", List.of("fs0")));
            grid.allocations().close(plain);

            long apart = open(grid, "alice", MASTER_APART, ORCHESTRATOR);
            grid.allocations().grow(apart, grow(1, "master"));
            GrowResult orchestrator = grid.allocations().grow(apart, grow(1, "orchestrator"));

            assertThat(orchestrator.granted()).isEqualTo(1);
            assertThat(where(grid, apart)).isEqualTo(Map.of("master", List.of("fs0"), "orchestrator", List.of("fs1")));
        }
    }

    /**
     * "cardinality 0..2 role=worker host" is kept per host, each worker's pilot pinned to its host. Hosts
     * of 4 slots: fs0 8 nodes on fs0-n1 and fs0-n2, fs1 and fs2 4 on one host each. A grow of 3 gets fs0
     * (Flexible Cluster Minimization), 2 on fs0-n1 and 1 on fs0-n2: kept over sites it got fs0 2 and fs1 1.
     * Then at most 1 more fits on fs0, 2 on fs1 and 2 on fs2: a grow of 6 gets 5, partial, the constraint
     * named; a grow of 1 more is refused.
     */
    @Test
    void atMostTwoWorkersOfAnInstancePerHostKeptPerHost() {
        try (TestGrid grid = new TestGrid(sites("fs0", 8, "fs1", 4, "fs2", 4), Duration.ofSeconds(60))) {
            grid.hostSlots = 4;
            long id = open(grid, "alice", TWO_PER_HOST);
            grid.frameworks().register(new FrameworkRegistration(id, "spread", "spread.jdf", "", "ondemand",
                    Map.of(), "http://127.0.0.1:7601"));

            GrowResult three = grid.allocations().grow(id, grow(3, "worker"));
            assertThat(three.granted()).isEqualTo(3);
            assertThat(hosts(grid, id)).containsExactly("fs0-n1", "fs0-n1", "fs0-n2");

            GrowResult six = grid.allocations().grow(id, grow(6, "worker"));
            assertThat(six.granted()).isEqualTo(5);
            assertThat(six.reason()).startsWith("partial: 5 of 6 nodes: the sites may take 5 more, not 6 keeping the "
                    + "hard constraints: fs0 (1 of 5 idle): hard cardinality 0..2 of {job=1, role=worker} per host");
            assertThat(hosts(grid, id)).containsExactlyInAnyOrder("fs0-n1", "fs0-n1", "fs0-n2", "fs0-n2",
                    "fs1-n1", "fs1-n1", "fs2-n1", "fs2-n1");

            GrowResult none = grid.allocations().grow(id, grow(1, "worker"));
            assertThat(none.granted()).isZero();
            assertThat(none.reason()).startsWith("placement constraints: no site may take one more keeping the hard "
                    + "constraints: fs0: hard cardinality 0..2");
            assertThat(hosts(grid, id)).hasSize(8);
            assertThat(grid.frameworks().get(id).brokenNow()).as("audited per host: 2 on each").isEmpty();
        }
    }

    /** The hosts the instance's workers are pinned to, in node order. */
    private static List<String> hosts(TestGrid grid, long id) {
        return grid.scheduler.heldNow(id).nodes().stream().filter(n -> "worker".equals(n.role()))
                .map(koala.api.scheduler.NodeView::host).toList();
    }

    /**
     * Instance A's master is on fs1 (its grow named the site). Instance B's workers carry "affinity
     * instance=A,role=master site": Flexible Cluster Minimization alone would put them on fs0 (8 idle
     * against fs1's 3), where B's own master, unconstrained, goes; they go on fs1.
     */
    @Test
    void workersOfInstanceBOnTheSiteOfInstanceAsMaster() {
        try (TestGrid grid = new TestGrid(sites("fs0", 8, "fs1", 4), Duration.ofSeconds(60))) {
            long a = open(grid, "alice");
            grid.allocations().grow(a, new GrowRequest(1, "master", "/bin/sleep", List.of(), Map.of(), "fs1"));

            long b = open(grid, "bob", new RolePlacement("worker", 2, List.of(),
                    List.of("affinity instance=" + a + ",role=master site")));
            grid.allocations().grow(b, grow(1, "master"));
            GrowResult workers = grid.allocations().grow(b, grow(2, "worker"));

            assertThat(workers.granted()).isEqualTo(2);
            assertThat(where(grid, a)).isEqualTo(Map.of("master", List.of("fs1")));
            assertThat(where(grid, b)).isEqualTo(Map.of("master", List.of("fs0"), "worker", List.of("fs1", "fs1")));
        }
    }

    /**
     * One site: the master's hard anti-affinity leaves the orchestrator nowhere. The grow is refused at
     * once (it never waits in the queue), the constraint named in its answer and the allocation's history.
     */
    @Test
    void aGrowNoSiteCanTakeIsRefusedWithItsHardConstraintNamed() {
        try (TestGrid grid = new TestGrid(sites("fs0", 8), Duration.ofSeconds(60))) {
            long id = open(grid, "alice", MASTER_APART, ORCHESTRATOR);
            grid.allocations().grow(id, grow(1, "master"));

            GrowResult refused = grid.allocations().grow(id, grow(1, "orchestrator"));

            String why = "placement constraints: no site may take one more keeping the hard constraints: fs0: hard "
                    + "anti-affinity of {component=0, instance=1, job=1, owner=alice, role=master} to {job=1, "
                    + "role=orchestrator} over site (site fs0 holds 1 container tagged {component=0, instance=1, job=1, "
                    + "owner=alice, role=master}, which keeps {job=1, role=orchestrator} out of its site)";
            assertThat(refused).isEqualTo(new GrowResult(id, 1, 0, List.of(), why));
            assertThat(history(grid, id)).last().isEqualTo("GROW_REFUSED 1 orchestrator nodes: " + why);
            assertThat(where(grid, id)).isEqualTo(Map.of("master", List.of("fs0")));
        }
    }

    /**
     * Two sites: the master on fs0 keeps the orchestrator off fs0, and fs1, the one site the constraint
     * leaves, is full (local users hold its 4 nodes). The refusal says both: fs0 is ruled out, fs1 has no
     * idle node — not only the constraint, as if freeing fs1 would not help.
     */
    @Test
    void aGrowRefusedByAHardConstraintNamesTheOtherSitesThatAreFull() {
        try (TestGrid grid = new TestGrid(sites("fs0", 8, "fs1", 4), Duration.ofSeconds(60))) {
            long id = open(grid, "alice", MASTER_APART, ORCHESTRATOR);
            grid.allocations().grow(id, new GrowRequest(1, "master", "/bin/sleep", List.of(), Map.of(), "fs0"));
            grid.localUsers("fs1", 4);
            grid.tick(Duration.ofSeconds(1));

            GrowResult refused = grid.allocations().grow(id, grow(1, "orchestrator"));

            assertThat(refused.granted()).isZero();
            assertThat(refused.reason()).startsWith("placement constraints: no site may take one more keeping the hard "
                    + "constraints: fs0: hard anti-affinity of").endsWith("; fs1: no idle node");
        }
    }

    /**
     * The same on one site with the anti-affinity soft: the orchestrator goes beside the master, the break
     * in the grow's history line, and the instance's view shows its constraints and the break as it stands.
     */
    @Test
    void aSoftConstraintBrokenIsWrittenInTheHistoryAndShownInTheView() {
        try (TestGrid grid = new TestGrid(sites("fs0", 8), Duration.ofSeconds(60))) {
            long id = open(grid, "alice", new RolePlacement("master", 0, List.of(),
                    List.of("anti-affinity role=orchestrator site soft")), ORCHESTRATOR);
            grid.frameworks().register(new FrameworkRegistration(id, "apart", "apart.jdf", "", "ondemand",
                    Map.of(), "http://127.0.0.1:7601"));
            grid.allocations().grow(id, grow(1, "master"));

            GrowResult orchestrator = grid.allocations().grow(id, grow(1, "orchestrator"));

            assertThat(orchestrator.granted()).isEqualTo(1);
            assertThat(history(grid, id)).last().isEqualTo("GREW 1 orchestrator nodes: 1 on fs0; soft constraints "
                    + "broken, nothing else fitted: component 0 on fs0: soft anti-affinity of {component=0, instance=1, "
                    + "job=1, owner=alice, role=master} to {job=1, role=orchestrator} over site broken (site fs0 holds "
                    + "1 container tagged {component=0, instance=1, job=1, owner=alice, role=master}, which keeps "
                    + "{job=1, role=orchestrator} out of its site)");
            FrameworkView view = grid.frameworks().get(id);
            assertThat(view.constraints()).containsExactly(new FrameworkView.ConstraintLine("master",
                    "anti-affinity role=orchestrator site soft", false, "soft anti-affinity of {component=0, "
                    + "instance=1, job=1, owner=alice, role=master} to {job=1, role=orchestrator} over site"));
            assertThat(view.brokenNow()).containsExactly("soft anti-affinity of {component=0, instance=1, job=1, "
                    + "owner=alice, role=master} to {job=1, role=orchestrator} over site: site fs0 holds 1 container "
                    + "tagged {job=1, role=orchestrator} beside 1.0.0");
        }
    }

    /** A scheduler started again on the same store (after a kill -9) has the roles: the orchestrator still keeps apart. */
    @Test
    void aRestartedSchedulerKeepsTheInstancesConstraints() {
        try (TestGrid grid = new TestGrid(sites("fs0", 8, "fs1", 4), Duration.ofSeconds(60))) {
            long id = open(grid, "alice", MASTER_APART, ORCHESTRATOR);
            grid.allocations().grow(id, grow(1, "master"));

            grid.scheduler = grid.start();
            grid.recovery().reload(Duration.ofMinutes(10));
            grid.allocations().grow(id, grow(1, "orchestrator"));

            assertThat(where(grid, id)).isEqualTo(Map.of("master", List.of("fs0"), "orchestrator", List.of("fs1")));
        }
    }

    /** A malformed role or constraint is bad input named by its field; no allocation is opened. */
    @Test
    void aMalformedConstraintIsRefusedNamingItsField() {
        try (TestGrid grid = new TestGrid(sites("fs0", 8), Duration.ofSeconds(60))) {
            assertThatThrownBy(() -> open(grid, "alice", new RolePlacement("master", 0, List.of(),
                    List.of("anti-affinity role=orchestrator sit"))))
                    .isInstanceOfSatisfying(InvalidField.class, e -> assertThat(e.field())
                            .isEqualTo("roles[0].constraints[0]"))
                    .hasMessageContaining("'sit' is not a kind of node group");
            assertThatThrownBy(() -> open(grid, "alice", new RolePlacement("worker", 2, List.of(),
                    List.of("affinity role=mastre site"))))
                    .isInstanceOfSatisfying(InvalidField.class, e -> assertThat(e.field())
                            .isEqualTo("roles[0].constraints[0]"))
                    .hasMessageContaining("no role of this instance carries role=mastre");
            assertThatThrownBy(() -> open(grid, "alice", new RolePlacement("boss", 0, List.of(), List.of())))
                    .isInstanceOfSatisfying(InvalidField.class, e -> assertThat(e.field()).isEqualTo("roles[0].role"));
            assertThatThrownBy(() -> open(grid, "alice", new RolePlacement("worker", 2, List.of("job=3"), List.of())))
                    .isInstanceOfSatisfying(InvalidField.class, e -> assertThat(e.field()).isEqualTo("roles[0].tags"));
            assertThat(grid.scheduler.list()).isEmpty();
        }
    }

    /** An instance's constraint holds for plain jobs too: bob's job keeps off the site of alice's master. */
    @Test
    void anInstancesConstraintHoldsForJobsPlacedAfterIt() {
        try (TestGrid grid = new TestGrid(sites("fs0", 8, "fs1", 4), Duration.ofSeconds(60))) {
            long id = open(grid, "alice", new RolePlacement("master", 0, List.of(),
                    List.of("anti-affinity owner=bob site")));
            grid.allocations().grow(id, grow(1, "master"));

            long job = grid.scheduler.submit("quiet.jdf", "&(count = 2)(executable = /bin/true)", "bob", null).id();
            grid.tick(Duration.ofSeconds(1));

            // Worst-Fit would take fs0 (7 idle against fs1's 4); alice's master is there
            assertThat(grid.store.nodes(job)).extracting(NodeClaim::site).containsOnly("fs1");
        }
    }

    /**
     * Constraints in force follow the instances that bring them. On fs0 4 and fs1 4, alice's instance A
     * keeps at most 1 worker per site and has one on fs0. Bob's instance C comes with a master that keeps
     * off alice's sites ("anti-affinity owner=alice site"): it goes on fs1, and while it runs A may grow on
     * neither site. C closes: A's next worker goes on fs1, and one more is refused by A's own constraint.
     */
    @Test
    void constraintsApplyAsInstancesThatBringThemComeAndGo() {
        try (TestGrid grid = new TestGrid(sites("fs0", 4, "fs1", 4), Duration.ofSeconds(60))) {
            long a = open(grid, "alice", new RolePlacement("worker", 2, List.of(),
                    List.of("cardinality 0..1 role=worker site")));
            assertThat(grid.allocations().grow(a, grow(1, "worker")).granted()).isEqualTo(1);
            assertThat(where(grid, a)).isEqualTo(Map.of("worker", List.of("fs0")));

            long c = open(grid, "bob", new RolePlacement("master", 0, List.of(), List.of("anti-affinity owner=alice site")));
            grid.allocations().grow(c, grow(1, "master"));
            assertThat(where(grid, c)).isEqualTo(Map.of("master", List.of("fs1")));
            GrowResult kept = grid.allocations().grow(a, grow(1, "worker"));
            assertThat(kept.granted()).isZero();
            assertThat(kept.reason()).contains("fs0: hard cardinality 0..1", "fs1: hard anti-affinity of {component=0, "
                    + "instance=" + c + ", job=" + c + ", owner=bob, role=master} to {owner=alice} over site");

            grid.allocations().close(c);
            assertThat(grid.allocations().grow(a, grow(1, "worker")).granted()).isEqualTo(1);
            assertThat(where(grid, a)).isEqualTo(Map.of("worker", List.of("fs0", "fs1")));
            GrowResult none = grid.allocations().grow(a, grow(1, "worker"));
            assertThat(none.granted()).isZero();
            assertThat(none.reason()).startsWith("placement constraints: no site may take one more keeping the hard "
                    + "constraints: fs0: hard cardinality 0..1").contains("; fs1: hard cardinality 0..1")
                    .doesNotContain("anti-affinity");
        }
    }
}
