package koala.fluent.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.IntStream;
import koala.fluent.device.DeviceManager;
import koala.fluent.device.MasterLink;
import koala.fluent.device.ReaderRoots;
import koala.fluent.wire.FluentMessages.AppReply;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.fluent.wire.FluentMessages.Takeover;
import koala.fluent.wire.MasterEventKind;
import koala.fluent.wire.Secret;
import koala.http.JsonHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The master moves suspended word counts between real DeviceManagers on loopback, and yields a
 * worker running only word counts when the grid takes one back; the master checks each word count's
 * result against its own count of the file, so "check ok" means the counts are exactly the file's.
 * The file: 1000 lines "Line i of the text, the end? (i mod 7)", 8 words each: 8000 words, 13
 * distinct. An SWC with n = 1 has 4 components (counter, 2 mappers, reader) and streams it in 5
 * batches of 200 lines over 5 s; the master runs with --suspend 3 (so moves are on), 4 slots a worker
 * unless a DeviceManager says otherwise, under Static (nothing is grown), t_idle 600 s.
 */
class MoveSuspendedTest {
    private static final Secret TOKEN = new Secret("instance-token");
    private static final Secret KEY = new Secret("device-token");
    private static final AppRequest RL = new AppRequest("rl", 60_000L, 1.0, 10_000L, null, null);

    private final List<JsonHttpServer> devices = new ArrayList<>();
    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(4);
    private final FakeRunner runner = new FakeRunner("static", 20, Duration.ofSeconds(600));
    private final Journal journal = Journal.memory();
    private JsonHttpServer api;
    private URI masterUri;
    private AppRequest swc;
    private AppRequest shortSwc;

    @TempDir
    Path dir;

    @BeforeEach
    void text() throws IOException {
        Path text = koala.fluent.device.CountedText.write(dir);
        swc = new AppRequest("swc", 5_000L, null, null, 1, text.toString());
        shortSwc = new AppRequest("swc", 5_000L, null, null, 0, text.toString());
    }

    @AfterEach
    void stop() {
        devices.forEach(JsonHttpServer::close);
        if (api != null) {
            api.close();
        }
        executor.shutdownNow();
    }

    /**
     * j1.swc1 runs on w1 (4 of 4 slots); the RL j2.rl1 finds no idle worker and suspends it; w2 joins with
     * 4 free slots while the RL holds w1: the word count moves whole to w2, resumes there and counts right.
     */
    @Test
    void aSuspendedWordCountMovesToANewWorkerAndCountsExactlyTheFilesWords() throws Exception {
        FrameworkManager master = master(Devices.http(KEY), 0);
        device(master, "w1", null);
        assertThat(master.submit(new JobRequest("wc", List.of(swc))).reply().get().apps().get(0).workers())
                .containsExactly("w1");
        assertThat(master.submit(new JobRequest("video", List.of(RL))).reply().get().apps().get(0).reason())
                .isEqualTo("j2.rl1 placed: worker w1, suspending j1.swc1 (4 slots, suspension 1 of 3)");
        assertThat(master.status().workers().get(0).suspended()).containsExactly("j1.swc1");

        device(master, "w2", null);
        assertThat(master.status().events()).anySatisfy(e -> assertThat(e.text())
                .isEqualTo("j1.swc1: moved 4 components: counter w1 → w2, mapper 0 w1 → w2, mapper 1 w1 → w2, "
                        + "reader w1 → w2"));
        assertThat(master.job("j1").apps().get(0).workers()).containsExactly("w2");
        assertThat(journal.read()).anySatisfy(e -> assertThat(e).isInstanceOf(JournalEntry.Moved.class));

        AppReply done = finished(master, "j1");
        assertThat(done.result()).containsEntry("check", "ok").containsEntry("words", 8000);
        assertThat(master.status().counters()).containsEntry("moved", 4).containsEntry("movedApps", 1)
                .containsEntry("resumed", 1).containsEntry("yielded", 0);
    }

    /**
     * w1 (4 slots) runs only j1.swc1 (4 components); w2 (8 slots) runs only j2.swc1 (3 components): no
     * worker is idle. The grid asks for 1 back. w2 is tried first (3 slots in use) but its word count
     * finds no 3 free slots elsewhere (w1 is full); w1's 4 components fit in w2's 5 free: w1 yields, its
     * word count moves to w2 and counts right, and w1 is given back. Nothing is lost.
     */
    @Test
    void askedToGiveBackOneWithNoneIdleAWorkerRunningOnlyAWordCountYieldsIt() throws Exception {
        FrameworkManager master = master(Devices.http(KEY), 0);
        device(master, "w1", 4);
        master.submit(new JobRequest("wc", List.of(swc))).reply().get();
        device(master, "w2", 8);
        assertThat(master.submit(new JobRequest("wc", List.of(shortSwc))).reply().get().apps().get(0).workers())
                .containsExactly("w2");

        runner.ask = new koala.api.scheduler.ShareOrders.GiveBack(1, Instant.now().plusSeconds(30), "give back 1 for 8");
        master.tick();

        assertThat(runner.calls).contains("give back [w1]");
        assertThat(master.status().workers()).extracting(w -> w.node() + " " + w.running())
                .containsExactly("w2 [j2.swc1, j1.swc1]");
        assertThat(master.status().events()).extracting(e -> e.kind() + " " + e.text()).contains(
                "YIELDED worker w1 yields [j1.swc1] to be given back",
                "MOVED j1.swc1: moved 4 components: counter w1 → w2, mapper 0 w1 → w2, mapper 1 w1 → w2, reader w1 → w2",
                "RELEASED gave back [w1] at the grid's request (give back 1 for 8)");
        assertThat(finished(master, "j1").result()).containsEntry("check", "ok").containsEntry("words", 8000);
        assertThat(finished(master, "j2").result()).containsEntry("check", "ok");
        assertThat(master.status().counters()).containsEntry("yielded", 1).containsEntry("moved", 4)
                .containsEntry("lostWithWorker", 0).containsEntry("failed", 0);
    }

