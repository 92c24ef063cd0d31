package koala.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One server on three endpoints, the way a KOALA daemon listens: "local" (loopback, for the CLI),
 * "network" (for compute nodes; here loopback too, as tests stay on this host) and "unix" (a
 * socket file). The network side needs a bearer token and does not see the admin route.
 */
class EndpointsTest {
    @TempDir
    Path dir;

    private final AtomicInteger handled = new AtomicInteger();
    private JsonHttpServer server;
    private Path socket;

    @BeforeEach
    void start() throws IOException {
        socket = dir.resolve("koala.sock");
        server = JsonHttpServer.builder().endpoints(List.of(Endpoint.loopback("local", 0),
                Endpoint.loopback("network", 0), Endpoint.unix("unix", socket))).threads(2).build();
        server.route("GET", "/whoami", r -> {
            handled.incrementAndGet();
            return Response.ok(Map.of("endpoint", r.endpoint()));
        }).route("POST", "/admin/stop", Guard.onlyOn("local", "unix"), r -> {
            handled.incrementAndGet();
            return Response.ok(Map.of("stopping", true));
        }).guard("network", Guard.bearer("s3cret"));
        server.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void eachRequestKnowsTheEndpointItCameThrough() {
        assertThat(client("local").get("/whoami", Map.class)).isEqualTo(Map.of("endpoint", "local"));
        assertThat(client("network").withBearer("s3cret").get("/whoami", Map.class))
                .isEqualTo(Map.of("endpoint", "network"));
        assertThat(JsonHttpClient.unixSocket(socket, Duration.ofSeconds(5)).get("/whoami", Map.class))
                .isEqualTo(Map.of("endpoint", "unix"));
    }

    @Test
    void everyEndpointTellsWhereItIsBound() {
        InetSocketAddress local = (InetSocketAddress) server.address("local");
        InetSocketAddress network = (InetSocketAddress) server.address("network");
        assertThat(local.getPort()).isPositive().isEqualTo(server.port()).isNotEqualTo(network.getPort());
        assertThat(local.getAddress().isLoopbackAddress()).isTrue();
        assertThat(server.address("unix")).isEqualTo(UnixDomainSocketAddress.of(socket));
        assertThat(server.addresses()).containsOnlyKeys("local", "network", "unix");
        assertThatThrownBy(() -> server.address("nope")).hasMessage("no endpoint named nope; there are [local, network, unix]");
    }

    @Test
    void aRouteRestrictedToLocalEndpointsDoesNotExistOnTheNetwork() {
        assertThat(client("local").post("/admin/stop", Map.of(), Map.class)).isEqualTo(Map.of("stopping", true));
        assertThat(JsonHttpClient.unixSocket(socket, Duration.ofSeconds(5)).post("/admin/stop", Map.of(), Map.class))
                .isEqualTo(Map.of("stopping", true));
        assertRefused(() -> client("network").withBearer("s3cret").post("/admin/stop", Map.of(), Map.class), 404,
                "no such resource: /admin/stop");
        assertThat(handled).hasValue(2);
    }

    @Test
    void theNetworkEndpointWantsTheBearerTokenBeforeAnyHandlerRuns() {
        assertRefused(() -> client("network").get("/whoami", Map.class), 401,
                "missing token: send Authorization: Bearer <token>");
        assertRefused(() -> client("network").withBearer("s3cre").get("/whoami", Map.class), 401, "wrong token");
        assertRefused(() -> new JsonHttpClient(base("network"), Duration.ofSeconds(5),
                Map.of("Authorization", "Basic czNjcmV0")).get("/whoami", Map.class), 401,
                "unsupported authorization: send Authorization: Bearer <token>");
        // even an unknown path: without the token the network side learns nothing
        assertRefused(() -> client("network").get("/nope", Map.class), 401,
                "missing token: send Authorization: Bearer <token>");
        assertThat(handled).hasValue(0);
        assertThat(client("local").get("/whoami", Map.class)).isEqualTo(Map.of("endpoint", "local"));
        assertThat(handled).hasValue(1);
    }

    @Test
    void theSocketFileIsTheOwnersOnlyUnlessToldOtherwiseAndGoesAwayWithTheServer() throws IOException {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(socket))).isEqualTo("rw-------");
        server.close();
        assertThat(socket).doesNotExist();
        Path shared = dir.resolve("group.sock");
        try (JsonHttpServer group = JsonHttpServer.builder().endpoint(Endpoint.unix("unix", shared, "rw-rw----")).build()) {
            group.start();
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(shared))).isEqualTo("rw-rw----");
            assertThat(dir).isDirectoryNotContaining(p -> p.getFileName().toString().startsWith(".k"));
        }
    }

    @Test
    void aStaleSocketFileIsReplacedButALiveOneOrAPlainFileIsNot() throws IOException {
        Path stale = dir.resolve("stale.sock");
        ServerSocketChannel.open(StandardProtocolFamily.UNIX).bind(UnixDomainSocketAddress.of(stale)).close();
        assertThat(stale).exists(); // a server that died leaves its socket file behind
        try (JsonHttpServer again = JsonHttpServer.builder().endpoint(Endpoint.unix("unix", stale)).build()) {
            again.start();
            assertRefused(() -> JsonHttpClient.unixSocket(stale, Duration.ofSeconds(5)).get("/nope", Map.class), 404,
                    "no such resource: /nope");
        }
        assertThatThrownBy(() -> JsonHttpServer.builder().endpoint(Endpoint.unix("unix", socket)).build())
                .isInstanceOf(IOException.class).hasMessage("another server is listening on " + socket);
        Path plain = Files.writeString(dir.resolve("notes.txt"), "keep me");
        assertThatThrownBy(() -> JsonHttpServer.builder().endpoint(Endpoint.unix("unix", plain)).build())
                .isInstanceOf(IOException.class).hasMessage(plain + " exists and is not a socket; not removing it");
        assertThat(plain).hasContent("keep me");
    }

    private JsonHttpClient client(String endpoint) {
        return new JsonHttpClient(base(endpoint), Duration.ofSeconds(5));
    }

    private URI base(String endpoint) {
        return URI.create("http://127.0.0.1:" + ((InetSocketAddress) server.address(endpoint)).getPort());
    }

    static void assertRefused(Runnable call, int status, String message) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(status);
            assertThat(e.getMessage()).isEqualTo(message);
        });
    }
}
