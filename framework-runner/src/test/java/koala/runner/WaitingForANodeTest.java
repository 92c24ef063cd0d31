package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.GrowResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An instance whose master or orchestrator node the scheduler refuses waits for it, saying so in its
 * status, and asks again: the master every 10 s while the deployment waits (a site held by another
 * user's work hands over when that work ends), the orchestrator at each sample. Worked on a fake
 * scheduler, on the test's clock.
 */
class WaitingForANodeTest {
    private static final Instant T = Instant.parse("2026-12-05T10:00:00Z");
    private static final String HELD = "grid full: no idle node on fs2; fs2 runs every user's pilots as one account "
            + "and holds another user's work now: no other user's work goes there until it ends";

    @TempDir
    Path dir;

    private final FakeScheduler scheduler = new FakeScheduler();
    private final TestRunner.Clock clock = new TestRunner.Clock(T);

    /**
     * 10:00:00 the master's node is refused (fs2 held by another user): the instance waits, saying why.
     * 10:00:05 nothing is asked; 10:00:10 it is asked again, refused alike (one event for both
     * refusals); 10:00:20, fs2 free, it is granted and the instance waits for nothing.
     */
    @Test
    void aMasterRefusedItsNodeIsAskedForAgainUntilTheSiteFrees() throws IOException {
        scheduler.grants(r -> new GrowResult(7, r.nodes(), 0, List.of(), HELD));
        FrameworkRunner runner = runner("(resourceManagerContact = fs2)", 0);
        runner.open("jdf", "http://127.0.0.1:1", id -> null);

        runner.beginDeployment();
        assertThat(scheduler.grows).extracting(g -> g.role() + " " + g.site()).containsExactly("master fs2");
        assertThat(runner.status().state()).isEqualTo("DEPLOYING");
        assertThat(runner.status().waiting()).containsExactly("waiting for its master: " + HELD
                + " (asked for again every 10 s)");

        clock.advance(Duration.ofSeconds(5));
        runner.tick();
        assertThat(scheduler.grows).hasSize(1);
        clock.advance(Duration.ofSeconds(5));
        runner.tick();
        assertThat(scheduler.grows).hasSize(2);
        assertThat(runner.status().events()).filteredOn(e -> e.contains("no master node")).hasSize(1);

        scheduler.grants(r -> new GrowResult(7, r.nodes(), 1, List.of("7.0.0"), null));
        clock.advance(Duration.ofSeconds(10));
        runner.tick();
        assertThat(scheduler.grows).hasSize(3);
        assertThat(runner.status().entities()).extracting(e -> e.node() + " " + e.role() + " " + e.state())
                .containsExactly("7.0.0 master STARTING");
        assertThat(runner.status().waiting()).isEmpty();
        clock.advance(Duration.ofSeconds(10));
        runner.tick();
        assertThat(scheduler.grows).as("granted: not asked again").hasSize(3);
    }

    /**
     * A running instance without its orchestrator node, refused by a hard constraint: RUNNING, and its
     * status says it waits for its orchestrator, in the scheduler's words, asked again at each sample.
     */
    @Test
    void anInstanceWhoseOrchestratorIsRefusedShowsItWaitsForIt() throws IOException {
        String why = "placement constraints: no site may take one more keeping the hard constraints: fs1: hard "
                + "anti-affinity ...; fs2: no idle node";
        scheduler.grants(r -> new GrowResult(7, r.nodes(), 0, List.of(), why));
        scheduler.hold(FakeScheduler.node("7.0.0", "master", "fs1"));
        FrameworkRunner runner = runner("", 0);
        runner.adopt(7, new RunnerState.Book("RUNNING", true, "fs1-n1:41000", "fs1", T, List.of(new RunnerState.Saved(
                "7.0.0", "master", "fs1", "RUNNING", T, "fs1-n1", 41000, 10_000, T, 0, null, false)), Map.of(), null,
                Map.of(), List.of()), "test");
        runner.heartbeat("7.0.0", 1.0, true);

        clock.advance(Duration.ofSeconds(10));
        runner.tick();

        assertThat(scheduler.grows).extracting(g -> g.role()).containsExactly("orchestrator");
        assertThat(runner.status().state()).isEqualTo("RUNNING");
        assertThat(runner.status().waiting()).containsExactly("waiting for its orchestrator: " + why
                + " (asked for again every sample, 10 s)");
    }

    private FrameworkRunner runner(String masterSite, int workers) throws IOException {
        String text = "+( &(jobType = framework)(name = waits)(role = master)(count = 1)" + masterSite
                + "(executable = /bin/sleep)(arguments = 100)(provisioning = static)(samplePeriod = 10) )"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100) )"
                + " ( &(role = worker)(count = " + workers + ")(executable = /bin/sleep)(arguments = 100) )";
        Path grid = TestRunner.grid(dir, "grid.sites = fs1, fs2\nsite.fs1.sge.cell = fs1\nsite.fs2.sge.cell = fs2\n");
        return TestRunner.direct(clock, TestRunner.jdf(text, Map.of("fs1", 8, "fs2", 8)), grid, scheduler,
                new InstanceSecrets("t0ken"));
    }
}
