package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.runner.RunnerClient;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.GrowRequest;
import koala.scheduler.claiming.NodeClaim;
import org.junit.jupiter.api.Test;

/**
 * A framework instance's master node runs with its runner at 198.18.0.1:7601. The runner's host goes and a
 * runner is started on koala-b, at 198.18.0.2:7601, in its place: the master's launcher, asking for its task
 * again (its runner silent), is given the new address; before, it was given the address its grow named.
 */
class RunnerAddressTest {
    @Test
    void aNodeAskingAgainIsGivenTheAddressOfTheRunnerStartedInItsRunnersPlace() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60))) {
            long id = grid.allocations().open("runner-a", "alice").id();
            grid.frameworks().register(new FrameworkRegistration(id, "moved", "moved.jdf", "", "ondemand", Map.of(),
                    "http://198.18.0.1:7601"));
            grid.allocations().grow(id, new GrowRequest(1, "master", "/bin/master", List.of(),
                    Map.of(RunnerClient.URL_VARIABLE, "http://198.18.0.1:7601"), null));
            grid.tick(Duration.ofSeconds(1));
            NodeClaim master = grid.store.nodes(id).get(0);
            grid.arrive(id);

            assertThat(runnerOf(grid, master)).isEqualTo("http://198.18.0.1:7601");
            assertThat(grid.frameworks().replaceRunner(id, "koala-b", "http://198.18.0.2:7601")).isEqualTo(2);
            assertThat(runnerOf(grid, master)).isEqualTo("http://198.18.0.2:7601");
            assertThat(grid.nodes().task(master.id(), master.token()).executable()).isEqualTo("/bin/master");
        }
    }

    private static String runnerOf(TestGrid grid, NodeClaim node) {
        return grid.nodes().task(node.id(), node.token()).environment().get(RunnerClient.URL_VARIABLE);
    }
}
