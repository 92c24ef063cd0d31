package koala.http;

import static koala.http.EndpointsTest.assertRefused;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client carries a bearer token, and speaks over a Unix socket or a socket per request as it does over TCP. */
class JsonHttpClientTest {
    record Grow(int nodes, String role) {
    }

    @TempDir
    Path dir;

    private JsonHttpServer server;
    private Path socket;
    private final CountDownLatch release = new CountDownLatch(1);

    @BeforeEach
    void start() throws IOException {
        socket = dir.resolve("koala.sock");
        server = JsonHttpServer.builder().endpoints(List.of(Endpoint.loopback("local", 0), Endpoint.unix("unix", socket)))
                .threads(2).build();
        server.route("POST", "/grow", Guard.bearer("t0ken"), r -> Response.created(r.body(Grow.class)))
                .route("GET", "/nodes/{id}", r -> Response.ok(Map.of("id", r.param("id"))))
                .route("GET", "/stuck", r -> {
                    await(release);
                    return Response.ok(Map.of());
                });
        server.start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        server.close();
    }

    @Test
    void aBearerTokenGoesWithEveryRequestOfTheClientThatCarriesIt() {
        JsonHttpClient anonymous = new JsonHttpClient(URI.create("http://127.0.0.1:" + server.port()), Duration.ofSeconds(5));
        assertRefused(() -> anonymous.post("/grow", new Grow(2, "worker"), Grow.class), 401,
                "missing token: send Authorization: Bearer <token>");
        JsonHttpClient bearer = anonymous.withBearer("t0ken");
        assertThat(bearer.post("/grow", new Grow(2, "worker"), Grow.class)).isEqualTo(new Grow(2, "worker"));
        assertThat(bearer.get("/nodes/fs0-3", Map.class)).isEqualTo(Map.of("id", "fs0-3"));
    }

    @Test
    void overTheUnixSocketItBehavesAsOverTcp() {
        JsonHttpClient unix = JsonHttpClient.unixSocket(socket, Duration.ofSeconds(5));
        assertThat(unix.base()).isEqualTo(URI.create("unix:" + socket));
        assertThat(unix.get("/nodes/fs0%2D3", Map.class)).isEqualTo(Map.of("id", "fs0-3"));
        assertThat(unix.withBearer("t0ken").post("/grow", new Grow(3, "worker"), Grow.class))
                .isEqualTo(new Grow(3, "worker"));
        assertRefused(() -> unix.withBearer("t0ken").post("/grow", Map.of("nodes", 1.5), Grow.class), 400,
                "nodes: expected a whole number, got 1.5");
        assertRefused(() -> unix.delete("/nodes/1", Map.class), 405, "DELETE is not allowed on /nodes/1");
    }

    @Test
    void theShortLivedClientBehavesAsTheJdkOne() {
        URI base = URI.create("http://127.0.0.1:" + server.port());
        JsonHttpClient plain = JsonHttpClient.shortLived(base, Duration.ofSeconds(5));
        assertThat(plain.base()).isEqualTo(base);
        assertThat(plain.get("/nodes/fs0%2D3", Map.class)).isEqualTo(Map.of("id", "fs0-3"));
        assertThat(plain.withBearer("t0ken").post("/grow", new Grow(3, "worker"), Grow.class))
                .isEqualTo(new Grow(3, "worker"));
        assertRefused(() -> plain.post("/grow", new Grow(3, "worker"), Grow.class), 401,
                "missing token: send Authorization: Bearer <token>");
        assertRefused(() -> plain.withBearer("t0ken").post("/grow", Map.of("nodes", 1.5), Grow.class), 400,
                "nodes: expected a whole number, got 1.5");
        assertRefused(() -> plain.delete("/nodes/1", Map.class), 405, "DELETE is not allowed on /nodes/1");
    }

    @Test
    void theShortLivedClientNamesAClosedPortA503AndASilentServerA504() throws IOException {
        int closed;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = probe.getLocalPort();
        }
        URI nowhere = URI.create("http://127.0.0.1:" + closed);
        assertRefused(() -> JsonHttpClient.shortLived(nowhere, Duration.ofSeconds(5)).get("/nodes/1", Map.class), 503,
                "cannot reach " + nowhere + ": connection refused");
        URI base = URI.create("http://127.0.0.1:" + server.port());
        assertRefused(() -> JsonHttpClient.shortLived(base, Duration.ofMillis(300)).get("/stuck", Map.class), 504,
                "no answer from " + base + " within 0 s");
    }

    @Test
    void aMissingSocketIsA503AndASilentServerA504() {
        Path nowhere = dir.resolve("nobody.sock");
        assertRefused(() -> JsonHttpClient.unixSocket(nowhere, Duration.ofSeconds(5)).get("/nodes/1", Map.class), 503,
                "cannot reach unix:" + nowhere + ": java.net.SocketException: No such file or directory");
        assertRefused(() -> JsonHttpClient.unixSocket(socket, Duration.ofMillis(300)).get("/stuck", Map.class), 504,
                "no answer from unix:" + socket + " within 0 s");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
