package koala.fluent.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import koala.common.failure.InvalidField;
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.AppReply;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.Deploy;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The master's job flow against a fake runner and fake DeviceManagers, on a clock the test moves. */
class FrameworkManagerTest {
    private static final Instant T = Instant.parse("2026-11-21T10:00:00Z");
    private static final AppRequest RL = new AppRequest("rl", 20_000L, 40.0, 5_000L, null, null);

    private Instant now = T;
    private final InstantSource clock = () -> now;
    private final List<String> deployed = new ArrayList<>();
    private final Devices devices = new Devices() {
        @Override
        public void deploy(String url, Deploy d) {
            deployed.add(d.app() + " " + d.role() + (d.role().equals("mapper") ? d.index() : "") + " @" + url);
        }

        @Override
        public void stop(String url, String app) {
            deployed.add("stop " + app + " @" + url);
        }
    };

    @TempDir
    Path dir;

    private FrameworkManager master(FakeRunner runner, int slots) {
        MetricsLog metrics = new MetricsLog(Optional.empty());
        MasterEvents events = new MasterEvents(clock, metrics);
        return new FrameworkManager(clock, runner, devices, events,
                new Provisioning(runner.status(), events, metrics, slots), Duration.ofSeconds(60));
    }

    private FrameworkManager master(FakeRunner runner, int slots, Journal journal) {
        MetricsLog metrics = new MetricsLog(Optional.empty());
        MasterEvents events = new MasterEvents(clock, metrics);
        return new FrameworkManager(clock, runner, devices, events,
                new Provisioning(runner.status(), events, metrics, slots), Duration.ofSeconds(60), journal);
    }

    private void join(FrameworkManager master, String node) {
        master.device(new DeviceHello(node, "http://" + node, null));
    }

    @Test
    void onDemandGrowsExactlyWhatAJobLacksPlacesItOnceTheWorkersJoinAndReleasesThemAfterTIdle() throws Exception {
        FakeRunner runner = new FakeRunner("ondemand", 20, Duration.ofSeconds(10));
        FrameworkManager master = master(runner, 4);

        CompletableFuture<JobReply> reply = master.submit(new JobRequest("batch", List.of(RL, RL))).reply();
        assertThat(runner.calls).containsExactly("grow 2");
        assertThat(reply).as("the job waits for its workers").isNotDone();
        assertThat(master.job("j1").apps()).isEmpty();
        assertThat(master.job("j1").grow()).isEqualTo("waiting for its grow: asked to grow 2, granted 2");

        now = T.plusSeconds(2);
        join(master, "w1");
        assertThat(reply).isNotDone();
        join(master, "w2");
        JobReply placed = reply.get();
        assertThat(placed.apps()).extracting(AppReply::id, AppReply::verdict, AppReply::workers).containsExactly(
                org.assertj.core.groups.Tuple.tuple("j1.rl1", "PLACED", List.of("w1")),
                org.assertj.core.groups.Tuple.tuple("j1.rl2", "PLACED", List.of("w2")));
        assertThat(placed.grow()).isEqualTo("asked to grow 2, granted 2; the new workers joined");
        assertThat(deployed).containsExactly("j1.rl1 rl @http://w1", "j1.rl2 rl @http://w2");
        assertThat(runner.calls).contains("orchestrator", "w1 busy", "w2 busy");

        now = T.plusSeconds(22);
        master.done("j1.rl1", new AppDone("w1", Map.of("frames", 100), null));
        assertThat(master.job("j1").apps().get(0).state()).isEqualTo("FINISHED");
        assertThat(runner.calls).contains("orchestrator done o1", "w1 idle since " + T.plusSeconds(22));

        now = T.plusSeconds(31);
        master.tick();
        assertThat(runner.calls).noneMatch(c -> c.startsWith("shrink"));
        now = T.plusSeconds(32);
        master.tick();
        assertThat(runner.calls).contains("shrink [w1]");
        assertThat(master.status().workers()).extracting(w -> w.node()).containsExactly("w2");
    }

