package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import koala.api.runner.RunnerClient;
import koala.api.runner.RunnerMessages;
import koala.api.runner.RunnerMessages.Heartbeat;
import koala.api.runner.RunnerMessages.HeartbeatReply;
import koala.api.runner.RunnerMessages.Hello;
import koala.api.runner.RunnerMessages.Orders;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.http.JsonHttpClient;
import koala.http.JsonHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scheduler that takes its time over a grow: each grow waits (up to 10 s) until the test releases
 * it. Instance 7 (OnDemand, F_max 4, token "t0"): its master on 7.0.0 and orchestrator node 7.1.0
 * run, no worker yet. The runner on its own loop thread, calling the fake scheduler off it as it
 * calls the real one; its API on loopback. Every wait in the test is bounded: a heartbeat that
 * queued behind the grow would fail it.
 */
class SlowSchedulerTest {
    private static final Instant T = Instant.parse("2026-11-26T10:00:00Z");
    /** Promptly, on a loaded test machine: far below the grow's 10 s. */
    private static final Duration PROMPT = Duration.ofSeconds(3);

    @TempDir
    Path dir;

    private final FakeScheduler scheduler = new FakeScheduler().site("fs1", "UP").hold(
            FakeScheduler.node("7.0.0", "master", "fs1"), FakeScheduler.node("7.1.0", "orchestrator", "fs1"));
    private final TestRunner.Clock clock = new TestRunner.Clock(T);
    /** Counted down as each grow reaches the scheduler; the grows wait for {@link #release}. */
    private final CountDownLatch atScheduler = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private RunnerLoop loop;
    private FrameworkRunner runner;
    private JsonHttpServer api;
    private URI url;

    @BeforeEach
    void start() throws IOException {
        start(RunnerLoop.threaded("runner-loop"));
    }

