package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.api.runner.RunnerMessages;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.ReleaseRequest;
import koala.api.scheduler.ShareOrders;
import koala.api.scheduler.ShareReport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runner on a grid shared by arbitration, against a fake scheduler on the test's clock: it reports
 * its workers each tick, offers the grid's ask to its framework and gives back no more than asked,
 * adopts a worker the arbiter granted it without asking, and keeps a Static floor only when needed.
 */
class SharedGridTest {
    private static final Instant T = Instant.parse("2026-11-26T10:00:00Z");

    @TempDir
    Path dir;

    private final FakeScheduler scheduler = new FakeScheduler();
    private final List<ShareReport> reports = scheduler.reports;
    private final List<ReleaseRequest> released = scheduler.released;
    private final List<String> grows = new ArrayList<>();
    private final TestRunner.Clock clock = new TestRunner.Clock(T.plusSeconds(100));

    @BeforeEach
    void held() {
        scheduler.hold(node("7.0.0", "master"), node("7.1.0", "orchestrator"), node("7.2.0", "worker"),
                node("7.2.1", "worker"));
        scheduler.answer(new ShareOrders("fair", 2, 2, "fair share 2", null, List.of()));
        scheduler.grants(r -> {
            String id = "7.6." + grows.size();
            grows.add("grow 1");
            return new GrowResult(7, 1, 1, List.of(id), null);
        });
    }

    private static koala.api.scheduler.NodeView node(String id, String role) {
        return FakeScheduler.node(id, role, "fs1");
    }

    /**
     * A grow asked before the runner's first report was answered, the grid's idle nodes 0: the runner does
     * not know yet whether the grid is shared, so the scheduler decides it (here its arbiter grants 1)
     * instead of the runner refusing "the grid has no free nodes" on its own.
     */
    @Test
    void aGrowAskedBeforeTheFirstReportIsAnsweredGoesToTheScheduler() throws Exception {
        scheduler.idle(0);
        FrameworkRunner runner = runner("ondemand");
        runner.adopt(7, book(), "test");

        RunnerMessages.GrowResult grown = runner.grow(1, "rpc-1");

        assertThat(grown.granted()).as("%s", grown.reason()).isEqualTo(1);
        assertThat(grows).containsExactly("grow 1");
        assertThat(reports).isEmpty();
    }

    /** The framework's figure and reject rate go to the scheduler with the next report: 1.25 = 1 / (1 - 0.2). */
    @Test
    void theFrameworksFigureAndRejectRateGoWithTheNextReport() throws Exception {
        FrameworkRunner runner = runner("ondemand");
        runner.adopt(7, book(), "test");
        runner.tick();
        assertThat(reports).last().satisfies(r -> {
            assertThat(r.figure()).isNull();
            assertThat(r.rejectRate()).isNull();
        });

        runner.figure(1.25, 0.2);
        runner.tick();

        assertThat(reports).last().satisfies(r -> {
            assertThat(r.figure()).isEqualTo(1.25);
            assertThat(r.rejectRate()).isEqualTo(0.2);
        });
    }

    @Test
    void theGridsAskIsOfferedToTheFrameworkAndNoMoreIsGivenBackThanAsked() throws Exception {
        FrameworkRunner runner = runner("ondemand");
        runner.adopt(7, book(), "test");
        runner.activity("7.2.0", false, T.plusSeconds(60));
        runner.activity("7.2.1", true, clock.instant());
        scheduler.answer(new ShareOrders("fair", 2, 1, "fair share 1 of 4", new ShareOrders.GiveBack(1,
                T.plusSeconds(115), "give back 1 worker for 9 by 10:01:55"), List.of()));

        runner.tick();

        assertThat(reports).last().satisfies(r -> assertThat(r.workers()).extracting(ShareReport.WorkerActivity::node,
                ShareReport.WorkerActivity::busy).containsExactly(org.assertj.core.groups.Tuple.tuple("7.2.0", false),
                org.assertj.core.groups.Tuple.tuple("7.2.1", true)));
        assertThat(runner.giveBackAsk()).isEqualTo(new ShareOrders.GiveBack(1, T.plusSeconds(115),
                "give back 1 worker for 9 by 10:01:55"));

        RunnerMessages.ShrinkResult result = runner.giveBack(List.of("7.2.0", "7.2.1"));

        assertThat(result.released()).containsExactly("7.2.0");
        assertThat(result.refused()).containsExactly(new RunnerMessages.Refusal("7.2.1", "only 1 asked back"));
        assertThat(released).extracting(ReleaseRequest::nodes).containsExactly(List.of("7.2.0"));
        assertThat(released.get(0).reason()).isEqualTo("given back at the grid's request: give back 1 worker for 9 "
                + "by 10:01:55");
        assertThat(runner.giveBackAsk()).as("met until the next report says otherwise").isNull();
    }