    @Test
    void underPoolTheMasterAsksForEveryIdleWorkerOnceASampleAndThePolicyPicks() throws Exception {
        // the runner's t_idle is 1800 s (60 × O_grow), its samples every 2 s: the master asks anyway
        FakeRunner runner = new FakeRunner("pool", 20, Duration.ofSeconds(1800));
        FrameworkManager master = master(runner, 4);
        CompletableFuture<JobReply> reply = master.submit(new JobRequest("batch", List.of(RL, RL))).reply();
        join(master, "w1");
        join(master, "w2");
        reply.get();

        now = T.plusSeconds(22);
        master.done("j1.rl1", new AppDone("w1", Map.of("frames", 100), null));
        master.tick();
        assertThat(runner.calls).contains("shrink [w1]");
        now = T.plusSeconds(23);
        master.done("j1.rl2", new AppDone("w2", Map.of("frames", 100), null));
        master.tick();
        assertThat(runner.calls).as("one ask a sample period").doesNotContain("shrink [w2]");
        now = T.plusSeconds(24);
        master.tick();
        assertThat(runner.calls).contains("shrink [w2]");
    }

    /**
     * KOALA ended idle w2 for the arbitration before the master noticed, and asks one more back; w1 and w3
     * are busy. The master offers w2, its only idle worker; the runner refuses it as taken already. At the
     * next ticks the master does not offer w2 again for that ask (it has none idle to offer); when w1 comes
     * idle, w1 goes.
     */
    @Test
    void aWorkerTheRunnerRefusedOnAGiveBackIsNotOfferedAgainForThatAsk() throws Exception {
        FakeRunner runner = new FakeRunner("ondemand", 20, Duration.ofSeconds(600));
        FrameworkManager master = threeRlsOnThreeWorkers(runner);
        now = T.plusSeconds(10);
        master.done("j1.rl2", new AppDone("w2", Map.of("frames", 100), null));
        runner.taken.add("w2");

        now = T.plusSeconds(15);
        runner.ask = new koala.api.scheduler.ShareOrders.GiveBack(1, T.plusSeconds(30), "give back 1 worker for 9");
        master.tick();
        now = T.plusSeconds(16);
        master.tick();
        now = T.plusSeconds(17);
        master.tick();
        assertThat(runner.calls).filteredOn(c -> c.startsWith("give back")).containsExactly("give back [w2]");

        now = T.plusSeconds(18);
        master.done("j1.rl1", new AppDone("w1", Map.of("frames", 100), null));
        master.tick();
        assertThat(runner.calls).filteredOn(c -> c.startsWith("give back")).containsExactly("give back [w2]",
                "give back [w1]");
        assertThat(runner.ask).isNull();
    }

    /** A master whose job of three RLs runs one on each of w1, w2 and w3 (t_idle long: it would keep them all). */
    private FrameworkManager threeRlsOnThreeWorkers(FakeRunner runner) throws Exception {
        FrameworkManager master = master(runner, 4);
        CompletableFuture<JobReply> reply = master.submit(new JobRequest("batch", List.of(RL, RL, RL))).reply();
        join(master, "w1");
        join(master, "w2");
        join(master, "w3");
        reply.get();
        return master;
    }

    @Test
    void askedByTheGridToGiveBackTwoTheMasterGivesItsIdleWorkersLongestIdleFirstAsTheyComeIdle() throws Exception {
        // three workers, t_idle long: the master would keep them all
        FakeRunner runner = new FakeRunner("ondemand", 20, Duration.ofSeconds(600));
        FrameworkManager master = threeRlsOnThreeWorkers(runner);
        now = T.plusSeconds(10);
        master.done("j1.rl2", new AppDone("w2", Map.of("frames", 100), null));
        now = T.plusSeconds(12);
        master.done("j1.rl1", new AppDone("w1", Map.of("frames", 100), null));

        // the grid asks for 3 by 30 s: w2 (idle since 10 s) and w1 (since 12 s) go, w3 still runs
        now = T.plusSeconds(15);
        runner.ask = new koala.api.scheduler.ShareOrders.GiveBack(3, T.plusSeconds(30), "give back 3 workers for 9");
        master.tick();
        assertThat(runner.calls).contains("give back [w2, w1]");
        assertThat(master.status().workers()).extracting(w -> w.node()).containsExactly("w3");
        assertThat(master.status().events()).anySatisfy(e -> assertThat(e.text())
                .isEqualTo("gave back [w2, w1] at the grid's request (give back 3 workers for 9)"));

        // w3's application ends at 20 s: it goes at the next tick, and the ask is met
        now = T.plusSeconds(20);
        master.done("j1.rl3", new AppDone("w3", Map.of("frames", 100), null));
        master.tick();
        assertThat(runner.calls).contains("give back [w3]");
        assertThat(runner.ask).isNull();
        assertThat(master.status().workers()).isEmpty();
    }

