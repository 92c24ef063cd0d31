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
import koala.common.http.ApiException;
import koala.common.http.JsonHttpClient;
import koala.common.http.JsonHttpServer;
import koala.fluent.client.FluentClient;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.Deploy;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The master's API over real HTTP, with a fake runner: jobs waiting for grows hold no thread. */
class MasterApiTest {
    private static final AppRequest RL = new AppRequest("rl", 20_000L, 40.0, 5_000L, null, null);
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
                new Provisioning(runner, runner.status(), events, metrics, 4), Duration.ofSeconds(60));
        // two threads only: more jobs wait for grows than the server has threads
        server = new JsonHttpServer(new InetSocketAddress("127.0.0.1", port), 2);
        new MasterApi(master).routes(server);
        server.start();
        return URI.create("http://127.0.0.1:" + server.port());
    }

    @Test
    void jobsWaitingForGrowsAreAnswered202AndTheNewWorkersStillGetIn() throws Exception {
        URI url = start(new FakeRunner("ondemand", 20, Duration.ofSeconds(60)));
        JsonHttpClient http = new JsonHttpClient(url, Duration.ofSeconds(10));
        List<JobReply> waiting = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            waiting.add(http.post("/jobs?wait=0", new JobRequest("j", List.of(RL)), JobReply.class));
        }
        assertThat(waiting).allSatisfy(r -> assertThat(r.apps()).isEmpty());
        assertThat(waiting.get(0).grow()).isEqualTo("waiting for its grow: asked to grow 1, granted 1");
        assertThat(waiting.get(3).grow()).isEqualTo("waiting behind 3 earlier job(s), first come first served");

        CompletableFuture<JobReply> placed = CompletableFuture.supplyAsync(() -> new FluentClient(url)
                .submit(new JobRequest("fifth", List.of(RL))));
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
        int port;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        FluentClient client = new FluentClient(URI.create("http://127.0.0.1:" + port));
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
}
