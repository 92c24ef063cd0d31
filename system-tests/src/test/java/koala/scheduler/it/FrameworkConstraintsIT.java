package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.fluent.client.FluentJdf;
import koala.runner.RunnerMain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A framework instance's placement constraints on the real testbed: the reference framework's runner
 * sends its roles' constraints when it opens its allocation, and the scheduler places the initial
 * deployment's grows with them. The master is pinned to fs1 and carries a hard anti-affinity to the
 * orchestrator over sites, so the orchestrator goes on another site of fs1's network (fs0; fs2, a remote
 * site, is on a network of its own). The sites are decided when each grow is placed, before the runner's
 * deployment returns: nothing here depends on when it looks.
 *
 * <p>A job's two components kept apart per rack run on one site, each node's pilot pinned by SGE to
 * the host the scheduler chose; the hosts the nodes ran on are read when the job has ended.
 */
@SharesScheduler
class FrameworkConstraintsIT {
    private static TestScheduler scheduler;
    private static SchedulerClient client;
    private static Path dir;

    @BeforeAll
    static void start() throws IOException {
        // fs0's two racks, for a job kept apart per rack
        scheduler = TestScheduler.shared(Map.of("site.fs0.groups.rack.r1", "fs0-n1..fs0-n8",
                "site.fs0.groups.rack.r2", "fs0-n9..fs0-n16"));
        client = scheduler.client();
        dir = TestScheduler.nodeDir("koala-constraints-it");
    }

    @AfterAll
    static void stop() {
        scheduler.close();
    }

    @Test
    void theReferenceFrameworksMasterAndOrchestratorAreDeployedOnDifferentSites() {
        FluentJdf jdf = new FluentJdf("it-apart", "ondemand", 0, 4,
                "(constraints = \"anti-affinity role=orchestrator site\")", 4, "fs1", dir, null, List.of());
        try (RunnerMain.Started runner = scheduler.runner(jdf.text(), scheduler.config(), dir, Duration.ofSeconds(10))) {
            long id = runner.instance();

            List<NodeView> held = client.heldNow(id).nodes();
            String master = siteOf(held, "master");
            String orchestrator = siteOf(held, "orchestrator");
            assertThat(master).isEqualTo("fs1");
            assertThat(orchestrator).isNotEqualTo(master);

            FrameworkView view = client.framework(id);
            assertThat(view.constraints()).singleElement().satisfies(c -> {
                assertThat(c.role()).isEqualTo("master");
                assertThat(c.constraint()).isEqualTo("anti-affinity role=orchestrator site");
                assertThat(c.hard()).isTrue();
            });
            assertThat(view.brokenNow()).isEmpty();

            client.closeAllocation(id);
        }
    }

    /**
     * fs0's racks r1 (fs0-n1..fs0-n8) and r2 (fs0-n9..fs0-n16); both components fixed on fs0, two nodes
     * each, the first (store) kept out of the second's (compute) racks, hard. Kept over sites, as before,
     * one site could never hold both; kept per rack the job runs, its store nodes in one rack and its
     * compute nodes in the other.
     */
    @Test
    void aJobsTwoComponentsRunInDifferentRacksOfOneSite() {
        String jdf = "+( &(resourceManagerContact = \"fs0\")(count = 2)(executable = /bin/hostname)(tags = \"store\")"
                + "(constraints = \"anti-affinity compute rack\") )"
                + " ( &(resourceManagerContact = \"fs0\")(count = 2)(executable = /bin/hostname)(tags = \"compute\") )";

        koala.api.scheduler.JobView job = TestScheduler.awaitEnd(client, TestScheduler.submit(client, "racks", jdf).id(),
                Duration.ofSeconds(120));

        assertThat(job.state()).as(job.toString()).isEqualTo("FINISHED");
        assertThat(racksOf(job, 0)).hasSize(1);
        assertThat(racksOf(job, 1)).hasSize(1).doesNotContainAnyElementsOf(racksOf(job, 0));
    }

    private static java.util.Set<String> racksOf(koala.api.scheduler.JobView job, int component) {
        List<String> hosts = job.nodes().stream().filter(n -> n.component() == component).map(NodeView::host).toList();
        assertThat(hosts).as("component " + component + "'s hosts").hasSize(2).doesNotContainNull();
        return hosts.stream().map(h -> Integer.parseInt(h.substring("fs0-n".length())) <= 8 ? "r1" : "r2")
                .collect(java.util.stream.Collectors.toSet());
    }

    private static String siteOf(List<NodeView> nodes, String role) {
        return nodes.stream().filter(n -> role.equals(n.role())).map(NodeView::site).findFirst()
                .orElseThrow(() -> new AssertionError("no " + role + " node held: " + nodes));
    }
}
