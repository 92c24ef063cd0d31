package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import koala.api.runner.RunnerMessages;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runner started again takes its instance over from the book its predecessor kept, as worked
 * examples against a fake scheduler that grants grows by request id, as the real one does: the
 * grow in flight at the kill is granted once, or refused, never twice.
 */
class AdoptionTest {
    private static final Instant T = Instant.parse("2026-11-25T10:00:00Z");
    private static final String JDF = "+( &(jobType = framework)(name = adopt)(role = master)(count = 1)"
            + "(executable = /bin/sleep)(arguments = 100)(provisioning = ondemand)(fMax = 6)(samplePeriod = 10) )"
            + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100) )"
            + " ( &(role = worker)(count = 0)(executable = /bin/sleep)(arguments = 100) )";

    @TempDir
    Path dir;

    private final FakeScheduler scheduler = new FakeScheduler();
    /** The fake scheduler's grants by request id, and every grow it was asked for. */
    private final Map<String, GrowResult> granted = new HashMap<>();
    private final List<GrowRequest> asked = scheduler.grows;
    private boolean ended;
    private int next = 3;
    private final TestRunner.Clock clock = new TestRunner.Clock(T.plusSeconds(100));

    @BeforeEach
    void grants() {
        scheduler.grants(this::grow);
    }

    private synchronized GrowResult grow(GrowRequest request) {
        if (ended) {
            throw FakeScheduler.refused(409, "allocation 7 is CANCELLED");
        }
        return granted.computeIfAbsent(request.requestId(), id -> {
            List<String> nodes = new ArrayList<>();
            for (int i = 0; i < request.nodes(); i++) {
                nodes.add("7." + next + "." + i);
            }
            next++;
            return new GrowResult(7, request.nodes(), request.nodes(), nodes, null);
        });
    }

    @Test
    void aGrowTheSchedulerGrantedBeforeTheKillComesBackAsItsNodesStartingAndNoNodeMore() throws Exception {
        granted.put("g-1", new GrowResult(7, 2, 2, List.of("7.2.0", "7.2.1"), null));
        FrameworkRunner runner = runner();

        runner.adopt(7, book(new RunnerState.InFlight("g-1", "worker", 2, "grow request: 2", T.plusSeconds(90), 0,
                "rpc-9", 2)), "a test");

        assertThat(asked).extracting(GrowRequest::requestId).containsExactly("g-1");
        assertThat(granted).hasSize(1);
        assertThat(runner.status().entities()).extracting(RunnerMessages.Entity::node, RunnerMessages.Entity::state)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("7.0.0", "RUNNING"),
                        org.assertj.core.groups.Tuple.tuple("7.1.0", "RUNNING"),
                        org.assertj.core.groups.Tuple.tuple("7.2.0", "STARTING"),
                        org.assertj.core.groups.Tuple.tuple("7.2.1", "STARTING"));
        // the framework repeats the grow its broken answer was for: the same nodes, the scheduler not asked
        RunnerMessages.GrowResult again = runner.grow(2, "rpc-9");
        assertThat(again.nodes()).containsExactly("7.2.0", "7.2.1");
        assertThat(asked).hasSize(1);
        // its request id used again for another grow is refused, naming the grow it names
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> runner.grow(3, "rpc-9"))
                .isInstanceOfSatisfying(koala.common.failure.Conflict.class, e -> {
                    assertThat(e.getMessage()).isEqualTo("request id 'rpc-9' was used for a grow of 2 workers "
                            + "(granted 2), not 3: a request id names one grow, and a retry repeats it unchanged; ask "
                            + "for a different grow under a new id");
                    assertThat(e.field()).isEqualTo("requestId");
                });
        assertThat(asked).hasSize(1);
        assertThat(runner.status().events()).last().asString()
                .contains("grow 2 workers [7.2.0, 7.2.1]: in flight when the runner before this one died");
    }

    @Test
    void aGrowThatNeverReachedTheSchedulerIsGrantedNowOnce() throws Exception {
        FrameworkRunner runner = runner();
        runner.adopt(7, book(new RunnerState.InFlight("g-2", "worker", 1, "grow request: 1", T.plusSeconds(90), 0,
                null, 1)), "a test");
        assertThat(granted).containsOnlyKeys("g-2");
        assertThat(runner.status().role("worker")).extracting(RunnerMessages.Entity::node).containsExactly("7.3.0");
    }

    @Test
    void aGrowTheSchedulerRefusesIsRefusedWithItsReasonAndNothingIsAdded() throws Exception {
        ended = true;
        FrameworkRunner runner = runner();
        runner.adopt(7, book(new RunnerState.InFlight("g-3", "worker", 1, "grow request: 1", T.plusSeconds(90), 0,
                "rpc-4", 1)), "a test");
        assertThat(runner.status().role("worker")).isEmpty();
        assertThat(runner.status().events()).anySatisfy(e -> assertThat(e).contains("is refused")
                .contains("allocation 7 is CANCELLED"));
    }

    @Test
    void theBookTheNewRunnerWritesIsTheOneItTookOverPlusItsOwnLine() throws Exception {
        FrameworkRunner runner = runner();
        List<RunnerState.Book> written = new ArrayList<>();
        RunnerState.Book kept = book(null);
        runner.adopt(7, kept, "pid 2 in the place of pid 1");
        runner.journal(written::add);

        RunnerState.Book now = written.get(written.size() - 1);
        assertThat(now.entities()).isEqualTo(kept.entities());
        assertThat(now.growMillis()).isEqualTo(kept.growMillis());
        assertThat(now.master()).isEqualTo("fs1-n1:41000");
        assertThat(now.events()).hasSize(kept.events().size() + 1);
        assertThat(now.events().get(now.events().size() - 1))
                .endsWith("runner started again (pid 2 in the place of pid 1): took over 2 nodes [7.0.0, 7.1.0]");
        assertThat(runner.state()).isEqualTo(FrameworkRunner.State.RUNNING);
    }

    /**
     * The leader started a runner in this one's place (on another host, at generation 2): this one's next
     * call, its look at the allocation on the tick, is refused. It stops there: its end is awaited no more,
     * it closed nothing, failed nothing and gave no node back (they are the new runner's), and it asks
     * nothing more.
     */
    @Test
    void aRunnerReplacedByAnotherStopsOnTheRefusalOfItsCallEndingNothingAndGivingNothingBack() throws Exception {
        FrameworkRunner runner = runner();
        runner.adopt(7, book(null), "a test");
        scheduler.hold(FakeScheduler.node("7.0.0", "master", "fs1"), FakeScheduler.node("7.1.0", "orchestrator", "fs1"));
        String why = "instance 7's runner was replaced by the one started on koala-b at generation 2 (this one is of "
                + "generation 1): it stops, and leaves the instance and its nodes to that one";
        scheduler.replacedBy(why);

        clock.advance(java.time.Duration.ofSeconds(10));
        runner.tick();

        assertThat(runner.replacedBy()).contains(why);
        assertThat(runner.awaitEnd(java.time.Duration.ZERO)).as("its end no longer awaited").isTrue();
        assertThat(scheduler.state()).isEqualTo("RUNNING");
        assertThat(scheduler.released).isEmpty();
        assertThat(runner.state()).as("the instance's state as it last knew it").isEqualTo(FrameworkRunner.State.RUNNING);
    }

    /**
     * A runner started on another host serves at another address: the launchers of its master and
     * orchestrator (last heard from by the book at 10:01:40, when it adopts them; 10 s periods) beat to the
     * old runner until it is silent to them, then ask the scheduler where it serves. Adopted at the same
     * address they would be lost at 10:02:00 (two periods); here each is awaited for the 120 s its launcher
     * waits for a silent runner: the master, heard from at 10:02:35, is kept; the orchestrator, never heard
     * from, is lost at 10:03:40 and not before.
     */
    @Test
    void entitiesAdoptedAtANewAddressAreAwaitedAsLongAsTheirLaunchersWaitNotTwoPeriods() throws Exception {
        FrameworkRunner runner = runner();
        scheduler.hold(FakeScheduler.node("7.0.0", "master", "fs1"), FakeScheduler.node("7.1.0", "orchestrator", "fs1"));
        runner.adopt(7, book(null), "a test", true);
        assertThat(runner.status().events()).last().asString().endsWith("serving at another address than the runner "
                + "before this one: its running entities' launchers find it once that runner is silent to them, each "
                + "awaited until then or for as long as its launcher waits for a silent runner ({7.0.0=2026-11-25T10:"
                + "03:40Z, 7.1.0=2026-11-25T10:03:40Z})");

        for (int s = 101; s <= 219; s++) {
            clock.set(T.plusSeconds(s));
            if (s == 155 || s == 165 || s == 175 || s == 185 || s == 195 || s == 205 || s == 215) {
                runner.heartbeat("7.0.0", 1.0, true);
            }
            runner.tick();
        }
        assertThat(scheduler.released).as("nothing lost while awaited").isEmpty();

        clock.set(T.plusSeconds(220));
        runner.tick();
        assertThat(scheduler.released).extracting(r -> r.nodes()).containsExactly(List.of("7.1.0"));
        assertThat(scheduler.released.get(0).reason()).isEqualTo("orchestrator lost: no heartbeat for 120 s (two "
                + "periods: 10 s each)");
    }

    /** The same book adopted at the same address: its launchers reach the runner at once, and two periods do. */
    @Test
    void entitiesAdoptedAtTheSameAddressAreLostAfterTwoPeriods() throws Exception {
        FrameworkRunner runner = runner();
        scheduler.hold(FakeScheduler.node("7.0.0", "master", "fs1"), FakeScheduler.node("7.1.0", "orchestrator", "fs1"));
        runner.adopt(7, book(null), "a test");
        clock.set(T.plusSeconds(119));
        runner.heartbeat("7.0.0", 1.0, true);
        runner.tick();
        assertThat(scheduler.released).isEmpty();
        clock.set(T.plusSeconds(120));
        runner.tick();
        assertThat(scheduler.released).extracting(r -> r.nodes()).containsExactly(List.of("7.1.0"));
    }

    private FrameworkRunner runner() throws IOException {
        Path grid = TestRunner.grid(dir, "grid.sites = fs1\nsite.fs1.sge.cell = fs1\n");
        return TestRunner.direct(clock, TestRunner.jdf(JDF, Map.of("fs1", 8)), grid, scheduler,
                new InstanceSecrets("t0ken"));
    }

    private static RunnerState.Book book(RunnerState.InFlight inFlight) {
        return new RunnerState.Book("RUNNING", true, "fs1-n1:41000", "", T.plusSeconds(95), List.of(
                new RunnerState.Saved("7.0.0", "master", "fs1", "RUNNING", T, "fs1-n1", 41000, 10_000, T, 0, null,
                        false),
                new RunnerState.Saved("7.1.0", "orchestrator", "fs1", "RUNNING", T.plusSeconds(5), "fs1-n2", 41001,
                        10_000, T.plusSeconds(6), 0, T.plusSeconds(5), false)),
                Map.of("fs1", List.of(1500L)), inFlight, Map.of(), List.of("10:00:00 registered instance 7 (ondemand)"));
    }
}
