package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.AllocationRequest;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.RunnerGeneration;
import koala.api.scheduler.SchedulerClient;
import koala.http.ApiException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fencing of framework runners over the scheduler's API, as a runner's calls reach it: instance N's
 * runner registers from koala-a (generation 1); the leader on koala-b starts one in its place (generation
 * 2, recorded through the loop as its supervisor does). Every call of the first about its instance (a
 * look at the allocation, a grow, a close) is refused with 410 naming the one that replaced it, and
 * changes nothing; the second's calls pass, and so do the calls of anyone who is not a runner.
 */
class RunnerGenerationOverHttpTest {
    @TempDir
    Path dir;

    private ServedScheduler scheduler;
    private SchedulerClient root;

    @BeforeEach
    void serve() throws Exception {
        scheduler = ServedScheduler.serve(dir);
        root = scheduler.asRoot().actingFor("alice"); // root, an admin, acts for alice to be her
    }

    @AfterEach
    void stop() {
        scheduler.close();
    }

    @Test
    void aReplacedRunnersCallsAreRefusedNamingItsSuccessorAndItsSuccessorsPass() {
        long id = root.allocate(new AllocationRequest("fenced")).id();
        root.register(new FrameworkRegistration(id, "fenced", "f.jdf", "", "ondemand", Map.of(),
                "http://198.18.0.1:41234", dir.resolve("runner.json").toString(), "koala-a"));
        SchedulerClient first = root.asRunner(RunnerGeneration.FIRST);
        assertThat(first.heldNow(id).state()).isEqualTo("RUNNING");

        long next = scheduler.onLoop(() -> scheduler.grid.scheduler.parts().frameworks().replaceRunner(id, "koala-b",
                "http://198.18.0.2:41234"));
        assertThat(next).isEqualTo(2);

        String refusal = "instance " + id + "'s runner was replaced by the one started on koala-b at generation 2";
        assertThatThrownBy(() -> first.heldNow(id)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(410);
            assertThat(e.field()).isEqualTo(RunnerGeneration.FIELD);
            assertThat(e.getMessage()).contains(refusal);
        });
        assertThatThrownBy(() -> first.grow(id, new GrowRequest(1, "worker", "/bin/sleep", List.of("600"), Map.of(),
                "fs0"))).isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(410));
        assertThatThrownBy(() -> first.closeAllocation(id)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.getMessage()).contains(refusal));

        assertThat(root.asRunner(2).heldNow(id).state()).as("the runner in force").isEqualTo("RUNNING");
        assertThat(root.heldNow(id).nodes()).as("nothing the first asked for was done").isEmpty();
        assertThat(root.framework(id).runner()).isEqualTo("http://198.18.0.2:41234");
    }
}
