package koala.fluent.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import koala.fluent.client.FluentClient;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.Deploy;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.DeviceWelcome;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.fluent.wire.FluentMessages.MasterStatus;
import koala.fluent.wire.Secret;
import koala.http.ApiException;
import koala.http.JsonHttpClient;
import koala.http.JsonHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The master's API over real HTTP, with a fake runner: only holders of the instance's token get in;
 * jobs waiting for grows hold no thread.
 */
class MasterApiTest {
    private static final AppRequest RL = new AppRequest("rl", 20_000L, 40.0, 5_000L, null, null);
    private static final String TOKEN = "instance-7-token";
    private final Secret key = Secret.random();
    private final List<Deploy> deployed = new ArrayList<>();
    private volatile JsonHttpServer server;

    @AfterEach
    void stop() {
        server.close();
    }

    private URI start(FakeRunner runner) throws IOException {
        return start(runner, 0);
    }

    private URI start(FakeRunner runner, int port) throws IOException {
        MetricsLog metrics = new MetricsLog(Optional.empty());
        MasterEvents events = new MasterEvents(Instant::now, metrics);
        Devices devices = new Devices() {
            @Override
            public void deploy(String url, Deploy d) {
                deployed.add(d);
            }

            @Override
            public void stop(String url, String app) {
            }
        };
        FrameworkManager master = new FrameworkManager(Instant::now, runner, devices, events,
                new Provisioning(runner.status(), events, metrics, 4), Duration.ofSeconds(60));
        // two threads only: more jobs wait for grows than the server has threads
        server = new JsonHttpServer(new InetSocketAddress("127.0.0.1", port), 2);
        new MasterApi(master, new Secret(TOKEN), key).routes(server);
        server.start();
        return URI.create("http://127.0.0.1:" + server.port());
    }

    @Test
    void jobsWaitingForGrowsAreAnswered202AndTheNewWorkersStillGetIn() throws Exception {
        URI url = start(new FakeRunner("ondemand", 20, Duration.ofSeconds(60)));
        JsonHttpClient http = client(url, TOKEN);
        List<JobReply> waiting = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            waiting.add(http.post("/jobs?wait=0", new JobRequest("j", List.of(RL)), JobReply.class));
        }
        assertThat(waiting).allSatisfy(r -> assertThat(r.apps()).isEmpty());
        assertThat(waiting.get(0).grow()).isEqualTo("waiting for its grow: asked to grow 1, granted 1");
        assertThat(waiting.get(3).grow()).isEqualTo("waiting behind 3 earlier job(s), first come first served");

