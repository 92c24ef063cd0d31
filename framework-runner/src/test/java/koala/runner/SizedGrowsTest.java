package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every grow the runner sends asks, per node, what its role's component asks: the master's at the
 * initial deployment, the orchestrator's and the workers' the runner asks on its own, and the
 * workers' the framework asks through the RPC. Worked on a fake scheduler, on the test's clock.
 */
class SizedGrowsTest {
    private static final Instant T = Instant.parse("2026-12-05T10:00:00Z");

    @TempDir
    Path dir;

    private final FakeScheduler scheduler = new FakeScheduler();
    private final TestRunner.Clock clock = new TestRunner.Clock(T);

    /** cores, memoryMiB, gpus of a grow. */
    private static List<Object> asked(GrowRequest grow) {
        return java.util.Arrays.asList(grow.cores(), grow.memoryMiB(), grow.gpus());
    }

    @Test
    void aMasterThatAsksNothingIsGrownAsOneCore() throws IOException {
        FrameworkRunner runner = runner("static", "", "(cores = 2)", "(count = 0)(cores = 4)(memory = 8G)");
        runner.open("jdf", "http://127.0.0.1:1", id -> null);

        runner.beginDeployment();

        assertThat(scheduler.grows).singleElement().satisfies(g -> {
            assertThat(g.role()).isEqualTo("master");
            assertThat(asked(g)).containsExactly(null, null, null);
        });
    }

    @Test
    void aMasterThatAsksMemoryIsGrownWithIt() throws IOException {
        FrameworkRunner runner = runner("static", "(memory = 2G)", "", "(count = 0)");
        runner.open("jdf", "http://127.0.0.1:1", id -> null);

        runner.beginDeployment();

        assertThat(scheduler.grows).extracting(SizedGrowsTest::asked).containsExactly(List.of(1, 2048L, 0));
    }

    /**
     * A running Static instance with neither its orchestrator node nor its 2 workers: the runner asks for
     * them at the next sample, the orchestrator node of 2 cores (no memory asked, no GPU), the workers of
     * 4 cores, 8192 MiB (8G) and no GPU.
     */
    @Test
    void theOrchestratorAndTheWorkersTheRunnerAsksForCarryTheirRolesResources() throws IOException {
        scheduler.grants(r -> new GrowResult(7, r.nodes(), 0, List.of(), "grid full"));
        FrameworkRunner runner = runner("static", "", "(cores = 2)", "(count = 2)(cores = 4)(memory = 8G)");
        adoptRunningMaster(runner);

        clock.advance(Duration.ofSeconds(10));
        runner.tick();

        assertThat(scheduler.grows).extracting(g -> g.role() + " " + g.nodes() + " " + asked(g))
                .contains("orchestrator 1 [2, null, 0]", "worker 2 [4, 8192, 0]");
    }

    @Test
    void theWorkersTheFrameworkAsksForCarryTheWorkerRolesResources() throws IOException {
        scheduler.grants(r -> new GrowResult(7, r.nodes(), 1, List.of("7.2.0"), null));
        FrameworkRunner runner = runner("ondemand", "", "", "(count = 0)(cores = 4)(memory = 8G)(gpus = 1)");
        adoptRunningMaster(runner);

        runner.grow(1, "rpc-1");

        assertThat(scheduler.grows).filteredOn(g -> g.role().equals("worker"))
                .extracting(g -> g.nodes() + " " + asked(g)).containsExactly("1 [4, 8192, 1]");
        assertThat(runner.status().events()).anySatisfy(e -> assertThat(e).endsWith(
                "grow 1 worker of 4 cores, 8G and 1 GPU [7.2.0]: grow request: grow 1 as requested: 1 workers after, "
                        + "F_max 20"));
    }

    @Test
    void theGrowsEventNamesOnlyWhatARoleAsksBeyondOneCore() throws IOException {
        scheduler.grants(r -> new GrowResult(7, r.nodes(), 2, List.of("7.2.0", "7.2.1"), null));
        FrameworkRunner runner = runner("ondemand", "", "", "(count = 0)(memory = 512M)");
        adoptRunningMaster(runner);

        runner.grow(2, "rpc-1");

        assertThat(runner.status().events()).anySatisfy(e -> assertThat(e).contains("grow 2 workers of 512M [7.2.0, "
                + "7.2.1]: "));
        assertThat(new Deployd(TestRunner.jdf("+( &(jobType = framework)(role = master)(count = 1)(executable = /bin/a) )"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/a) )"
                + " ( &(role = worker)(count = 0)(cores = 2)(executable = /bin/a) )", Map.of("fs1", 8)),
                "http://127.0.0.1:1", "t", "d").sizeOf("worker")).isEqualTo(" of 2 cores");
    }

    private void adoptRunningMaster(FrameworkRunner runner) {
        scheduler.hold(FakeScheduler.node("7.0.0", "master", "fs1"));
        runner.adopt(7, new RunnerState.Book("RUNNING", true, "fs1-n1:41000", "fs1", T, List.of(new RunnerState.Saved(
                "7.0.0", "master", "fs1", "RUNNING", T, "fs1-n1", 41000, 10_000, T, 0, null, false)), Map.of(), null,
                Map.of(), List.of()), "test");
        runner.heartbeat("7.0.0", 1.0, true);
    }

    private FrameworkRunner runner(String policy, String master, String orchestrator, String workers)
            throws IOException {
        String text = "+( &(jobType = framework)(name = sized)(role = master)(count = 1)" + master
                + "(executable = /bin/sleep)(arguments = 100)(provisioning = " + policy + ")(samplePeriod = 10) )"
                + " ( &(role = orchestrator)(count = 1)" + orchestrator + "(executable = /bin/sleep)(arguments = 100) )"
                + " ( &(role = worker)" + workers + "(executable = /bin/sleep)(arguments = 100) )";
        Path grid = TestRunner.grid(dir, "grid.sites = fs1\nsite.fs1.sge.cell = fs1\n");
        return TestRunner.direct(clock, TestRunner.jdf(text, Map.of("fs1", 8)), grid, scheduler,
                new InstanceSecrets("t0ken"));
    }
}
