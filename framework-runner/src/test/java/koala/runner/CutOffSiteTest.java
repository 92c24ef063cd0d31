package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.common.api.ReleaseRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Static instance wholly on remote site fs2 (master, orchestrator node, two workers), heartbeats
 * every 10 s, launchers that wait 120 s for a silent runner: when fs2's link is down its entities go
 * silent without being gone. Worked on a fake scheduler, on the test's clock.
 */
class CutOffSiteTest {
    private static final Instant T = Instant.parse("2026-11-26T10:00:00Z");

    @TempDir
    Path dir;

    private final FakeScheduler scheduler = new FakeScheduler().site("fs1", "UP").site("fs2", "DOWN");
    private final List<ReleaseRequest> released = scheduler.released;
    private final TestRunner.Clock clock = new TestRunner.Clock(T);

    @BeforeEach
    void held() {
        scheduler.hold(FakeScheduler.node("7.0.0", "master", "fs2"), FakeScheduler.node("7.1.0", "orchestrator", "fs2"),
                FakeScheduler.node("7.2.0", "worker", "fs2"), FakeScheduler.node("7.2.1", "worker", "fs2"));
    }

    /**
     * Last heard from at 10:00:00; two periods make them silent at 10:00:20. With fs2's link down they
     * are waited for until 10:02:10 (120 s their launchers wait, and one period), and lost after.
     */
    @Test
    void entitiesBehindALinkThatIsDownAreWaitedForAsLongAsTheirLaunchersWait() throws Exception {
        FrameworkRunner runner = runner();
        runner.adopt(7, book(), "test");

        clock.set(T.plusSeconds(30));
        runner.tick();
        assertThat(released).isEmpty();
        assertThat(runner.status().events()).anySatisfy(e -> assertThat(e).endsWith("master 7.0.0 silent for 30 s "
                + "while the link to fs2 is down: waited for until 2026-11-26T10:02:10Z (its launcher waits 120 s for "
                + "this runner)"));

        clock.set(T.plusSeconds(129));
        runner.tick();
        assertThat(released).isEmpty();
        assertThat(scheduler.grows).as("no worker or master deployed in their place meanwhile").isEmpty();

        clock.set(T.plusSeconds(130));
        runner.tick();
        assertThat(released).extracting(r -> r.nodes().get(0)).contains("7.0.0", "7.1.0", "7.2.0", "7.2.1");
        assertThat(released.get(0).reason()).endsWith("no heartbeat for 130 s (two periods: 10 s each); the link to "
                + "fs2 was down longer than its launcher waits");
    }

    /** The link comes back at 10:01:00 and they are heard from again: nothing lost, nothing deployed again. */
    @Test
    void entitiesHeardFromAgainWhenTheLinkIsBackCarryOn() throws Exception {
        FrameworkRunner runner = runner();
        runner.adopt(7, book(), "test");
        clock.set(T.plusSeconds(30));
        runner.tick();

        clock.set(T.plusSeconds(60));
        scheduler.site("fs2", "UP");
        for (String node : List.of("7.0.0", "7.1.0", "7.2.0", "7.2.1")) {
            runner.heartbeat(node, 50.0, true);
        }
        clock.set(T.plusSeconds(65));
        runner.tick();

        assertThat(released).isEmpty();
        assertThat(scheduler.grows).isEmpty();
        assertThat(runner.status().entities()).extracting(e -> e.state()).containsOnly("RUNNING");
    }

    /** A site whose link is up: silence is loss after two periods, as before. */
    @Test
    void silentEntitiesOnASiteThatIsUpAreLostAfterTwoPeriods() throws Exception {
        scheduler.site("fs2", "UP");
        FrameworkRunner runner = runner();
        runner.adopt(7, book(), "test");

        clock.set(T.plusSeconds(20));
        runner.tick();

        assertThat(released).extracting(r -> r.nodes().get(0)).contains("7.0.0", "7.1.0", "7.2.0", "7.2.1");
    }

    private FrameworkRunner runner() throws IOException {
        String text = "+( &(jobType = framework)(name = cut)(role = master)(count = 1)(resourceManagerContact = fs2)"
                + "(executable = /bin/sleep)(arguments = 100)(provisioning = static)(samplePeriod = 10) )"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100) )"
                + " ( &(role = worker)(count = 2)(executable = /bin/sleep)(arguments = 100) )";
        Path grid = TestRunner.grid(dir, "grid.sites = fs1, fs2\n"
                + "site.fs1.sge.cell = fs1\nsite.fs2.sge.cell = fs2\nsite.fs2.ssh.host = fs2-head\n"
                + "site.fs2.ssh.user = koala\nsite.fs2.ssh.key = " + dir.resolve("key") + "\n");
        return TestRunner.direct(clock, TestRunner.jdf(text, Map.of("fs1", 8, "fs2", 8)), grid, scheduler,
                new InstanceSecrets("t0ken"));
    }

    /** Everything running on fs2, last heard from at 10:00:00 with a period of 10 s; the last sample then too. */
    private static RunnerState.Book book() {
        List<RunnerState.Saved> saved = new ArrayList<>();
        saved.add(new RunnerState.Saved("7.0.0", "master", "fs2", "RUNNING", T, "fs2-n1", 41000, 10_000, T, 0, null,
                false));
        saved.add(new RunnerState.Saved("7.1.0", "orchestrator", "fs2", "RUNNING", T, "fs2-n2", 41001, 10_000,
                null, 0, T, false));
        for (String w : List.of("7.2.0", "7.2.1")) {
            saved.add(new RunnerState.Saved(w, "worker", "fs2", "RUNNING", T, "fs2-n3", 41002, 10_000, null, 0, null,
                    false));
        }
        return new RunnerState.Book("RUNNING", true, "fs2-n1:41000", "fs2", T, saved, Map.of(), null, Map.of(),
                List.of());
    }
}
