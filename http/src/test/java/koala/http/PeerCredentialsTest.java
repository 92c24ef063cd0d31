package koala.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.common.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Over the Unix socket the kernel names the caller; over TCP there is only an address. */
class PeerCredentialsTest {
    @TempDir
    Path dir;

    private JsonHttpServer server;
    private Path socket;

    @BeforeEach
    void start() throws IOException {
        socket = dir.resolve("koala.sock");
        server = JsonHttpServer.builder().endpoints(List.of(Endpoint.loopback("local", 0), Endpoint.unix("unix", socket)))
                .threads(2).build();
        server.route("GET", "/whoami", r -> Response.ok(describe(r.peer())));
        server.start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aCallerOnTheUnixSocketIsTheUserTheKernelSays() throws IOException {
        String answer;
        // a bare channel, no HTTP library: what any local program could do
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            answer = RawHttp.exchange(channel, "GET /whoami HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        }
        UnixSystem me = new UnixSystem(); // this test process: the kernel must name it
        assertThat(answer).startsWith("HTTP/1.1 200 ");
        assertThat(Json.mapper().readValue(RawHttp.body(answer), Map.class)).isEqualTo(Map.of(
                "uid", (int) me.getUid(), "gid", (int) me.getGid(), "user", me.getUsername(), "verified", true));
    }

    @Test
    void aCallerOverTcpHasAnAddressAndNoUser() {
        Map<?, ?> seen = new JsonHttpClient(URI.create("http://127.0.0.1:" + server.port()), Duration.ofSeconds(5))
                .get("/whoami", Map.class);
        assertThat(seen).isEqualTo(Map.of("address", "127.0.0.1", "verified", false));
    }

    private static Map<String, Object> describe(Peer peer) {
        Map<String, Object> seen = new LinkedHashMap<>();
        peer.credentials().ifPresentOrElse(c -> {
            seen.put("uid", c.uid());
            seen.put("gid", c.gid());
            seen.put("user", c.user());
        }, () -> seen.put("address", ((InetSocketAddress) peer.address()).getAddress().getHostAddress()));
        seen.put("verified", peer.credentials().isPresent());
        return seen;
    }
}
