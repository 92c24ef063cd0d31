package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.common.api.JobView;
import koala.common.api.SchedulerClient;
import koala.common.api.SiteStatus;
import koala.common.grid.GridConfig;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** KOALA leaves local users' load alone: it waits for nodes they free, and says why it waits. */
class BackgroundLoadIT {

    @Test
    void aJobPinnedToAClusterFullOfLocalJobsWaitsSayingWhyAndRunsOnceTheyEnd() throws Exception {
        try (TestScheduler scheduler = TestScheduler.start(Map.of())) {
            SchedulerClient client = scheduler.client();
            GridConfig grid = GridConfig.load(scheduler.config());
            List<String> local = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                local.add(LocalUsers.qsub(grid, "fs2", "-terse", "-b", "y", "-N", "local-" + i, "-o", "/dev/null",
                        "-j", "y", "/bin/sleep", "600"));
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

                LocalUsers.qdel(grid, "fs2", local);
                local.clear();
                assertThat(TestScheduler.awaitEnd(client, job.id(), Duration.ofSeconds(90)).state()).isEqualTo("FINISHED");
            } finally {
                if (!local.isEmpty()) {
                    LocalUsers.qdel(grid, "fs2", local);
                }
            }
        }
    }

    static SiteStatus site(SchedulerClient client, String name) {
        return client.sites().stream().filter(s -> s.site().equals(name)).findFirst().orElseThrow();
    }
}
