package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.ShareReport;
import koala.api.scheduler.ShareReport.WorkerActivity;
import koala.arbitration.ArbitrationSettings;
import koala.arbitration.ShareRule;
import org.junit.jupiter.api.Test;

/**
 * Worker grows pinned to a site ({@code resourceManagerContact}, {@code KoalaCluster(site=...)}) on a grid
 * shared by {@code fair} (everything taken back in one round, grace 15 s): arbitrated within their site —
 * the site's free nodes and the instances' workers there are what is shared out, the asker's demand
 * counts, and only workers on that site are taken back for it. Grid: fs0 4 nodes, fs1 4.
 */
class PinnedGrowsTest {
    private static final ArbitrationSettings FAIR = ArbitrationSettings.of(ShareRule.FAIR).withRoundFraction(1.0);

    private static Map<String, Integer> sites() {
        Map<String, Integer> out = new LinkedHashMap<>();
        out.put("fs0", 4);
        out.put("fs1", 4);
        return out;
    }

    private static long instance(TestGrid grid, String owner) {
        long id = grid.allocations().open("runner-" + owner, owner, null, List.of()).id();
        grid.frameworks().register(new FrameworkRegistration(id, "runner-" + owner, "x.jdf",
                "&(count = 1)(executable = /bin/true)", "ondemand", Map.of(), "http://127.0.0.1:1"));
        return id;
    }

    private static GrowResult grow(TestGrid grid, long id, int nodes, String site) {
        GrowResult r = grid.allocations().grow(id, new GrowRequest(nodes, "worker", "/bin/worker",
                List.of("worker-of-" + id), Map.of(), site));
        grid.arrive(id);
        return r;
    }

    /** Reports the instance's workers: busy, or idle for 10 minutes. */
    private static void report(TestGrid grid, long id, boolean busy) {
        List<WorkerActivity> workers = grid.scheduler.heldNow(id).nodes().stream()
                .filter(n -> "worker".equals(n.role()) && !n.state().equals("RELEASED"))
                .map(n -> new WorkerActivity(n.id(), busy, busy ? null : grid.clock.instant().minusSeconds(600),
                        busy ? 95.0 : 1.0))
                .toList();
        grid.scheduler.shareReport(id, new ShareReport(workers, null));
    }

    private static List<String> workerSites(TestGrid grid, long id) {
        return grid.scheduler.heldNow(id).nodes().stream()
                .filter(n -> "worker".equals(n.role()) && !n.state().equals("RELEASED"))
                .map(koala.api.scheduler.NodeView::site).sorted().toList();
    }

    private static List<String> events(TestGrid grid, long id) {
        return grid.scheduler.status(id).history().stream().map(t -> t.event() + " " + t.reason()).toList();
    }

    /**
     * A holds fs0's 4 nodes, all idle; fs1 is free. B asks for 2 on fs0: placed as it comes it would be
     * "grid full: no idle node on fs0". Within fs0 (capacity 4: A demand 0, B demand 2) B's fair share is
     * 2: A's 2 longest idle workers are taken back and B gets 2 on fs0 — none on fs1, whose free nodes are
     * not what B asked for — and koala frameworks shows B's fair share 2, not 0.
     */
    @Test
    void aGrowPinnedToAFullSiteTakesIdleWorkersBackOnThatSite() {
        try (TestGrid grid = new TestGrid(sites(), Duration.ofSeconds(60))) {
            grid.scheduler.share(FAIR, site -> Map.of());
            long a = instance(grid, "alice");
            long b = instance(grid, "bob");
            assertThat(grow(grid, a, 4, "fs0").granted()).isEqualTo(4);
            report(grid, a, false);

            GrowResult two = grow(grid, b, 2, "fs0");

            assertThat(two.granted()).as("%s", two.reason()).isEqualTo(2);
            assertThat(workerSites(grid, b)).containsExactly("fs0", "fs0");
            assertThat(workerSites(grid, a)).containsExactly("fs0", "fs0");
            assertThat(events(grid, a)).filteredOn(e -> e.startsWith("TAKEN_BACK")).singleElement().asString()
                    .contains("taken back for " + b);
            assertThat(grid.frameworks().get(b).share()).satisfies(l -> {
                assertThat(l.fairShare()).isEqualTo(2);
                assertThat(l.share()).isEqualTo(2);
            });
        }
    }

    /**
     * A holds fs0's 4 nodes, all busy, and 2 idle on fs1. B asks for 2 on fs0: A's idle workers on fs1 are
     * not taken (they would not give B a node on fs0); A is asked to give back 2 on fs0 within the grace and
     * B is promised them. A's report reads the ask. The grace over, KOALA ends 2 of A's workers on fs0 and
     * grants B 2 in their slots, on fs0.
     */
    @Test
    void busyWorkersOnThePinnedSiteAreAskedForAndEndedAfterTheGrace() {
        try (TestGrid grid = new TestGrid(sites(), Duration.ofSeconds(60))) {
            grid.scheduler.share(FAIR, site -> Map.of());
            long a = instance(grid, "alice");
            long b = instance(grid, "bob");
            assertThat(grow(grid, a, 4, "fs0").granted()).isEqualTo(4);
            assertThat(grow(grid, a, 2, "fs1").granted()).isEqualTo(2);
            report(grid, a, true);

            GrowResult promised = grow(grid, b, 2, "fs0");

            assertThat(promised.granted()).isZero();
            assertThat(promised.reason()).startsWith("2 more nodes being taken back for it, by ");
            assertThat(workerSites(grid, a)).containsExactly("fs0", "fs0", "fs0", "fs0", "fs1", "fs1");
            assertThat(events(grid, a)).anySatisfy(e -> assertThat(e).startsWith("ASKED_TO_SHRINK give back 2 workers for "
                    + b));
            assertThat(grid.scheduler.shareReport(a, new ShareReport(List.of(), null)).giveBack().workers()).isEqualTo(2);
            report(grid, a, true);

            grid.tick(Duration.ofSeconds(16));

            assertThat(events(grid, a)).anySatisfy(e -> assertThat(e).startsWith("ENDED_AFTER_GRACE"));
            assertThat(workerSites(grid, a)).containsExactly("fs0", "fs0", "fs1", "fs1");
            assertThat(workerSites(grid, b)).containsExactly("fs0", "fs0");
        }
    }
}
