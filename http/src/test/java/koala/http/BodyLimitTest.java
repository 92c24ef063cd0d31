package koala.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Request bodies are bounded: refused with a 413 naming the limit, never read past it. */
class BodyLimitTest {
    record Note(String text) {
    }

    private JsonHttpServer server;
    private JsonHttpClient client;
    private final ExecutorService sender = Executors.newSingleThreadExecutor();

    private void serve(JsonHttpServer.Builder builder) throws IOException {
        server = builder.endpoint(Endpoint.loopback("local", 0)).threads(2).build();
        server.route("POST", "/notes", r -> Response.ok(Map.of("length", r.body(Note.class).text().length())))
                .route("GET", "/ping", r -> Response.ok(Map.of("pong", true)));
        server.start();
        client = new JsonHttpClient(URI.create("http://127.0.0.1:" + server.port()), Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() {
        sender.shutdownNow();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theLimitIsInclusive() throws IOException {
        serve(JsonHttpServer.builder().maxBodyBytes(100));
        // {"text":"…"} is 11 bytes around the text: 89 characters make exactly 100 bytes
        assertThat(client.post("/notes", new Note("x".repeat(89)), Map.class)).isEqualTo(Map.of("length", 89));
        assertThatThrownBy(() -> client.post("/notes", new Note("x".repeat(90)), Map.class))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(413);
                    assertThat(e.getMessage()).isEqualTo(
                            "request body too large: the limit is 100 bytes and its Content-Length is 101 bytes");
                });
        assertThat(client.get("/ping", Map.class)).isEqualTo(Map.of("pong", true));
    }

    @Test
    void aTwoMebibytePostIsRefusedAtTheDefaultLimitOfOne() throws IOException {
        serve(JsonHttpServer.builder());
        // 2 MiB of text and the 11 bytes of {"text":""} around it
        assertThatThrownBy(() -> client.post("/notes", new Note("x".repeat(2 << 20)), Map.class))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(413);
                    assertThat(e.getMessage()).isEqualTo("request body too large: the limit is 1048576 bytes and its "
                            + "Content-Length is 2097163 bytes");
                });
        assertThat(client.get("/ping", Map.class)).isEqualTo(Map.of("pong", true));
    }

    @Test
    void theRefusalComesBeforeTheBodyAndClosesTheConnection() throws IOException {
        serve(JsonHttpServer.builder());
        String answer;
        try (RawHttp raw = new RawHttp(server.port())) {
            // 2 MiB announced, 2 MiB sent from another thread; the answer comes after the headers
            raw.send("POST /notes HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + (2 << 20) + "\r\n\r\n");
            CompletableFuture.runAsync(() -> write(raw, 2 << 20), sender);
            answer = raw.untilClosed();
        }
        assertThat(answer).startsWith("HTTP/1.1 413 ").contains("Connection: close")
                .endsWith("{\"error\":\"request body too large: the limit is 1048576 bytes and its Content-Length "
                        + "is 2097152 bytes\"}");
        assertThat(client.get("/ping", Map.class)).isEqualTo(Map.of("pong", true));
    }

    @Test
    void aTwoGigabyteContentLengthIsRefusedBeforeAByteOfItIsRead() throws IOException {
        serve(JsonHttpServer.builder());
        try (RawHttp raw = new RawHttp(server.port())) {
            String answer = raw.send("POST /notes HTTP/1.1\r\nHost: test\r\nContent-Length: 2147483648\r\n\r\n{\"te")
                    .untilClosed();
            assertThat(answer).startsWith("HTTP/1.1 413 ")
                    .contains("the limit is 1048576 bytes and its Content-Length is 2147483648 bytes");
        }
        assertThat(client.get("/ping", Map.class)).isEqualTo(Map.of("pong", true));
    }

    @Test
    void aChunkedStreamIsCountedAndCutOffPastTheLimit() throws IOException {
        serve(JsonHttpServer.builder().maxBodyBytes(64 * 1024));
        String answer;
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("POST /notes HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n");
            // no length up front: up to 4 MiB in 16 KiB chunks, far past the 64 KiB limit
            CompletableFuture.runAsync(() -> writeChunks(raw, 256, 16 * 1024), sender);
            answer = raw.untilClosed();
        }
        // the server answers 413 and closes, or (if the close overtakes the answer) only closes
        assertThat(answer).satisfiesAnyOf(a -> assertThat(a).isEmpty(), a -> assertThat(a).startsWith("HTTP/1.1 413 ")
                .contains("the limit is 65536 bytes and more than that arrived"));
        assertThat(client.get("/ping", Map.class)).isEqualTo(Map.of("pong", true));
    }

    private static void write(RawHttp raw, int bytes) {
        try {
            OutputStream out = raw.socket().getOutputStream();
            byte[] block = new byte[16 * 1024];
            for (int sent = 0; sent < bytes; sent += block.length) {
                out.write(block);
            }
        } catch (IOException closedByServer) {
            // the server stopped reading and closed: expected
        }
    }

    private static void writeChunks(RawHttp raw, int chunks, int size) {
        try {
            OutputStream out = raw.socket().getOutputStream();
            byte[] chunk = ("x".repeat(size)).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < chunks; i++) {
                out.write((Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(chunk);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        } catch (IOException closedByServer) {
            // the server stopped reading and closed: expected
        }
    }
}