    /**
     * The master is killed (kill -9) in the middle of a move: w1 has handed j1.swc1 over, w2 has not
     * taken it. A new master on the same journal and port finds the move unfinished, waits until w1 and
     * w2 have reported to it, does the move again (w1 hands over the same state), resumes it on w2, and
     * the word count counts right.
     */
    @Test
    void aMoveCutShortByTheMastersDeathIsFinishedByTheNextMaster() throws Exception {
        Devices dying = new DyingDevices(Devices.http(KEY));
        FrameworkManager first = master(dying, 0);
        device(first, "w1", null);
        first.submit(new JobRequest("wc", List.of(swc))).reply().get();
        first.submit(new JobRequest("video", List.of(RL))).reply().get();
        try {
            device(first, "w2", null);
        } catch (Killed expected) {
            // the first master is gone here: nothing of it runs any more
        }
        assertThat(journal.read()).noneMatch(e -> e instanceof JournalEntry.Moved);
        int port = api.port();
        api.close();

        FrameworkManager second = master(Devices.http(KEY), port);
        assertThat(second.job("j1").apps().get(0).workers()).as("where the journal says it goes").containsExactly("w2");
        second.tick();
        assertThat(second.status().events()).noneMatch(e -> e.kind() == MasterEventKind.MOVED);
        second.device(new DeviceHello("w1", url("w1"), null, List.of("j1.swc1", "j2.rl1")));
        second.device(new DeviceHello("w2", url("w2"), null, List.of()));
        second.tick();
        assertThat(second.status().events()).anySatisfy(e -> assertThat(e.text()).isEqualTo("j1.swc1: moved 4 "
                + "components (a move its predecessor left unfinished): counter w1 → w2, mapper 0 w1 → w2, "
                + "mapper 1 w1 → w2, reader w1 → w2"));
        assertThat(finished(second, "j1").result()).containsEntry("check", "ok").containsEntry("words", 8000);
    }

    /** A master killed as it asks a DeviceManager to take components over: the call never returns. */
    private static final class Killed extends RuntimeException {
        Killed() {
            super("killed");
        }
    }

    private record DyingDevices(Devices real) implements Devices {
        @Override
        public void deploy(String url, koala.fluent.wire.FluentMessages.Deploy component) {
            real.deploy(url, component);
        }

        @Override
        public void stop(String url, String app) {
            real.stop(url, app);
        }

        @Override
        public void suspend(String url, String app) {
            real.suspend(url, app);
        }

        @Override
        public void resume(String url, String app) {
            real.resume(url, app);
        }

        @Override
        public koala.fluent.wire.FluentMessages.Handover handover(String url, String app, List<String> components) {
            return real.handover(url, app, components);
        }

        @Override
        public void takeover(String url, Takeover takeover) {
            throw new Killed();
        }
    }

    private AppReply finished(FrameworkManager master, String job) {
        await().atMost(Duration.ofSeconds(30)).until(() -> !master.job(job).apps().get(0).state().equals("RUNNING"));
        AppReply app = master.job(job).apps().get(0);
        assertThat(app.state()).as(app.reason()).isEqualTo("FINISHED");
        return app;
    }

    /** A master with --suspend 3 on its HTTP API at {@code port} (0: any); its runner calls on the caller's thread. */
    private FrameworkManager master(Devices calls, int port) throws IOException {
        MetricsLog metrics = new MetricsLog(Optional.empty());
        MasterEvents events = new MasterEvents(InstantSource.system(), metrics);
        FrameworkManager master = new FrameworkManager(InstantSource.system(), runner, calls, events,
                new Provisioning(runner.status(), events, metrics, 4, 3), Duration.ofSeconds(60), journal);
        api = new JsonHttpServer(new InetSocketAddress("127.0.0.1", port), 4);
        new MasterApi(master, TOKEN, KEY).routes(api);
        api.start();
        masterUri = URI.create("http://127.0.0.1:" + api.port());
        return master;
    }

    private final java.util.Map<String, String> urls = new java.util.HashMap<>();

    private String url(String node) {
        return urls.get(node);
    }

    /**
     * A real DeviceManager for worker {@code node} that holds the instance's device token as the master's
     * key from its start (as with a runner), and says hello to {@code master}.
     */
    private void device(FrameworkManager master, String node, Integer slots) throws IOException {
        JsonHttpServer server = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 4);
        devices.add(server);
        // its reports go to whichever master serves the port now
        MasterLink link = new MasterLink(masterUri, TOKEN, KEY, Optional::empty);
        new DeviceManager(node, link, new ReaderRoots(List.of(dir)), executor, InstantSource.system()).routes(server);
        server.start();
        String url = "http://127.0.0.1:" + server.port();
        urls.put(node, url);
        runner.workers.add(node);
        master.device(new DeviceHello(node, url, slots));
    }
}
