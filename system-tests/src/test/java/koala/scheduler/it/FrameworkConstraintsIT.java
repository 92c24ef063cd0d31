package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.common.api.FrameworkView;
import koala.common.api.NodeView;
import koala.common.api.SchedulerClient;
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
 */
class FrameworkConstraintsIT {
    private static TestScheduler scheduler;
    private static SchedulerClient client;
    private static Path dir;

    @BeforeAll
    static void start() throws IOException {
        scheduler = TestScheduler.start(Map.of());
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

    private static String siteOf(List<NodeView> nodes, String role) {
        return nodes.stream().filter(n -> role.equals(n.role())).map(NodeView::site).findFirst()
                .orElseThrow(() -> new AssertionError("no " + role + " node held: " + nodes));
    }
}