    private void start(RunnerLoop on) throws IOException {
        scheduler.grants(this::slowGrant);
        String text = "+( &(jobType = framework)(name = slow)(role = master)(count = 1)(executable = /bin/sleep)"
                + "(arguments = 100)(provisioning = ondemand)(fMax = 4)(samplePeriod = 10) )"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100) )"
                + " ( &(role = worker)(count = 0)(executable = /bin/sleep)(arguments = 100) )";
        Path grid = TestRunner.grid(dir, "grid.sites = fs1\nsite.fs1.sge.cell = fs1\n");
        loop = on;
        runner = TestRunner.on(clock, TestRunner.jdf(text, Map.of("fs1", 8)), grid, loop,
                SchedulerCalls.threaded(scheduler, loop), new InstanceSecrets("t0"));
        runner.adopt(7, book(), "test");
        api = new JsonHttpServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        new RunnerApi(runner, clock).routes(api);
        api.start();
        url = URI.create("http://127.0.0.1:" + api.port());
    }

    @AfterEach
    void stop() {
        release.countDown();
        api.close();
        runner.close();
    }

    /** Grants what is asked, nodes 7.3.0, 7.3.1, … numbered by the grows so far, once the test releases it. */
    private GrowResult slowGrant(GrowRequest request) {
        int grow;
        synchronized (scheduler) {
            grow = scheduler.grows.size() + 1;
        }
        List<String> nodes = java.util.stream.IntStream.range(0, request.nodes()).mapToObj(i -> "7." + grow + "." + i)
                .toList();
        // the grid starts the pilots at once: their launchers may say hello before the grant comes back
        nodes.forEach(n -> scheduler.hold(FakeScheduler.node(n, request.role(), "fs1")));
        atScheduler.countDown();
        try {
            release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return new GrowResult(7, request.nodes(), request.nodes(), nodes, null);
    }

    @Test
    void aHeartbeatIsAnsweredWhileAGrowWaitsAtTheScheduler() throws Exception {
        CompletableFuture<RunnerMessages.GrowResult> grow = CompletableFuture.supplyAsync(() -> framework().grow(1,
                "g-1"));
        assertThat(atScheduler.await(10, TimeUnit.SECONDS)).as("the grow reached the scheduler").isTrue();

        HeartbeatReply beat = assertTimeoutPreemptively(PROMPT, () -> launcher().post("/nodes/7.0.0/heartbeat",
                new Heartbeat(40.0), HeartbeatReply.class));
        assertThat(beat.action()).isEqualTo("KEEP");
        RunnerMessages.Status status = assertTimeoutPreemptively(PROMPT, () -> framework().status());
        assertThat(status.entities()).extracting(RunnerMessages.Entity::node).containsExactly("7.0.0", "7.1.0");
        assertThat(grow).as("the grow still waits for its grant").isNotDone();

        release.countDown();

        assertThat(grow.get(10, TimeUnit.SECONDS).nodes()).containsExactly("7.2.0");
        assertThat(framework().status().role("worker")).extracting(RunnerMessages.Entity::node,
                RunnerMessages.Entity::state).containsExactly(org.assertj.core.groups.Tuple.tuple("7.2.0", "STARTING"));
    }

    /**
     * The grid started the pilot of a grow whose grant has not come back: its launcher's hello waits
     * for the grant instead of being refused as a stranger's (which would replace the token).
     */
    @Test
    void aNodeOfAGrowStillAtTheSchedulerThatSaysHelloWaitsForTheGrant() throws Exception {
        CompletableFuture<RunnerMessages.GrowResult> grow = CompletableFuture.supplyAsync(() -> framework().grow(1,
                "g-1"));
        assertThat(atScheduler.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Orders> hello = CompletableFuture.supplyAsync(() -> launcher().post("/nodes/7.2.0/hello",
                new Hello("fs1", "fs1-n3", 41002, 4242), Orders.class));
        assertTimeoutPreemptively(PROMPT, () -> launcher().post("/nodes/7.1.0/heartbeat", new Heartbeat(1.0),
                HeartbeatReply.class));
        assertThat(hello).isNotDone();

        release.countDown();

        assertThat(hello.get(10, TimeUnit.SECONDS).token()).as("the token it came with, still in force").isEqualTo("t0");
        assertThat(grow.get(10, TimeUnit.SECONDS).nodes()).containsExactly("7.2.0");
        assertThat(runner.token()).isEqualTo("t0");
        assertThat(framework().status().role("worker")).extracting(RunnerMessages.Entity::state)
                .containsExactly("RUNNING");
    }

    /**
     * The framework sends a grow of 3 and, before its grant, another of 3. F_max is 4: the second is
     * decided once the first has its answer, so it counts the 3 starting and gets 1 (not 3, as two
     * decisions on the same empty book would give).
     */
    @Test
    void aGrowIsDecidedOnceTheGrowsBeforeItHaveTheirAnswers() throws Exception {
        CompletableFuture<RunnerMessages.GrowResult> first = CompletableFuture.supplyAsync(() -> framework().grow(3,
                "g-1"));
        assertThat(atScheduler.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<RunnerMessages.GrowResult> second = CompletableFuture.supplyAsync(() -> framework().grow(3,
                "g-2"));
        CompletableFuture<RunnerMessages.GrowResult> again = CompletableFuture.supplyAsync(() -> framework().grow(3,
                "g-1"));

        release.countDown();

        assertThat(first.get(10, TimeUnit.SECONDS).nodes()).containsExactly("7.2.0", "7.2.1", "7.2.2");
        assertThat(again.get(10, TimeUnit.SECONDS).nodes()).as("the same request: the same answer")
                .containsExactly("7.2.0", "7.2.1", "7.2.2");
        RunnerMessages.GrowResult capped = second.get(10, TimeUnit.SECONDS);
        assertThat(capped.granted()).isEqualTo(1);
        assertThat(capped.reason()).contains("F_max");
        assertThat(scheduler.grows).extracting(GrowRequest::nodes).containsExactly(3, 1);
    }

    /**
     * Callers of this runner wait 300 ms for the loop to begin their work. A launcher's hello for a
     * node of the grow still at the scheduler is not begun within that (it waits for the grant): the
     * launcher is told 503, nothing was done. When the grant comes, no key is issued to a launcher
     * that is no longer listening, so its next hello is answered, with the token untouched.
     */
    @Test
    void aHelloWhoseLauncherStoppedWaitingIsNotDecidedBehindItsBack() throws Exception {
        api.close();
        runner.close();
        start(RunnerLoop.on(java.util.concurrent.Executors.newSingleThreadScheduledExecutor(), Duration.ofMillis(300),
                Duration.ofMillis(100)));
        CompletableFuture<RunnerMessages.GrowResult> grow = CompletableFuture.supplyAsync(() -> framework().grow(1,
                "g-1"));
        assertThat(atScheduler.await(10, TimeUnit.SECONDS)).isTrue();
        Hello hello = new Hello("fs1", "fs1-n3", 41002, 4242);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> launcher().post("/nodes/7.2.0/hello", hello,
                Orders.class)).isInstanceOfSatisfying(koala.http.ApiException.class,
                        e -> assertThat(e.status()).isEqualTo(503));

        release.countDown();
        assertThat(grow.get(10, TimeUnit.SECONDS).nodes()).containsExactly("7.2.0");

        Orders orders = launcher().post("/nodes/7.2.0/hello", hello, Orders.class);
        assertThat(orders.nodeKey()).isNotNull();
        assertThat(orders.token()).isEqualTo("t0");
        assertThat(runner.token()).isEqualTo("t0");
    }

    private RunnerClient framework() {
        return new RunnerClient(url, "t0");
    }

    private JsonHttpClient launcher() {
        return new JsonHttpClient(url, Duration.ofSeconds(30)).withBearer("t0");
    }

    /** The master and orchestrator node running since 10:00:00, beating every 10 s; no worker. */
    private static RunnerState.Book book() {
        return new RunnerState.Book("RUNNING", true, "fs1-n1:41000", "", T, List.of(
                new RunnerState.Saved("7.0.0", "master", "fs1", "RUNNING", T, "fs1-n1", 41000, 10_000, T, 0, null,
                        false),
                new RunnerState.Saved("7.1.0", "orchestrator", "fs1", "RUNNING", T, "fs1-n2", 41001, 10_000, null, 0,
                        T, false)), Map.of(), null, Map.of(), List.of());
    }
}
