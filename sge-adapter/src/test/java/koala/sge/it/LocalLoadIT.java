package koala.sge.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import koala.common.grid.SiteConfig;
import koala.common.process.AgentProcess;
import koala.common.site.CellJob;
import koala.common.site.CellSnapshot;
import koala.common.site.SiteAgentClient;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** Jobs that local users submit with plain qsub are load the snapshot shows as someone else's. */
class LocalLoadIT {

    @Test
    void aJobSubmittedWithPlainQsubAppearsAsSomeoneElsesLoad() throws Exception {
        SiteConfig site = TestGrid.site(0);
        String jobId = qsub(site, "-terse", "-b", "y", "-N", "local-user-job", "-o", "/dev/null", "-j", "y",
                "/bin/sleep", "120").trim();
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
            qsubCommand(site, "qdel", jobId);
        }
    }

    static String qsub(SiteConfig site, String... args) throws Exception {
        return qsubCommand(site, "qsub", args);
    }

    private static String qsubCommand(SiteConfig site, String command, String... args) throws Exception {
        List<String> line = new ArrayList<>(List.of("runuser", "-u", site.agentUser(), "--", "/usr/bin/env"));
        site.cell().variables().forEach((k, v) -> line.add(k + "=" + v));
        line.add(site.cell().command(command).toString());
        line.addAll(List.of(args));
        Process p = new ProcessBuilder(line).directory(new java.io.File("/tmp")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(command + " said: " + out).isZero();
        return out;
    }
}