        CompletableFuture<JobReply> placed = CompletableFuture.supplyAsync(() -> new FluentClient(url, TOKEN)
                .submit(new JobRequest("fifth", List.of(RL))));
        // the fifth must have arrived before any worker joins, or it would find one idle and ask for nothing
        org.awaitility.Awaitility.await("the fifth job arrived").atMost(Duration.ofSeconds(10)).ignoreExceptions()
                .until(() -> http.get("/jobs/j5", JobReply.class) != null);
        for (int w = 1; w <= 5; w++) {
            http.post("/devices", new DeviceHello("w" + w, "http://w" + w, null), Map.class);
        }
        assertThat(placed.get().apps()).singleElement().satisfies(a -> assertThat(a.verdict()).isEqualTo("PLACED"));
        assertThat(placed.get().grow()).isEqualTo("asked to grow 1, granted 1; the new workers joined");
        assertThat(http.get("/jobs/j1", JobReply.class).apps()).singleElement()
                .satisfies(a -> assertThat(a.workers()).containsExactly("w1"));
        assertThat(deployed).hasSize(5);
        assertThatThrownBy(() -> http.post("/jobs?wait=forever", new JobRequest("j", List.of(RL)), JobReply.class))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.field()).isEqualTo("wait"));
    }

    @Test
    void aClientWaitsForAMasterWhosePortOpensLate() throws Exception {
        int port = koala.common.net.FreePort.any();
        FluentClient client = new FluentClient(URI.create("http://127.0.0.1:" + port), TOKEN);
        assertThatThrownBy(() -> client.awaitServing(Duration.ofMillis(600)))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(503))
                .hasMessageContaining("does not answer").hasMessageContaining("connection refused");

        var later = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        try {
            later.schedule(() -> start(new FakeRunner("ondemand", 20, Duration.ofSeconds(60)), port), 700,
                    java.util.concurrent.TimeUnit.MILLISECONDS);
            assertThat(client.awaitServing(Duration.ofSeconds(20)).status().workers()).isEmpty();
        } finally {
            later.shutdownNow();
        }
    }

    @Test
    void onlyTheInstancesTokenGetsInAndARefusedCallChangesNothing() throws Exception {
        URI url = start(new FakeRunner("ondemand", 20, Duration.ofSeconds(60)));
        JsonHttpClient anonymous = new JsonHttpClient(url, Duration.ofSeconds(10));
        JsonHttpClient wrong = client(url, "instance-8-token");
        JsonHttpClient right = client(url, TOKEN);

        assertThatThrownBy(() -> anonymous.post("/jobs?wait=0", new JobRequest("j", List.of(RL)), JobReply.class))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(401);
                    assertThat(e.field()).isEqualTo("Authorization");
                })
                .hasMessage("missing credentials: send Authorization: Bearer <the instance's token>");
        assertThatThrownBy(() -> wrong.post("/devices", new DeviceHello("w1", "http://w1", null), DeviceWelcome.class))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401))
                .hasMessage("the secret presented is not the instance's token");
        for (String path : List.of("/status", "/metrics", "/jobs/j1")) {
            assertThatThrownBy(() -> wrong.get(path, Map.class)).as(path)
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401));
        }
        assertThatThrownBy(() -> anonymous.post("/apps/j1.rl1/done", Map.of("node", "w1"), Map.class))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401));

        MasterStatus untouched = right.get("/status", MasterStatus.class);
        assertThat(untouched.workers()).as("the refused hello did not join").isEmpty();
        assertThat(untouched.apps()).as("the refused job was not taken").isEmpty();
        assertThatThrownBy(() -> right.get("/jobs/j1", JobReply.class))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(404));

        // the right token: a worker joins (and learns the master's key, not the instance's token), a job is placed
        DeviceWelcome welcome = right.post("/devices", new DeviceHello("w1", "http://w1", null), DeviceWelcome.class);
        assertThat(welcome.key()).isEqualTo(key.value()).isNotEqualTo(TOKEN);
        JobReply placed = new FluentClient(url, TOKEN).submit(new JobRequest("j", List.of(RL)));
        assertThat(placed.job()).isEqualTo("j1");
        assertThat(placed.apps()).singleElement().satisfies(a -> assertThat(a.workers()).containsExactly("w1"));
        assertThatThrownBy(() -> new FluentClient(url, "instance-8-token").refusedFor(Duration.ZERO).status())
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401))
                .hasMessage("the master at " + url + " refused the call: the secret presented is not the instance's "
                        + "token");
    }

    @Test
    void aClientHoldingTheInstancesTokenCannotPoseAsADeviceManager() throws Exception {
        MetricsLog metrics = new MetricsLog(Optional.empty());
        MasterEvents events = new MasterEvents(Instant::now, metrics);
        FakeRunner runner = new FakeRunner("ondemand", 20, Duration.ofSeconds(60));
        FrameworkManager master = new FrameworkManager(Instant::now, runner, Devices.http(key), events,
                new Provisioning(runner.status(), events, metrics, 4), Duration.ofSeconds(60));
        server = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 2);
        new MasterApi(master, new Secret(TOKEN), key, new Secret("devices-only")).routes(server);
        server.start();
        URI url = URI.create("http://127.0.0.1:" + server.port());

        assertThatThrownBy(() -> client(url, TOKEN).post("/devices", new DeviceHello("w1", "http://w1", null),
                DeviceWelcome.class)).isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401))
                .hasMessage("the secret presented is not the instance's DeviceManager token");
        assertThat(client(url, TOKEN).get("/status", MasterStatus.class).workers()).as("nobody joined").isEmpty();
        DeviceWelcome welcome = client(url, "devices-only").post("/devices", new DeviceHello("w1", "http://w1", null),
                DeviceWelcome.class);
        assertThat(welcome.key()).isEqualTo(key.value());
    }

    private static JsonHttpClient client(URI url, String token) {
        return new JsonHttpClient(url, Duration.ofSeconds(10), new Secret(token).header());
    }
}
