package koala.fjm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.MasterAddress;
import koala.api.scheduler.TransitionView;
import koala.provisioning.ProvisioningSettings;
import org.junit.jupiter.api.Test;

/**
 * Worked examples of the views {@code koala frameworks} and the live page read: an instance's record
 * put together with its allocation as the scheduler hands it in.
 */
class FrameworkViewsTest {
    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    /** A framework JDF: OnDemand with F_max 8, one master, one orchestrator and 2 workers. */
    private static final String JDF = "+( &(jobType = framework)(role = master)(count = 1)(executable = /bin/sleep)"
            + "(provisioning = ondemand)(fMax = 8) ) ( &(role = orchestrator)(count = 1)(executable = /bin/sleep) )"
            + " ( &(role = worker)(count = 2)(executable = /bin/sleep) )";
    /** fs0's defaults: F_max 6 (a ceiling over the JDF's 8) and t_idle 120 s; fs1 has none. */
    private static final Function<String, Map<String, String>> SITES = site -> site.equals("fs0")
            ? Map.of("fMax", "6", "tIdle", "120") : Map.of();

    private final List<String> defaultsAskedOf = new ArrayList<>();
    private final FrameworkViews views = new FrameworkViews(site -> {
        defaultsAskedOf.add(site);
        return SITES.apply(site);
    });

    private static FrameworkRecord record(String masterNode, String masterAddress) {
        return new FrameworkRecord(7, "demo", "demo.jdf", JDF, "ondemand", Map.of("provisioning", "ondemand", "fMax", "8"),
                "http://127.0.0.1:7601", masterNode, masterAddress, T0, "/home/alice/.koala/runners/runner-7.json");
    }

    private static HeldAllocation.Node node(String id, String site, String role, boolean held) {
        return new HeldAllocation.Node(id, site, role, held);
    }

