package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.TransitionView;
import koala.grid.GridConfig;
import koala.testbed.LocalUser;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Incremental claiming: a claim whose pilots do not start in time is released and placed again
 * elsewhere. fs2's node request asks for an architecture the cell does not have, so its pilots wait in the cell's
 * queue for good, as when the cell's own users got there first.
 */
class ClaimTimeoutIT {

    @Test
    void aClaimThatDoesNotStartInTimeIsReleasedAndPlacedElsewhere() throws Exception {
        try (TestScheduler scheduler = TestScheduler.start(Map.of("scheduler.claimTimeout", "15",
                "site.fs2.node.nativeSpec", "-w n -l arch=sparc"))) {
            SchedulerClient client = scheduler.client();
            GridConfig grid = GridConfig.load(scheduler.config());
            // local load leaves idle: fs0 6, fs1 7, fs2 8, so Worst-Fit sends 6 nodes to fs2 first
            Map<String, List<String>> local = Map.of("fs0", load(grid, "fs0", 10), "fs1", load(grid, "fs1", 1));
            try {
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() ->
                        BackgroundLoadIT.site(client, "fs0").idle() == 6 && BackgroundLoadIT.site(client, "fs1").idle() == 7);

                JobView job = TestScheduler.submit(client, "claim-timeout", "&(count = 6)(executable = \"/bin/true\")");
                JobView end = TestScheduler.awaitEnd(client, job.id(), Duration.ofSeconds(120));

                assertThat(end.state()).as(end.history().toString()).isEqualTo("FINISHED");
                assertThat(end.history()).extracting(TransitionView::event)
                        .containsExactly("SUBMITTED", "PLACED", "REPLACED", "ALL_CLAIMED", "COMPLETED");
                assertThat(end.history().get(1).reason()).isEqualTo("component 0: 6 on fs2");
                assertThat(end.history().get(2).reason()).isEqualTo("component 0 on fs2: not all pilots started "
                        + "within 15 s; placing again: component 0: 6 on fs1");
                assertThat(end.claimFailures()).isEqualTo(1);
                assertThat(end.nodes()).extracting(NodeView::site).containsOnly("fs1");
                assertThat(end.nodes()).extracting(NodeView::state).containsOnly("EXITED");
            } finally {
                for (var e : local.entrySet()) {
                    LocalUser.qdel(grid.site(e.getKey()), e.getValue());
                }
            }
        }
    }

    private static List<String> load(GridConfig grid, String site, int jobs) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < jobs; i++) {
            ids.add(LocalUser.qsub(grid.site(site), "local", "/bin/sleep", "600"));
        }
        return ids;
    }
}
