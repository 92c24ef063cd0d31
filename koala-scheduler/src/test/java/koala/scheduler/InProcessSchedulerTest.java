package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import koala.api.scheduler.AllocationRequest;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeReport;
import koala.api.scheduler.SubmitRequest;
import koala.api.site.AgentHealth;
import koala.api.site.CellSnapshot;
import koala.api.site.QueueInstance;
import koala.scheduler.api.Caller;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.config.SchedulerSettings;
import koala.scheduler.kis.SiteInfo;
import koala.scheduler.metrics.GridReading;
import koala.scheduler.storage.H2Store;
import org.junit.jupiter.api.Test;

/** The seam benchmarks drive a scheduler through: its API on the loop, rounds when asked, pilots started by a cell. */
class InProcessSchedulerTest {
    private static final Caller ALICE = new Caller("alice", 1000, false, "test");

    /**
     * fs0 of 3 idle nodes, fs1 of 2: a job of 2 nodes submitted through the API waits for a round, which places
     * it by Worst-Fit on fs0 (3 idle) and starts its 2 pilots in the cell; both arrive, run and exit 0, and the
     * next round ends it FINISHED. A grow of 3 workers then gets the grid's 5 idle nodes over as few sites as
     * possible: fs0 3, as Flexible Cluster Minimization puts them, and a reading of the grid shows fs0 with none
     * idle and fs1 with its 2.
     */
    @Test
    void aJobAndAGrowGoThroughTheSchedulersOwnCode() {
        TestGrid.Clock clock = new TestGrid.Clock();
        List<NodeClaim> started = new CopyOnWriteArrayList<>();
        SchedulerSettings settings = new SchedulerSettings(7400, Duration.ofSeconds(1), 150, Duration.ofMinutes(5), 3,
                "worst-fit", Duration.ofSeconds(1), Duration.ofMinutes(5), null, 1000, Duration.ofMinutes(10),
                Duration.ofDays(30), null);
        try (H2Store store = H2Store.inMemory();
             InProcessScheduler koala = InProcessScheduler.on(settings, store, clock).site(idle("fs0", 3), 3)
                     .site(idle("fs1", 2), 2).cellOnLoop((node, owner) -> {
                         started.add(node);
                         return Integer.toString(started.size());
                     }).start()) {
            long job = ((JobView) koala.api().submit(ALICE, new SubmitRequest("two.jdf",
                    "&(count = 2)(executable = /bin/true)", null))).id();
            assertThat(started).isEmpty();

            clock.advance(Duration.ofSeconds(1));
            koala.round();
            assertThat(started).extracting(NodeClaim::site).containsExactly("fs0", "fs0");
            for (NodeClaim n : started) {
                koala.api().arrive(n.id(), new NodeReport(n.token(), "fs0-n" + (n.rank() + 1), null));
                koala.api().task(n.id(), n.token());
                koala.api().exited(n.id(), new NodeReport(n.token(), "fs0-n" + (n.rank() + 1), 0));
            }
            clock.advance(Duration.ofSeconds(1));
            koala.round();
            assertThat(((JobView) koala.api().job(job, false)).state()).isEqualTo("FINISHED");
            assertThat(koala.jobsInMemory()).isEqualTo(1);

            long allocation = ((JobView) koala.api().allocate(ALICE, new AllocationRequest("runner-a"))).id();
            GrowResult grown = (GrowResult) koala.api().grow(ALICE, allocation, new GrowRequest(3, "worker",
                    "/bin/sleep", List.of("60"), Map.of(), null));
            assertThat(grown.granted()).isEqualTo(3);
            assertThat(started.subList(2, 5)).extracting(NodeClaim::site).containsExactly("fs0", "fs0", "fs0");
            // the reading counts jobs that have not ended and are not allocations: none
            GridReading reading = koala.read();
            assertThat(reading.jobs()).isEmpty();
            assertThat(reading.sites()).extracting(GridReading.Site::site, GridReading.Site::idle)
                    .containsExactly(tuple("fs0", 0), tuple("fs1", 2));
        }
    }

    private static SiteInfo idle(String site, int nodes) {
        List<QueueInstance> queues = new ArrayList<>();
        for (int i = 1; i <= nodes; i++) {
            queues.add(new QueueInstance("all.q@" + site + "-n" + i, site + "-n" + i, 1, 0, 0, true, ""));
        }
        return new SiteInfo(site, new AgentHealth(site, site, "UP", null, Instant.EPOCH, "SGE", 0),
                new CellSnapshot(site, Instant.EPOCH, List.of(), queues, List.of()), null, Instant.EPOCH);
    }
}