    /**
     * Master 7.0.0 on fs0, orchestrator 7.1.0 on fs0, workers 7.2.0 on fs0 and 7.2.1 on fs1, a node
     * of a component that names no role (7.3.0, on fs1: a worker as views count) and worker 7.2.2
     * released: 1 master, 1 orchestrator, 3 workers on fs0 and fs1; the share line asked for 3
     * workers; the master shown, its node being held.
     */
    @Test
    void anInstanceCountsItsHeldNodesPerRoleAndShowsItsMaster() {
        HeldAllocation allocation = new HeldAllocation("RUNNING", false, "alice", List.of(node("7.0.0", "fs0", "master", true),
                node("7.1.0", "fs0", "orchestrator", true), node("7.2.0", "fs0", "worker", true),
                node("7.2.1", "fs1", "worker", true), node("7.2.2", "fs1", "worker", false), node("7.3.0", "fs1", null, true)),
                List.of(new TransitionView(T0, "QUEUED", "RUNNING", "OPENED", null)),
                List.of(new FrameworkView.ConstraintLine("worker", "spread host", false, "soft spread over host")));
        List<Integer> askedFor = new ArrayList<>();
        FrameworkView.ShareLine line = new FrameworkView.ShareLine(3, 1, 4, 4, "weight 1 of 2", null);

        FrameworkView view = views.view(record("7.0.0", "fs0-n1:7700"), allocation, workers -> {
            askedFor.add(workers);
            return line;
        }, () -> List.of("spread host: 2 on fs0-n1"));

        assertThat(view.nodesPerRole()).containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of("master", 1,
                "orchestrator", 1, "worker", 3)));
        assertThat(view.sites()).containsExactly("fs0", "fs1");
        assertThat(view.master()).isEqualTo(new MasterAddress("7.0.0", "fs0-n1:7700"));
        assertThat(askedFor).containsExactly(3);
        assertThat(view.share()).isEqualTo(line);
        assertThat(view.state()).isEqualTo("RUNNING");
        assertThat(view.owner()).isEqualTo("alice");
        assertThat(view.history()).hasSize(1);
        assertThat(view.constraints()).extracting(FrameworkView.ConstraintLine::kept).containsExactly("soft spread over host");
        assertThat(view.brokenNow()).containsExactly("spread host: 2 on fs0-n1");
        assertThat(view.runnerState()).isEqualTo("/home/alice/.koala/runners/runner-7.json");
    }

    /** A master whose node was lost serves no one: none is shown until the next reports in. */
    @Test
    void aMasterOnANodeNoLongerHeldIsNotShown() {
        HeldAllocation allocation = new HeldAllocation("RUNNING", false, "alice", List.of(node("7.0.0", "fs0", "master",
                false), node("7.2.0", "fs0", "worker", true)), List.of(), List.of());

        FrameworkView view = views.view(record("7.0.0", "fs0-n1:7700"), allocation, w -> null, List::of);

        assertThat(view.master()).isNull();
        assertThat(view.nodesPerRole()).containsExactlyEntriesOf(Map.of("worker", 1));
    }

    /** An ended instance has no share and breaks nothing now: neither is even asked for. */
    @Test
    void anEndedInstanceAsksForNoShareAndNoAudit() {
        HeldAllocation allocation = new HeldAllocation("FINISHED", true, "alice", List.of(node("7.0.0", "fs0", "master",
                false)), List.of(), List.of());

        FrameworkView view = views.view(record("7.0.0", "fs0-n1:7700"), allocation, w -> {
            throw new AssertionError("share asked of an ended instance");
        }, () -> {
            throw new AssertionError("audit asked of an ended instance");
        });

        assertThat(view.share()).isNull();
        assertThat(view.brokenNow()).isEmpty();
        assertThat(view.nodesPerRole()).isEmpty();
        assertThat(view.sites()).isEmpty();
        assertThat(view.state()).isEqualTo("FINISHED");
    }

    /**
     * The settings in force, as the runner resolves them. Before the master has reported there is no
     * home site: the JDF's values (provisioning ondemand, fMax 8, 2 initial workers counted from its
     * worker component) over the built-in ones, and no site's defaults asked for. With the master on
     * fs0: fs0's F_max 6 caps the JDF's 8, its t_idle of 120 s replaces the built-in 6 × O_grow.
     */
    @Test
    void settingsAreTheJdfsOverTheHomeSitesOverTheBuiltInOnes() {
        HeldAllocation allocation = new HeldAllocation("RUNNING", false, "alice", List.of(node("7.0.0", "fs0", "master",
                true)), List.of(), List.of());

        FrameworkView before = views.view(record(null, null), allocation, w -> null, List::of);
        assertThat(defaultsAskedOf).isEmpty();
        assertThat(before.settings()).extracting(FrameworkView.Setting::key, FrameworkView.Setting::value,
                FrameworkView.Setting::origin).startsWith(tuple("provisioning", "ondemand", "jdf"),
                tuple("fMax", "8", "jdf"), tuple("tIdle", "6 × O_grow", "default (n = 6 for ondemand)"));

        FrameworkView after = views.view(record("7.0.0", "fs0-n1:7700"), allocation, w -> null, List::of);
        assertThat(defaultsAskedOf).containsExactly("fs0");
        assertThat(after.settings()).extracting(FrameworkView.Setting::key, FrameworkView.Setting::value,
                FrameworkView.Setting::origin).contains(tuple("fMax", "6", "site fs0 cap (jdf asked 8)"),
                tuple("tIdle", "120 s", "site fs0"), tuple("uMin", "40%", "default"),
                tuple("initialWorkers", "2", "jdf"));
    }

    /**
     * A site whose defaults are refused now (uMin 60 over the JDF's uMax 50) leaves the JDF's over the
     * built-in ones, as the runner keeps what it had; a JDF whose own are refused shows none.
     */
    @Test
    void refusedSiteDefaultsFallBackAndRefusedJdfSettingsShowNone() {
        FrameworkViews strict = new FrameworkViews(site -> Map.of("uMin", "60"));
        HeldAllocation allocation = new HeldAllocation("RUNNING", false, "alice", List.of(node("7.0.0", "fs0", "master",
                true)), List.of(), List.of());
        FrameworkRecord asks = new FrameworkRecord(7, "demo", "demo.jdf", JDF, "ondemand", Map.of("uMax", "50"), null,
                "7.0.0", "fs0-n1:7700", T0, null);

        assertThat(strict.view(asks, allocation, w -> null, List::of).settings()).extracting(FrameworkView.Setting::key,
                FrameworkView.Setting::value, FrameworkView.Setting::origin).contains(tuple("uMin", "40%", "default"),
                tuple("uMax", "50%", "jdf"));

        FrameworkRecord bad = new FrameworkRecord(8, "demo", "demo.jdf", JDF, "ondemand", Map.of("fMax", "many"), null,
                null, null, T0, null);
        assertThat(strict.view(bad, allocation, w -> null, List::of).settings()).isEmpty();
    }

    /**
     * Sharing weighs a running instance by its settings: weight 3 and minimum share 2 from its JDF;
     * on fs0, whose defaults cap the weight at 2, the site's 2. Settings the runner refused leave the
     * built-in ones (weight 1, no minimum share).
     */
    @Test
    void sharingWeighsAnInstanceByItsResolvedSettings() {
        FrameworkRecord r = new FrameworkRecord(7, "demo", "demo.jdf", JDF, "ondemand", Map.of("weight", "3",
                "minShare", "2"), null, "7.0.0", "fs0-n1:7700", T0, null);

        ProvisioningSettings homeless = FrameworkViews.settings(r, node -> null, site -> Map.of("weight", "2"));
        assertThat(homeless.weight()).isEqualTo(3.0);
        assertThat(homeless.minShare()).isEqualTo(2);

        ProvisioningSettings onFs0 = FrameworkViews.settings(r, node -> node.equals("7.0.0") ? "fs0" : null,
                site -> Map.of("weight", "2"));
        assertThat(onFs0.weight()).isEqualTo(2.0);

        FrameworkRecord refused = new FrameworkRecord(8, "demo", "demo.jdf", JDF, "ondemand", Map.of("weight", "-1"),
                null, null, null, T0, null);
        ProvisioningSettings builtIn = FrameworkViews.settings(refused, node -> null, site -> Map.of());
        assertThat(builtIn.weight()).isEqualTo(1.0);
        assertThat(builtIn.minShare()).isZero();
    }

    /** Initial workers are the worker components' nodes; a JDF that names no roles, or does not parse, says none. */
    @Test
    void initialWorkersAreCountedFromTheJdfsWorkerComponents() {
        assertThat(FrameworkViews.workersIn(record(null, null))).isEqualTo(2);
        assertThat(FrameworkViews.workersIn(new FrameworkRecord(9, "x", "x.jdf", "&(executable = /bin/true)(count = 3)",
                "static", Map.of(), null, null, null, T0, null))).isEqualTo(-1);
        assertThat(FrameworkViews.workersIn(new FrameworkRecord(9, "x", "x.jdf", "&(((", "static", Map.of(), null, null,
                null, T0, null))).isEqualTo(-1);
    }

    /**
     * A role's size per node is its JDF's: the master 2 cores, the workers 4 cores, 8G and a GPU; the
     * orchestrator asks nothing, nor does a role of {@code (cores = 1)} alone, and is left out. The JDF of
     * the other examples asks nothing at all: no sizes; nor does one that does not parse.
     */
    @Test
    void eachRolesSizePerNodeIsItsJdfsWhereItAsksForAny() {
        String sized = "+( &(jobType = framework)(role = master)(count = 1)(cores = 2)(executable = /bin/sleep) )"
                + " ( &(role = orchestrator)(count = 1)(cores = 1)(executable = /bin/sleep) )"
                + " ( &(role = worker)(count = 2)(cores = 4)(memory = 8G)(gpus = 1)(executable = /bin/sleep) )";
        FrameworkRecord r = new FrameworkRecord(9, "sized", "sized.jdf", sized, "ondemand", Map.of(), null, null, null,
                T0, null);
        HeldAllocation allocation = new HeldAllocation("RUNNING", false, "alice", List.of(), List.of(), List.of());

        assertThat(views.view(r, allocation, w -> null, List::of).roleSizes()).containsExactly(
                new FrameworkView.RoleSize("master", 2, 0, 0), new FrameworkView.RoleSize("worker", 4, 8192, 1));
        assertThat(views.view(record(null, null), allocation, w -> null, List::of).roleSizes()).isEmpty();
        assertThat(FrameworkViews.sizesIn(new FrameworkRecord(9, "x", "x.jdf", "&(((", "static", Map.of(), null, null,
                null, T0, null))).isEmpty();
    }
}
