package koala.fluent.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import koala.api.runner.RunnerMessages.GrowResult;
import koala.api.runner.RunnerMessages.OrchestratorPlace;
import koala.api.runner.RunnerMessages.ShrinkResult;
import koala.api.runner.RunnerMessages.Status;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.Deploy;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.fluent.wire.FluentMessages.MasterStatus;
import koala.fluent.wire.Secret;
import koala.http.JsonHttpClient;
import koala.http.JsonHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A runner that takes its time: its grows and shrinks wait (up to 10 s) until the test lets them
 * go, as a grow waiting for its grant at a slow scheduler does. The master calls it on its runner
 * line, off its lock; its API on loopback answers clients and DeviceManagers meanwhile, each within
 * a bound that a request queued behind the runner call would miss.
 */
class SlowRunnerTest {
    private static final AppRequest RL = new AppRequest("rl", 20_000L, 40.0, 5_000L, null, null);
    private static final String TOKEN = "instance-7-token";
    private static final Instant T = Instant.parse("2026-11-21T10:00:00Z");
    private static final Duration PROMPT = Duration.ofSeconds(3);

    private final AtomicReference<Instant> now = new AtomicReference<>(T);
    private final FakeRunner fake = new FakeRunner("ondemand", 20, Duration.ofSeconds(10));
    private final CountDownLatch atRunner = new CountDownLatch(1);
    private final CountDownLatch letGo = new CountDownLatch(1);
    private final MasterThreads threads = MasterThreads.threaded();
    private FrameworkManager master;
    private JsonHttpServer server;
    private JsonHttpClient http;

    @BeforeEach
    void start() throws IOException {
        MetricsLog metrics = new MetricsLog(Optional.empty());
        MasterEvents events = new MasterEvents(now::get, metrics);
        Runner slow = new Slow();
        master = new FrameworkManager(now::get, slow, new Devices() {
            @Override
            public void deploy(String url, Deploy d) {
            }

            @Override
            public void stop(String url, String app) {
            }
        }, events, new Provisioning(fake.status(), events, metrics, 4), Duration.ofSeconds(60), Journal.memory(),
                threads);
        server = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 4);
        new MasterApi(master, new Secret(TOKEN), Secret.random()).routes(server);
        server.start();
        http = new JsonHttpClient(URI.create("http://127.0.0.1:" + server.port()), Duration.ofSeconds(30))
                .withBearer(TOKEN);
    }

    @AfterEach
    void stop() {
        letGo.countDown();
        server.close();
        threads.close();
    }

    @Test
    void aClientAndADeviceManagerAreAnsweredWhileTheRunnerTakesItsTimeOverAGrow() throws Exception {
        JobReply waiting = assertTimeoutPreemptively(PROMPT, () -> http.post("/jobs?wait=0",
                new JobRequest("one", List.of(RL)), JobReply.class));
        assertThat(waiting.grow()).isEqualTo("waiting for its grow: asking the runner to grow 1");
        assertThat(atRunner.await(10, TimeUnit.SECONDS)).as("the grow reached the runner").isTrue();

        MasterStatus status = assertTimeoutPreemptively(PROMPT, () -> http.get("/status", MasterStatus.class));
        assertThat(status.workers()).isEmpty();
        // the worker the runner is granting reports in before the grant comes back
        assertTimeoutPreemptively(PROMPT, () -> http.post("/devices", new DeviceHello("w1", "http://w1", null),
                Map.class));
        assertTimeoutPreemptively(PROMPT, master::tick);

        letGo.countDown();

        await().atMost(Duration.ofSeconds(10)).until(() -> !http.get("/jobs/j1", JobReply.class).apps().isEmpty());
        JobReply placed = http.get("/jobs/j1", JobReply.class);
        assertThat(placed.apps()).singleElement().satisfies(a -> assertThat(a.workers()).containsExactly("w1"));
        assertThat(placed.grow()).isEqualTo("asked to grow 1, granted 1; the new workers joined");
    }

    /**
     * w1 has been idle past t_idle (10 s): the tick offers it back, and the runner is slow to answer.
     * Meanwhile a job arrives; it is not placed on w1, which is out of the placement while it is given
     * back, but grows one of its own, asked after the shrink.
     */
    @Test
    void theTickHoldsNoLockWhileTheRunnerTakesItsTimeOverAShrink() throws Exception {
        fake.grow(1); // w1, held by the runner
        fake.calls.clear();
        master.device(new DeviceHello("w1", "http://w1", null));
        now.set(T.plusSeconds(11));

        assertTimeoutPreemptively(PROMPT, master::tick);
        assertThat(atRunner.await(10, TimeUnit.SECONDS)).as("the shrink reached the runner").isTrue();
        assertThat(assertTimeoutPreemptively(PROMPT, () -> http.get("/status", MasterStatus.class)).workers())
                .as("w1 is being given back").isEmpty();
        JobReply second = assertTimeoutPreemptively(PROMPT, () -> http.post("/jobs?wait=0",
                new JobRequest("two", List.of(RL)), JobReply.class));
        assertThat(second.apps()).isEmpty();

        letGo.countDown();

        await().atMost(Duration.ofSeconds(10)).until(() -> http.get("/jobs/j1", JobReply.class).grow()
                .equals("waiting for its grow: asked to grow 1, granted 1"));
        master.device(new DeviceHello("w2", "http://w2", null));
        JobReply placed = http.get("/jobs/j1", JobReply.class);
        assertThat(placed.apps()).singleElement().satisfies(a -> assertThat(a.workers()).containsExactly("w2"));
        synchronized (fake) {
            assertThat(fake.calls).containsSubsequence("shrink [w1]", "grow 1");
        }
        assertThat(http.get("/status", MasterStatus.class).workers()).extracting(w -> w.node()).containsExactly("w2");
    }

    /** The fake runner, whose grows and shrinks wait for the test; everything else answers at once. */
    private final class Slow implements Runner {
        private void slowly() {
            atRunner.countDown();
            try {
                letGo.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public GrowResult grow(int workers) {
            slowly();
            synchronized (fake) {
                return fake.grow(workers);
            }
        }

        @Override
        public ShrinkResult shrink(List<String> workers) {
            slowly();
            synchronized (fake) {
                return fake.shrink(workers);
            }
        }

        @Override
        public OrchestratorPlace orchestrator() {
            synchronized (fake) {
                return fake.orchestrator();
            }
        }

        @Override
        public void orchestratorDone(String node) {
            synchronized (fake) {
                fake.orchestratorDone(node);
            }
        }

        @Override
        public void activity(String node, boolean busy, Instant since) {
            synchronized (fake) {
                fake.activity(node, busy, since);
            }
        }

        @Override
        public Status status() {
            synchronized (fake) {
                return fake.status();
            }
        }
    }
}
