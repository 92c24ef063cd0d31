package koala.site.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import koala.api.site.CellJob;
import koala.api.site.CellSnapshot;
import koala.api.site.SiteAgentClient;
import koala.grid.SiteConfig;
import koala.process.AgentProcess;
import koala.testbed.LocalUser;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** Jobs that local users submit with plain qsub are load the snapshot shows as someone else's. */
class LocalLoadIT {

    @Test
    void aJobSubmittedWithPlainQsubAppearsAsSomeoneElsesLoad() throws Exception {
        SiteConfig site = TestGrid.site(0);
        String jobId = LocalUser.qsub(site, "local-user-job", "/bin/sleep", "120");
        try (AgentProcess agent = TestGrid.startAgent(site)) {
            SiteAgentClient client = TestGrid.awaitUp(agent);

            CellSnapshot snapshot = Awaitility.await().atMost(Duration.ofSeconds(30))
                    .until(client::snapshot, s -> s.jobs().stream().anyMatch(j -> j.id().equals(jobId) && j.running()));

            CellJob job = snapshot.jobs().stream().filter(j -> j.id().equals(jobId)).findFirst().orElseThrow();
            assertThat(job.name()).isEqualTo("local-user-job");
            assertThat(job.owner()).isEqualTo(site.agentUser());
            assertThat(job.koala()).isFalse();
            assertThat(job.queue()).startsWith(site.cell().cell() + ".q@");
            assertThat(snapshot.slotsUsedByOthers()).isGreaterThanOrEqualTo(1);
            assertThat(snapshot.slotsFree()).isLessThanOrEqualTo(snapshot.slotsTotal() - 1);
            assertThat(snapshot.hosts()).isNotEmpty();
        } finally {
            LocalUser.qdel(site, List.of(jobId));
        }
    }
}
