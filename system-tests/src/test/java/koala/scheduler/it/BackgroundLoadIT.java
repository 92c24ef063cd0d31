package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.JobView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SiteStatus;
import koala.grid.GridConfig;
import koala.testbed.LocalUser;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** KOALA leaves local users' load alone: it waits for nodes they free, and says why it waits. */
@SharesScheduler
class BackgroundLoadIT {

    @Test
    void aJobPinnedToAClusterFullOfLocalJobsWaitsSayingWhyAndRunsOnceTheyEnd() throws Exception {
        try (TestScheduler scheduler = TestScheduler.shared()) {
            SchedulerClient client = scheduler.client();
            GridConfig grid = GridConfig.load(scheduler.config());
            List<String> local = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                local.add(LocalUser.qsub(grid.site("fs2"), "local-" + i, "/bin/sleep", "600"));
            }
            try {
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> site(client, "fs2").others() == 7);
                assertThat(site(client, "fs2").idle()).isEqualTo(1);

                JobView job = TestScheduler.submit(client, "pinned", "&(resourceManagerContact = \"fs2\")(count = 3)"
                        + "(executable = \"/bin/true\")");
                JobView waiting = Awaitility.await().atMost(Duration.ofSeconds(20))
                        .until(() -> client.job(job.id()), j -> j.placeTries() >= 2);
                assertThat(waiting.state()).isEqualTo("QUEUED");
                assertThat(waiting.waitingBecause()).contains("3 nodes").contains("fs2").contains("1 idle");

                LocalUser.qdel(grid.site("fs2"), local);
                local.clear();
                assertThat(TestScheduler.awaitEnd(client, job.id(), Duration.ofSeconds(90)).state()).isEqualTo("FINISHED");
            } finally {
                if (!local.isEmpty()) {
                    LocalUser.qdel(grid.site("fs2"), local);
                }
            }
        }
    }

    @Test
    void aJobThatCannotBePlacedInTheConfiguredNumberOfTriesFailsWithTheReason() throws Exception {
        try (TestScheduler scheduler = TestScheduler.shared(Map.of("scheduler.placementTries", "3"))) {
            SchedulerClient client = scheduler.client();
            GridConfig grid = GridConfig.load(scheduler.config());
            List<String> local = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                local.add(LocalUser.qsub(grid.site("fs1"), "local-" + i, "/bin/sleep", "600"));
            }
            try {
                // the reason names what the scheduler saw: the 2 local jobs on 8 nodes, nothing else
                Awaitility.await().atMost(Duration.ofSeconds(30))
                        .until(() -> site(client, "fs1"), s -> s.others() == 2 && s.idle() == 6);
                JobView job = TestScheduler.submit(client, "whole-fs1", "&(resourceManagerContact = fs1)(count = 8)"
                        + "(executable = /bin/true)");

                JobView end = TestScheduler.awaitEnd(client, job.id(), Duration.ofSeconds(30));

                assertThat(end.state()).isEqualTo("FAILED");
                assertThat(end.placeTries()).isEqualTo(3);
                assertThat(end.history().get(end.history().size() - 1).reason())
                        .isEqualTo("not placed in 3 tries: component 0 needs 8 nodes on fs1, which has 6 idle");
            } finally {
                LocalUser.qdel(grid.site("fs1"), local);
            }
        }
    }

    static SiteStatus site(SchedulerClient client, String name) {
        return client.sites().stream().filter(s -> s.site().equals(name)).findFirst().orElseThrow();
    }
}
