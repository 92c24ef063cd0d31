package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.api.site.AgentHealth;
import koala.api.site.CellJob;
import koala.api.site.CellSnapshot;
import koala.api.site.QueueInstance;
import koala.placement.FileLocations;
import koala.placement.SiteView;
import koala.scheduler.kis.SiteInfo;
import org.junit.jupiter.api.Test;

/**
 * fs0 has 16 slots: 3 used by a local user, 2 by this scheduler's pilots that run, 1 by a pilot of
 * another scheduler sharing the cell; this scheduler's books hold 5 nodes there (the 2 running and 3
 * whose pilots still wait in SGE's queue).
 */
class GridViewsTest {
    private static final Instant T = Instant.parse("2026-11-21T10:00:00Z");
    private static final String TAG = "ab12cd";

    private static SiteInfo fs0(boolean up) {
        List<CellJob> jobs = List.of(
                new CellJob("1", "local", "alice", "r", 3, "fs0.q@vm", null, false),
                new CellJob("2", "koala-ab12cd-7-0-0-a1", "koala", "r", 1, "fs0.q@vm", null, true),
                new CellJob("3", "koala-ab12cd-7-0-1-a1", "koala", "r", 1, "fs0.q@vm", null, true),
                new CellJob("4", "koala-ab12cd-7-0-2-a1", "koala", "qw", 1, null, null, true),
                new CellJob("5", "koala-zz12cd-3-0-0-a1", "koala", "r", 1, "fs0.q@vm", null, true));
        CellSnapshot snapshot = new CellSnapshot("fs0", T, List.of(), List.of(new QueueInstance("fs0.q@vm", "vm", 16, 6,
                0, true, "")), jobs);
        AgentHealth health = new AgentHealth("fs0", "fs0", up ? "UP" : "DOWN", up ? null : "qmaster gone", T, "", 0);
        return new SiteInfo("fs0", health, snapshot, null, T);
    }

    @Test
    void idleNodesAreWhatNeitherLocalUsersNorOtherSchedulersNorTheBooksHold() {
        // free 10, plus this scheduler's 2 running pilots given back, minus the 5 it holds: 16 - 3 - 1 - 5 = 7;
        // on host vm, less only the 3 of those 5 whose host is known (arrived, or pinned): 12 - 3 = 9
        assertThat(GridViews.of(List.of(fs0(true)), Map.of("fs0", 5), Map.of("vm", 3), TAG, FileLocations.NONE).sites())
                .containsExactly(new SiteView("fs0", 16, 7, Map.of("vm", 9)));
    }

    /**
     * fs0's one host has 16 cores, 64G and 2 GPUs; SGE says 10 cores, 40G and 1 GPU are free (a local
     * user's job and this scheduler's running pilot 2 hold the rest). The books hold node 7.0.0 there
     * (pilot 2, running: SGE counts it already) and node 7.0.2, pinned there, whose pilot 4 still
     * waits in SGE's queue (4 cores, 8G, 1 GPU: not counted by SGE yet). Free for placement: 6 cores,
     * 32G, no GPU.
     */
    @Test
    void hostsAreFreeAsSgeSaysLessWhatTheBooksHoldThereThatSgeDoesNotCountYet() {
        koala.api.site.HostInfo vm = new koala.api.site.HostInfo("vm", "lx-amd64", 16, 0.0, "64G", "1G",
                new koala.api.site.HostResources(16, 10, 65536L, 40960L, koala.api.site.HostResources.MemorySource.CONSUMABLE,
                        2, 1));
        SiteInfo info = fs0(true);
        CellSnapshot s = info.snapshot();
        SiteInfo withHost = new SiteInfo("fs0", info.health(), new CellSnapshot("fs0", T, List.of(vm), s.queues(), s.jobs()),
                null, T);
        Map<String, GridViews.HeldClaim> claims = Map.of(
                "7.0.0", new GridViews.HeldClaim("vm", "2", new koala.placement.Resources(2, 16384, 1)),
                "7.0.2", new GridViews.HeldClaim("vm", "4", new koala.placement.Resources(4, 8192, 1)));

        SiteView view = GridViews.byResources(List.of(withHost), Map.of(), claims, TAG, FileLocations.NONE).sites().get(0);

        assertThat(view.hosts()).containsExactly(new koala.placement.HostView("vm", new koala.placement.Resources(16, 65536, 2),
                new koala.placement.Resources(6, 32768, 0)));
    }

    @Test
    void aSiteWhoseAgentIsDownGetsNoNewWork() {
        assertThat(GridViews.of(List.of(fs0(false)), Map.of(), TAG, FileLocations.NONE).sites()).isEmpty();
    }

    @Test
    void idleNeverGoesBelowZeroWhenTheBooksRunAheadOfTheSnapshot() {
        assertThat(GridViews.of(List.of(fs0(true)), Map.of("fs0", 20), TAG, FileLocations.NONE).sites())
                .containsExactly(new SiteView("fs0", 16, 0, Map.of("vm", 12)));
    }

    @Test
    void theQueueTriesHighPriorityJobsFirstThenTheRestInOrderOfArrival() {
        PlacementQueue queue = new PlacementQueue();
        queue.add(1, "low");
        queue.add(2, "high");
        queue.add(3, "low");
        queue.add(4, "high");
        assertThat(queue.inOrder()).containsExactly(2L, 4L, 1L, 3L);
        queue.remove(4);
        assertThat(queue.inOrder()).containsExactly(2L, 1L, 3L);
        assertThat(queue.size()).isEqualTo(3);
    }
}
