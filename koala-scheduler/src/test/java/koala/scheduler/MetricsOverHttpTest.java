package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import koala.auth.Identity;
import koala.auth.TokenKey;
import koala.auth.Tokens;
import koala.http.Endpoint;
import koala.http.JsonHttpServer;
import koala.scheduler.api.Admins;
import koala.scheduler.api.AuditLog;
import koala.scheduler.api.Callers;
import koala.scheduler.api.MetricsToken;
import koala.scheduler.api.SchedulerApi;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /metrics} as Prometheus and users reach it: on the scheduler's loopback listener for
 * the metrics token or any caller the scheduler identifies, on the grid's address for the metrics
 * token only; in the format the {@code Accept} header asks for; and never through the loop.
 */
class MetricsOverHttpTest {
    /** What Prometheus 3 sends by default. */
    static final String PROMETHEUS_ACCEPT = "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.5,"
            + "application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.3,"
            + "text/plain;version=0.0.4;q=0.2,*/*;q=0.1";

    @TempDir
    Path dir;

    private TestGrid grid;
    private SchedulerLoop loop;
    private JsonHttpServer local;
    private JsonHttpServer network;
    private String metricsToken;
    private String aliceToken;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void serve() throws Exception {
        grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60));
        grid.tick(Duration.ofSeconds(1));
        loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor());
        TokenKey key = TokenKey.in(dir.resolve("token.key"));
        Path group = Files.writeString(dir.resolve("group"), "root:x:0:\n");
        Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0::/root:/bin/sh\n"
                + "alice:x:1002:1002::/home/alice:/bin/sh\n");
        Callers callers = new Callers(new Tokens(key), new Admins("koala-admin", group, passwd), grid.clock);
        MetricsToken token = MetricsToken.at(dir.resolve("metrics.token"));
        metricsToken = Files.readString(token.file()).strip();
        aliceToken = new Tokens(key).issue(new Identity("alice", 1002), grid.clock.instant(), Duration.ofHours(1));

        local = new JsonHttpServer(List.of(Endpoint.loopback("local", 0)), 4);
        SchedulerApi.register(local, new LoopOperations(grid.scheduler.parts(), loop, key), callers,
                AuditLog.in(dir.resolve("audit.log"), grid.clock));
        SchedulerApi.registerMetrics(local, grid.metrics::scrape, token.orCaller(callers));
        local.start();
        network = new JsonHttpServer(List.of(Endpoint.loopback("network", 0)), 4);
        SchedulerApi.registerMetrics(network, grid.metrics::scrape, token.alone());
        network.start();
    }

    @AfterEach
    void stop() {
        local.close();
        network.close();
        loop.close();
        grid.close();
    }

    @Test
    void theMetricsTokenOrAnIdentifiedCallerReadsTheMetricsInTheFormatAskedFor() throws Exception {
        assertThat(get(local, null, null).statusCode()).isEqualTo(401);
        assertThat(get(local, "not-the-token-but-long", null).statusCode()).isEqualTo(401);

        HttpResponse<String> plain = get(local, metricsToken, null);
        assertThat(plain.statusCode()).isEqualTo(200);
        assertThat(plain.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(plain.body()).contains("koala_jobs{state=\"QUEUED\"} 0.0\n", "koala_claims_total{site=\"fs0\"} 0.0\n");

        HttpResponse<String> open = get(local, metricsToken, PROMETHEUS_ACCEPT);
        assertThat(open.headers().firstValue("Content-Type"))
                .hasValue("application/openmetrics-text; version=1.0.0; charset=utf-8");
        assertThat(open.body()).contains("# TYPE koala_claims counter\n", "koala_claims_total{site=\"fs0\"} 0.0\n",
                "# UNIT koala_scheduler_round_duration_seconds seconds\n", "# TYPE koala_arbitration info\n",
                "koala_arbitration_info{policy=\"fcfs\"} 1\n").endsWith("# EOF\n");

        assertThat(get(local, aliceToken, null).statusCode()).as("alice, as any user, reads what 'koala sites' shows")
                .isEqualTo(200);
    }

    @Test
    void onTheGridsAddressOnlyTheMetricsTokenOpensThem() throws Exception {
        assertThat(get(network, aliceToken, null).statusCode()).isEqualTo(401);
        assertThat(get(network, null, null).statusCode()).isEqualTo(401);
        assertThat(get(network, metricsToken, null).statusCode()).isEqualTo(200);
    }

    /** The loop is stuck on something: a scrape still answers at once with the last round's reading. */
    @Test
    void aScrapeDoesNotWaitForTheLoop() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(1);
        loop.post(() -> {
            holding.countDown();
            try {
                stuck.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        try {
            assertThat(holding.await(5, TimeUnit.SECONDS)).isTrue();
            HttpResponse<String> answer = http.send(request(local, metricsToken, null).timeout(Duration.ofSeconds(5))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).contains("koala_scheduler_last_round_timestamp_seconds 1.795600801E9\n");
        } finally {
            stuck.countDown();
        }
    }

    private HttpResponse<String> get(JsonHttpServer server, String bearer, String accept) throws Exception {
        return http.send(request(server, bearer, accept).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(JsonHttpServer server, String bearer, String accept) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics"));
        if (bearer != null) {
            b.header("Authorization", "Bearer " + bearer);
        }
        if (accept != null) {
            b.header("Accept", accept);
        }
        return b;
    }
}
