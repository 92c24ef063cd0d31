package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.api.runner.RunnerMessages.Hello;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.ReleaseRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Static instance wholly on remote site fs2 (master, orchestrator node, two workers), heartbeats
 * every 10 s, launchers on sites of this machine's network that wait 120 s for a silent runner (those
 * on fs2 wait 600 s): when fs2's link is down its entities go silent without being gone. Worked on a fake scheduler, on the test's clock.
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
     * are waited for until 10:10:10 (600 s their launchers on a remote site wait, and one period), and
     * lost after.
     */
    @Test
    void entitiesBehindALinkThatIsDownAreWaitedForAsLongAsTheirLaunchersWait() throws Exception {
        FrameworkRunner runner = runner();
        runner.adopt(7, book(), "test");

        clock.set(T.plusSeconds(30));
        runner.tick();
        assertThat(released).isEmpty();
        assertThat(runner.status().events()).anySatisfy(e -> assertThat(e).endsWith("master 7.0.0 silent for 30 s "
                + "while the link to fs2 is down: waited for until 2026-11-26T10:10:10Z (its launcher waits 600 s for "
                + "this runner)"));

        clock.set(T.plusSeconds(609));
        runner.tick();
        assertThat(released).isEmpty();
        assertThat(scheduler.grows).as("no worker or master deployed in their place meanwhile").isEmpty();

        clock.set(T.plusSeconds(610));
        runner.tick();
        assertThat(released).extracting(r -> r.nodes().get(0)).contains("7.0.0", "7.1.0", "7.2.0", "7.2.1");
        assertThat(released.get(0).reason()).endsWith("no heartbeat for 610 s (two periods: 10 s each); the link to "
                + "fs2 was down longer than its launcher waits");
    }

    /**
     * A cut of five minutes: fs2 down from 10:00:00 to 10:05:00 (a tick every 10 s), and the launchers'
     * beats come through at 10:05:50, 50 s after the link is back (a beat caught in the cut timed out,
     * then a period): nothing lost, nothing deployed again. The launchers were told to wait 600 s.
     */
    @Test
    void aFiveMinuteCutLosesNothing() throws Exception {
        FrameworkRunner runner = runner();
        runner.adopt(7, book(), "test");
        for (int s = 10; s < 300; s += 10) {
            clock.set(T.plusSeconds(s));
            runner.tick();
        }
        scheduler.site("fs2", "UP");
        for (int s = 300; s < 350; s += 10) {
            clock.set(T.plusSeconds(s));
            runner.tick();
        }
        clock.set(T.plusSeconds(350));
        for (String node : List.of("7.0.0", "7.1.0", "7.2.0", "7.2.1")) {
            runner.heartbeat(node, 50.0, true);
        }
        clock.set(T.plusSeconds(355));
        runner.tick();

        assertThat(released).isEmpty();
        assertThat(scheduler.grows).isEmpty();
        assertThat(runner.status().entities()).extracting(e -> e.state()).containsOnly("RUNNING");
        assertThat(runner.status().state()).isEqualTo("RUNNING");
        assertThat(runner.status().events()).anySatisfy(e -> assertThat(e).endsWith("master 7.0.0 heard from again "
                + "after 350 s silent (the link to fs2 is back)"));
    }

    /**
     * fs2 last seen down at 10:03:00, back at 10:03:01; the launchers' beats do not come through within
     * 45 s and a period of it (10:03:55): their entities are lost then, with the link up.
     */
    @Test
    void entitiesNotHeardFromSoonAfterTheLinkIsBackAreLost() throws Exception {
        FrameworkRunner runner = runner();
        runner.adopt(7, book(), "test");
        clock.set(T.plusSeconds(180));
        runner.tick();
        scheduler.site("fs2", "UP");

        clock.set(T.plusSeconds(234));
        runner.tick();
        assertThat(released).isEmpty();

        clock.set(T.plusSeconds(235));
        runner.tick();
        assertThat(released).extracting(r -> r.nodes().get(0)).contains("7.0.0", "7.1.0", "7.2.0", "7.2.1");
        assertThat(released.get(0).reason()).endsWith("no heartbeat for 235 s (two periods: 10 s each)");
    }

    /** The link is back at 10:01:00 and they are heard from again: nothing lost, nothing deployed again. */
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

    /**
     * A site shown up whose entities are silent: the scheduler may not have noticed a cut of its link
     * yet (it does within about 20 s), so they are lost only 45 s after their last beat, at 10:00:45,
     * not after two periods (10:00:20).
     */
    @Test
    void silentEntitiesOnARemoteSiteShownUpAreLostOnceACutWouldHaveBeenNoticed() throws Exception {
        scheduler.site("fs2", "UP");
        FrameworkRunner runner = runner();
        runner.adopt(7, book(), "test");

        clock.set(T.plusSeconds(20));
        runner.tick();
        clock.set(T.plusSeconds(44));
        runner.tick();
        assertThat(released).isEmpty();

        clock.set(T.plusSeconds(45));
        runner.tick();
        assertThat(released).extracting(r -> r.nodes().get(0)).contains("7.0.0", "7.1.0", "7.2.0", "7.2.1");
    }

    /** A launcher on remote fs2 is told to wait 600 s for a silent runner; one on fs1, of this machine's network, 120 s. */
    @Test
    void launchersOnARemoteSiteAreToldToWaitOutACut() throws Exception {
        scheduler.site("fs2", "UP");
        FrameworkRunner runner = runner();
        runner.adopt(7, book(), "test");

        assertThat(runner.hello("7.2.0", new Hello("fs2", "fs2-n3", 41002, 100), true, false).runnerGoneMillis())
                .isEqualTo(600_000);
        assertThat(runner.hello("7.2.1", new Hello("fs1", "fs1-n3", 41002, 100), true, false).runnerGoneMillis())
                .isEqualTo(120_000);
    }

    /**
     * Cut for longer than the launchers wait: the master is lost at 10:10:10 (restart 1 of 3) and its
     * new node is refused while fs2 is down, asked for again every 10 s. Those refusals are no failed
     * restarts: at 10:15:00 the instance still runs; fs2 back, the master is deployed on a new node.
     */
    @Test
    void aMasterRestartRefusedWhileItsSiteIsDownIsNotCounted() throws Exception {
        FrameworkRunner runner = runner();
        runner.adopt(7, book(), "test");
        for (int s = 600; s <= 900; s++) {
            clock.set(T.plusSeconds(s));
            runner.tick();
        }
        assertThat(runner.status().state()).as("%s", runner.status().events()).isEqualTo("RUNNING");
        List<GrowRequest> masters = scheduler.grows.stream().filter(g -> "master".equals(g.role())).toList();
        assertThat(masters).as("asked for every 10 s while fs2 is down").hasSizeGreaterThanOrEqualTo(28);
        assertThat(runner.status().events()).anySatisfy(e -> assertThat(e).endsWith("the master's site fs2 cannot be "
                + "reached now: its new node is asked for again every 10 s until it can, no restart counted meanwhile"));

        scheduler.site("fs2", "UP");
        scheduler.grants(r -> new GrowResult(7, r.nodes(), 1, List.of("7.0.1"), null));
        for (int s = 901; s <= 912; s++) {
            clock.set(T.plusSeconds(s));
            runner.tick();
        }
        assertThat(runner.status().state()).isEqualTo("RUNNING");
        assertThat(runner.status().entities()).anySatisfy(e -> {
            assertThat(e.node()).isEqualTo("7.0.1");
            assertThat(e.role()).isEqualTo("master");
        });
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
