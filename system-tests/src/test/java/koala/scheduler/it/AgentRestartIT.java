package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import koala.api.scheduler.JobView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SiteStatus;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** A site agent that dies (killed, crashed, wedged) is started again, and its site carries on. */
@SharesScheduler
class AgentRestartIT {

    @Test
    void aKilledAgentIsReplacedAndItsSiteTakesJobsAgain() throws Exception {
        try (TestScheduler scheduler = TestScheduler.shared()) {
            SchedulerClient client = scheduler.client();
            List<ProcessHandle> agent = agentOf(scheduler, "fs1");
            assertThat(agent).isNotEmpty();

            agent.forEach(ProcessHandle::destroyForcibly);

            Awaitility.await("fs1 down").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                    .until(() -> site(client, "fs1").agent().equals("DOWN"));
            Awaitility.await("fs1 back").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> site(client, "fs1").agent().equals("UP"));
            assertThat(agentOf(scheduler, "fs1")).isNotEmpty().doesNotContainAnyElementsOf(agent);
            JobView job = TestScheduler.submit(client, "after-restart", "&(resourceManagerContact = fs1)(count = 2)"
                    + "(executable = /bin/true)");
            assertThat(TestScheduler.awaitEnd(client, job.id(), Duration.ofSeconds(60)).state()).isEqualTo("FINISHED");
        }
    }

    /** The agent JVM of {@code site} started for this test's scheduler (its configuration file is unique). */
    private static List<ProcessHandle> agentOf(TestScheduler scheduler, String site) {
        String config = scheduler.config().toString();
        return ProcessHandle.allProcesses().filter(p -> koala.process.CommandLines.of(p).map(c -> c.contains("koala.site.AgentMain")
                && c.contains(config) && c.contains("--site " + site)).orElse(false)).toList();
    }

    private static SiteStatus site(SchedulerClient client, String name) {
        return client.sites().stream().filter(s -> s.site().equals(name)).findFirst().orElseThrow();
    }
}
