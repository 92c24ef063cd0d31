package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.grid.GridConfig;
import koala.testbed.LocalUser;
import org.junit.jupiter.api.Test;

/**
 * {@code kill -9} the scheduler while jobs wait, claim and run, start it again: it reloads its jobs
 * from H2, re-attaches to its agents and to the pilots still in SGE, and carries on; no job is lost
 * or duplicated.
 */
class CrashRestartIT {

    @Test
    void aKilledSchedulerComesBackAndFinishesWhatItHad() throws Exception {
        // a sweep every 5 s rather than 30: the orphan below is killed within 10 s, not a minute
        Path config = TestScheduler.config(Map.of("scheduler.sweepInterval", "5"));
        GridConfig grid = GridConfig.load(config);
        Process first = TestScheduler.process(config);
        SchedulerClient client = new SchedulerClient(grid.schedulerAddress()).actingFor(TestScheduler.OWNER);
        long running = TestScheduler.submit(client, "survivor", "+(&(resourceManagerContact = \"fs1\")(count = 2)"
                + "(executable = \"/bin/sleep\")(arguments = \"15\"))(&(resourceManagerContact = \"fs2\")(count = 1)"
                + "(executable = \"/bin/sleep\")(arguments = \"15\"))").id();
        TestScheduler.awaitState(client, running, "RUNNING", Duration.ofSeconds(90));
        long allocation = client.allocate(new koala.api.scheduler.AllocationRequest("runner-1")).id();
        client.grow(allocation, new koala.api.scheduler.GrowRequest(2, "worker", "/bin/sleep", List.of("600"), Map.of(),
                "fs0"));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> client.job(allocation).nodes()
                .stream().allMatch(n -> n.state().equals("RUNNING")));
        long queued = TestScheduler.submit(client, "too-big-for-now", "&(resourceManagerContact = \"fs1\")(count = 8)"
                + "(executable = \"/bin/true\")").id();

        // this scheduler's mark, from one of its own pilots (another scheduler's leftovers may share the job number)
        String ownPilot = client.job(allocation).nodes().get(0).pilot();
        String tag = LocalUser.run(grid.site("fs0"), "qstat", "-j", ownPilot).lines()
                .filter(l -> l.startsWith("job_name:")).findFirst().orElseThrow()
                .replaceFirst("^job_name:\\s*koala-([a-z0-9]+)-.*$", "$1");

        first.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // SIGKILL: no shutdown hook runs
        // a pilot of this scheduler's that no job owns, as a crash between submitting and recording leaves
        String orphan = LocalUser.qsub(grid.site("fs0"), "koala-" + tag + "-9999-0-0-a1", "/bin/sleep", "600");
        // and one of another scheduler sharing the cell and its account: not this one's to kill
        String other = (tag.startsWith("zz") ? "yy" : "zz") + tag.substring(2);
        String foreign = LocalUser.qsub(grid.site("fs0"), "koala-" + other + "-9998-0-0-a1", "/bin/sleep", "600");
        Process second = TestScheduler.process(config);
        try {
            JobView survivor = TestScheduler.awaitEnd(client, running, Duration.ofSeconds(120));
            assertThat(survivor.state()).as(survivor.history().toString()).isEqualTo("FINISHED");
            assertThat(survivor.nodes()).extracting(NodeView::exitStatus).containsOnly(0);
            assertThat(survivor.nodes()).hasSize(3);
            JobView later = TestScheduler.awaitEnd(client, queued, Duration.ofSeconds(120));
            assertThat(later.state()).isEqualTo("FINISHED");
            assertThat(client.jobs()).extracting(JobView::id).containsExactly(running, allocation, queued);
            JobView held = client.job(allocation);
            assertThat(held.state()).isEqualTo("RUNNING");
            assertThat(held.nodes()).extracting(NodeView::state).containsOnly("RUNNING");
            assertThat(client.closeAllocation(allocation).nodes()).extracting(NodeView::state).containsOnly("RELEASED");
            assertThat(TestScheduler.pilotsNamedFor(grid, running)).isEmpty();
            // killed at the start if the cell's snapshot already showed it, else by the sweep within two of its 5 s intervals
            org.awaitility.Awaitility.await("orphan pilot " + orphan + " killed").atMost(Duration.ofSeconds(90))
                    .until(() -> TestScheduler.pilotsNamedFor(grid, 9999).isEmpty());
            assertThat(TestScheduler.pilotsNamedFor(grid, 9998)).as("another scheduler's pilot " + foreign + " left alone")
                    .hasSize(1);

            // a stop (TERM, as an admin's restart sends) is over within 5 s and leaves what runs running
            long kept = client.allocate(new koala.api.scheduler.AllocationRequest("runner-2")).id();
            client.grow(kept, new koala.api.scheduler.GrowRequest(1, "worker", "/bin/sleep", List.of("600"), Map.of(),
                    "fs0"));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> client.job(kept).nodes()
                    .stream().allMatch(n -> n.state().equals("RUNNING")));
            long asked = System.nanoTime();
            second.destroy();
            assertThat(second.waitFor(5, TimeUnit.SECONDS)).as("the scheduler gone within 5 s of its TERM").isTrue();
            System.out.printf("scheduler stopped %.2f s after its TERM%n", (System.nanoTime() - asked) / 1e9);
            assertThat(TestScheduler.pilotsNamedFor(grid, tag, kept)).as("the allocation's pilot carries on").hasSize(1);
            Process third = TestScheduler.process(config);
            try {
                assertThat(client.job(kept).nodes()).extracting(NodeView::state).containsOnly("RUNNING");
                assertThat(client.closeAllocation(kept).nodes()).extracting(NodeView::state).containsOnly("RELEASED");
            } finally {
                third.destroy();
                third.waitFor(30, TimeUnit.SECONDS);
            }
        } finally {
            // neither may outlive the test: a sleeping pilot holds a slot the next test counts on
            for (String pilot : List.of(foreign, orphan)) {
                try {
                    LocalUser.qdel(grid.site("fs0"), List.of(pilot));
                } catch (RuntimeException gone) {
                    // already killed, as it should be
                }
            }
            second.destroy();
            second.waitFor(30, TimeUnit.SECONDS);
        }
    }

}