    @Test
    void whatTheRunnerCannotGrantPastFMaxIsRejected() throws Exception {
        FakeRunner runner = new FakeRunner("ondemand", 1, Duration.ofSeconds(10));
        FrameworkManager master = master(runner, 4);
        CompletableFuture<JobReply> reply = master.submit(new JobRequest(null, List.of(RL, RL, RL))).reply();
        join(master, "w1");
        JobReply placed = reply.get();
        assertThat(placed.count("PLACED")).isEqualTo(1);
        assertThat(placed.count("REJECTED")).isEqualTo(2);
        assertThat(placed.grow()).isEqualTo("asked to grow 3, granted 1 (F_max 1); the new workers joined");
        assertThat(placed.apps().get(2).reason()).contains("j1.rl3 rejected");

        // at the next sample the master reports its figure: 2 of 3 rejected, 1 / (1 - 2/3) = 3; and the reject rate, 2/3
        now = T.plusSeconds(5);
        master.tick();
        assertThat(runner.figure).isCloseTo(3.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(runner.rejectRate).isCloseTo(2.0 / 3, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void aWordCountQueuesWithoutRoomStartsCounterMappersReaderInThatOrderAndIsCheckedAgainstTheFile()
            throws Exception {
        Path text = Files.writeString(dir.resolve("text.txt"), "the cat and the hat\nthe end\n");
        AppRequest swc = new AppRequest("swc", 1000L, null, null, 1, text.toString());
        FakeRunner runner = new FakeRunner("static", 20, Duration.ofSeconds(10));
        FrameworkManager master = master(runner, 4);
        join(master, "w1");

        JobReply first = master.submit(new JobRequest("wc", List.of(swc, swc))).reply().get();
        assertThat(first.apps()).extracting(AppReply::verdict).containsExactly("PLACED", "QUEUED");
        assertThat(runner.calls).as("static: no grow asked").noneMatch(c -> c.startsWith("grow"));
        assertThat(deployed).containsExactly("j1.swc1 counter @http://w1", "j1.swc1 mapper0 @http://w1",
                "j1.swc1 mapper1 @http://w1", "j1.swc1 reader @http://w1");

        master.done("j1.swc1", new AppDone("w1", Map.of("words", 7, "distinct", 5), null));
        assertThat(master.job("j1").apps()).extracting(AppReply::state).containsExactly("FINISHED", "RUNNING");
        assertThat(master.job("j1").apps().get(0).result()).containsEntry("check", "ok")
                .containsEntry("expectedWords", 7L);

        master.done("j1.swc2", new AppDone("w1", Map.of("words", 6, "distinct", 5), null));
        AppReply wrong = master.job("j1").apps().get(1);
        assertThat(wrong.state()).isEqualTo("FAILED");
        assertThat(wrong.reason()).isEqualTo("MISMATCH: counted 6 words, 5 distinct, the file has 7 words, 5 distinct");
    }

    @Test
    void aBadJobIsRefusedNamingTheFieldAndChangesNothing() throws IOException {
        FakeRunner runner = new FakeRunner("ondemand", 20, Duration.ofSeconds(10));
        FrameworkManager master = master(runner, 4);
        assertThatThrownBy(() -> master.submit(new JobRequest("bad", List.of(RL, new AppRequest("video", null,
                null, null, null, null))))).isInstanceOfSatisfying(InvalidField.class, e -> {
                    assertThat(e.field()).isEqualTo("apps[1].kind");
                    assertThat(e.reason()).isEqualTo("'video': rl or swc");
                });
        assertThatThrownBy(() -> master.submit(new JobRequest("bad", List.of(new AppRequest("swc", null, null, null,
                2, dir.resolve("missing.txt").toString()))))).isInstanceOfSatisfying(InvalidField.class,
                e -> assertThat(e.field()).isEqualTo("apps[0].file"));
        assertThat(runner.calls).isEmpty();
        assertThat(master.status().apps()).isEmpty();
        master.submit(new JobRequest("good", List.of(RL)));
        assertThat(runner.calls).as("the refused jobs took no id").containsExactly("grow 1");
        assertThat(master.status().events()).anySatisfy(e -> assertThat(e.text()).contains("job j1 (good) arrived"));
    }

    @Test
    void idleWorkersAJobWaitsOnAreNotReleasedWhileItsGrowIsUnderWay() throws Exception {
        FakeRunner runner = new FakeRunner("ondemand", 20, Duration.ofSeconds(10));
        FrameworkManager master = master(runner, 4);
        master.submit(new JobRequest("one", List.of(RL)));
        join(master, "w1");
        now = T.plusSeconds(20);
        master.done("j1.rl1", new AppDone("w1", Map.of(), null));

        now = T.plusSeconds(25);
        CompletableFuture<JobReply> two = master.submit(new JobRequest("two", List.of(RL, RL))).reply();
        assertThat(runner.calls).as("w1 is idle: the job lacks 1").contains("grow 1");
        now = T.plusSeconds(31);
        master.tick();
        assertThat(runner.calls).as("w1 idle 11 s >= t_idle, but j2 counts on it").noneMatch(c -> c.startsWith("shrink"));
        join(master, "w2");
        assertThat(two.get().count("PLACED")).isEqualTo(2);
    }

    /**
     * The master dies with an RL and a word count running and two word counts queued; a new one on
     * the same journal takes over: nothing is deployed again, the DeviceManagers' reports reach it
     * (one that finished while it was away too), the queue starts in order, and a job that waited
     * for a client is still there.
     */
    @Test
    void aMasterStartedAgainOnItsJournalGoesOnWhereItsPredecessorStopped() throws Exception {
        Path text = Files.writeString(dir.resolve("text.txt"), "the cat and the hat\nthe end\n");
        AppRequest swc = new AppRequest("swc", 1000L, null, null, 1, text.toString());
        FakeRunner runner = new FakeRunner("static", 20, Duration.ofSeconds(10));
        Journal journal = Journal.memory();
        FrameworkManager first = master(runner, 4, journal);
        join(first, "w1");
        join(first, "w2");
        JobReply job = first.submit(new JobRequest("mix", List.of(RL, swc, swc, swc))).reply().get();
        assertThat(job.apps()).extracting(AppReply::verdict).containsExactly("PLACED", "PLACED", "QUEUED", "QUEUED");
        assertThat(deployed).hasSize(5);
        deployed.clear();
        runner.calls.clear();

        // the first master is gone (nothing of it is called again); a second one reads the journal
        now = T.plusSeconds(5);
        FrameworkManager second = master(runner, 4, journal);
        assertThat(journal.read()).as("compacted at start").hasSize(1).first().isInstanceOf(JournalEntry.Snapshot.class);
        assertThat(second.job("j1").apps()).extracting(AppReply::state)
                .containsExactly("RUNNING", "RUNNING", "QUEUED", "QUEUED");
        assertThat(second.status().workers()).extracting(w -> w.node() + " " + w.running())
                .containsExactly("w1 [j1.rl1]", "w2 [j1.swc1]");
        assertThat(deployed).as("nothing started again").isEmpty();
        assertThat(second.status().events()).anySatisfy(e -> assertThat(e.text()).contains("recovered from the journal")
                .contains("2 workers, 2 applications running, 2 queued"));

        // w1 reports in with its RL; the word count finished while no master was there: w2 still has its report
        second.device(new DeviceHello("w1", "http://w1", 4, List.of("j1.rl1")));
        second.device(new DeviceHello("w2", "http://w2", 4, List.of("j1.swc1")));
        second.done("j1.swc1", new AppDone("w2", Map.of("words", 7, "distinct", 5), null));
        assertThat(deployed).as("the queue's head starts where the first master would have started it")
                .containsExactly("j1.swc2 counter @http://w2", "j1.swc2 mapper0 @http://w2",
                        "j1.swc2 mapper1 @http://w2", "j1.swc2 reader @http://w2");
        second.done("j1.swc2", new AppDone("w2", Map.of("words", 7, "distinct", 5), null));
        second.done("j1.rl1", new AppDone("w1", Map.of("frames", 40), null));
        second.done("j1.swc3", new AppDone("w2", Map.of("words", 7, "distinct", 5), null));
        assertThat(second.job("j1").apps()).extracting(AppReply::state).containsOnly("FINISHED");
        assertThat(second.status().counters()).containsEntry("startedFromQueue", 2).containsEntry("finished", 4);
        assertThatThrownBy(() -> second.done("j1.swc1", new AppDone("w2", Map.of(), null)))
                .as("a report the master already took is not taken twice")
                .isInstanceOf(koala.common.failure.Conflict.class);

        // a third master from the compacted journal: the same, and the next job is j2
        FrameworkManager third = master(runner, 4, journal);
        assertThat(third.job("j1").apps()).extracting(AppReply::state).containsOnly("FINISHED");
        assertThat(third.submit(new JobRequest("next", List.of(RL))).job()).isEqualTo("j2");
    }

    @Test
    void anApplicationNoneOfItsWorkersRunsAfterTheRestartFailsAndALeftWorkerStaysOut() throws Exception {
        FakeRunner runner = new FakeRunner("static", 20, Duration.ofSeconds(10));
        runner.workers.addAll(List.of("w1", "w2"));
        Journal journal = Journal.memory();
        FrameworkManager first = master(runner, 4, journal);
        join(first, "w1");
        join(first, "w2");
        first.submit(new JobRequest("two", List.of(RL, RL))).reply().get();

        FrameworkManager second = master(runner, 4, journal);
        second.device(new DeviceHello("w1", "http://w1", 4, List.of()));
        second.device(new DeviceHello("w2", "http://w2", 4, List.of("j1.rl2")));
        assertThat(second.job("j1").apps()).extracting(AppReply::state).containsExactly("FAILED", "RUNNING");
        assertThat(second.job("j1").apps().get(0).reason())
                .isEqualTo("none of its workers runs it any more after the master's restart");

        now = T.plusSeconds(200);
        second.tick();
        runner.workers.remove("w1"); // the runner no longer has it: lost, and gone for good
        now = T.plusSeconds(203);
        second.tick();
        assertThat(second.status().workers()).extracting(w -> w.node()).containsExactly("w2");
        FrameworkManager third = master(runner, 4, journal);
        assertThatThrownBy(() -> third.device(new DeviceHello("w1", "http://w1", 4, List.of())))
                .isInstanceOf(koala.common.failure.Gone.class);
    }

    /** A lost worker leaves before what ran on it fails: the word count waiting never starts on it. */
    @Test
    void aWorkerLostUnderAWordCountFailsItAndTheQueuedOneWaitsForAWorkerThatIsThere() throws Exception {
        Path text = Files.writeString(dir.resolve("text.txt"), "the cat and the hat\nthe end\n");
        AppRequest swc = new AppRequest("swc", 1000L, null, null, 1, text.toString());
        FakeRunner runner = new FakeRunner("static", 20, Duration.ofSeconds(10));
        runner.workers.add("w1");
        FrameworkManager master = master(runner, 4);
        join(master, "w1");
        assertThat(master.submit(new JobRequest("wc", List.of(swc, swc))).reply().get().apps())
                .extracting(AppReply::verdict).containsExactly("PLACED", "QUEUED");
        deployed.clear();

        now = T.plusSeconds(200);
        master.tick();
        runner.workers.remove("w1");
        now = T.plusSeconds(203);
        master.tick();
        assertThat(master.job("j1").apps()).extracting(AppReply::state).containsExactly("FAILED", "QUEUED");
        assertThat(master.job("j1").apps().get(0).reason()).isEqualTo("worker w1 was lost");
        assertThat(master.status().workers()).isEmpty();
        assertThat(deployed).as("nothing started on the worker gone").isEmpty();

        join(master, "w2");
        assertThat(master.job("j1").apps()).extracting(AppReply::state).containsExactly("FAILED", "RUNNING");
        assertThat(deployed).allMatch(d -> d.startsWith("j1.swc2 ") && d.endsWith("@http://w2"));
    }
}