    /**
     * The arbiter ended idle 7.2.0 and asks one more back; until its pilot is gone the scheduler still
     * lists it. Offered by a framework that has not noticed, it is refused as taken already (the ask
     * stays 1), and it is out of the status, so the framework drops it and offers another.
     */
    @Test
    void aWorkerTheArbiterTookIsRefusedOnAGiveBackAndLeavesTheStatus() throws Exception {
        FrameworkRunner runner = runner("ondemand");
        runner.adopt(7, book(), "test");
        scheduler.answer(new ShareOrders("fair", 2, 1, "fair share 1 of 4", new ShareOrders.GiveBack(1,
                T.plusSeconds(115), "give back 1 worker for 9 by 10:01:55"), List.of("7.2.0")));
        runner.tick();

        RunnerMessages.ShrinkResult result = runner.giveBack(List.of("7.2.0"));

        assertThat(result.released()).isEmpty();
        assertThat(result.refused()).containsExactly(new RunnerMessages.Refusal("7.2.0",
                "taken back already by the grid's arbitration (fair)"));
        assertThat(released).isEmpty();
        assertThat(runner.giveBackAsk().workers()).isEqualTo(1);
        assertThat(runner.status().entities()).extracting(RunnerMessages.Entity::node).doesNotContain("7.2.0");

        result = runner.giveBack(List.of("7.2.1"));
        assertThat(result.released()).containsExactly("7.2.1");
    }

    @Test
    void aWorkerTheArbiterGrantedWithoutAnAskIsAdoptedAsStarting() throws Exception {
        FrameworkRunner runner = runner("ondemand");
        runner.adopt(7, book(), "test");
        scheduler.hold(node("7.5.0", "worker"));

        runner.tick();

        assertThat(runner.status().entities()).filteredOn(e -> e.node().equals("7.5.0")).singleElement()
                .satisfies(e -> {
                    assertThat(e.role()).isEqualTo("worker");
                    assertThat(e.state()).isEqualTo("STARTING");
                });
        assertThat(runner.status().events()).anySatisfy(e -> assertThat(e)
                .endsWith("grow 1 worker [7.5.0]: granted by the grid's arbitration"));
    }

    @Test
    void aStaticFloorTakenBackIsAskedForAgainOneAtATimeOnlyWhenAllWorkersAreBusy() throws Exception {
        FrameworkRunner runner = runner("static");
        runner.adopt(7, book(), "test");
        // the arbiter took one of the three initial workers (7.2.2) while it was idle
        scheduler.answer(new ShareOrders("fair", 2, 2, "fair share 2", null, List.of("7.2.2")));
        runner.activity("7.2.0", false, T.plusSeconds(60));
        runner.activity("7.2.1", true, clock.instant());

        clock.set(T.plusSeconds(111));
        beat(runner);
        runner.tick();
        assertThat(grows).as("7.2.0 is idle: nothing asked").isEmpty();

        runner.activity("7.2.0", true, clock.instant());
        clock.set(T.plusSeconds(122));
        beat(runner);
        runner.tick();
        assertThat(grows).containsExactly("grow 1");
        clock.set(T.plusSeconds(133));
        beat(runner);
        runner.tick();
        assertThat(grows).as("back at its 3 initial workers").containsExactly("grow 1");
    }

    /** Every running entity's heartbeat, so that none is lost for silence. */
    private static void beat(FrameworkRunner runner) {
        for (String node : List.of("7.0.0", "7.1.0", "7.2.0", "7.2.1")) {
            runner.heartbeat(node, 50.0, true);
        }
    }

    private FrameworkRunner runner(String policy) throws IOException {
        String text = "+( &(jobType = framework)(name = share)(role = master)(count = 1)"
                + "(executable = /bin/sleep)(arguments = 100)(provisioning = " + policy + ")(fMax = 6)"
                + "(samplePeriod = 10)(tIdle = 600) )"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100) )"
                + " ( &(role = worker)(count = 3)(executable = /bin/sleep)(arguments = 100) )";
        Path grid = TestRunner.grid(dir, "grid.sites = fs1\nsite.fs1.sge.cell = fs1\n");
        return TestRunner.direct(clock, TestRunner.jdf(text, Map.of("fs1", 8)), grid, scheduler,
                new InstanceSecrets("t0ken"));
    }

    /** Master, orchestrator node and two workers, all running; the last sample at 95 s. */
    private static RunnerState.Book book() {
        List<RunnerState.Saved> saved = new ArrayList<>();
        saved.add(new RunnerState.Saved("7.0.0", "master", "fs1", "RUNNING", T, "fs1-n1", 41000, 10_000, T, 0, null,
                false));
        saved.add(new RunnerState.Saved("7.1.0", "orchestrator", "fs1", "RUNNING", T, "fs1-n2", 41001, 10_000,
                null, 0, T, false));
        for (String w : List.of("7.2.0", "7.2.1")) {
            saved.add(new RunnerState.Saved(w, "worker", "fs1", "RUNNING", T, "fs1-n3", 41002, 10_000, null, 0, null,
                    true));
        }
        return new RunnerState.Book("RUNNING", true, "fs1-n1:41000", "", T.plusSeconds(95), saved, Map.of(), null,
                Map.of(), List.of());
    }
}
