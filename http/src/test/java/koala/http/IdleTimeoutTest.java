package koala.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A client that stalls mid-request is dropped after the idle timeout; a handler that waits is not. */
class IdleTimeoutTest {
    record Note(String text) {
    }

    private JsonHttpServer server;
    private JsonHttpClient client;

    @BeforeEach
    void start() throws IOException {
        server = JsonHttpServer.builder().endpoint(Endpoint.loopback("local", 0)).threads(2)
                .idleTimeout(Duration.ofMillis(500)).build();
        server.route("POST", "/notes", r -> Response.ok(Map.of("length", r.body(Note.class).text().length())))
                .route("GET", "/ping", r -> Response.ok(Map.of("pong", true)))
                .route("GET", "/slow", r -> Response.ok(Map.of("waited", waitMs(1500))));
        server.start();
        client = new JsonHttpClient(URI.create("http://127.0.0.1:" + server.port()), Duration.ofSeconds(10));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aClientStalledInItsHeadersIsDroppedAfterTheIdleTimeout() throws IOException {
        try (RawHttp raw = new RawHttp(server.port())) {
            long start = System.nanoTime();
            String answer = raw.send("POST /notes HTTP/1.1\r\nHost: test\r\nContent-Ty").untilClosed();
            long waitedMs = (System.nanoTime() - start) / 1_000_000;
            // dropped once 500 ms passed without a byte (and not before), with no answer or a 408
            assertThat(waitedMs).isGreaterThanOrEqualTo(450);
            assertThat(answer).satisfiesAnyOf(a -> assertThat(a).isEmpty(), a -> assertThat(a).startsWith("HTTP/1.1 408"));
        }
        assertThat(client.get("/ping", Map.class)).isEqualTo(Map.of("pong", true));
    }

    @Test
    void aClientStalledInItsBodyGetsA408AndIsDropped() throws IOException {
        try (RawHttp raw = new RawHttp(server.port())) {
            long start = System.nanoTime();
            // 100 bytes announced, 11 sent, then nothing
            String answer = raw.send("POST /notes HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"text\": \"x").untilClosed();
            assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(450);
            assertThat(answer).startsWith("HTTP/1.1 408 ").contains("Connection: close").endsWith(
                    "{\"error\":\"request body incomplete: the client sent nothing for the idle timeout\"}");
        }
        assertThat(client.get("/ping", Map.class)).isEqualTo(Map.of("pong", true));
    }

    @Test
    void aHandlerThatWaitsLongerThanTheIdleTimeoutStillAnswers() {
        // a long poll: the client sent its whole request and waits; the server is the one busy
        assertThat(client.get("/slow", Map.class)).isEqualTo(Map.of("waited", 1500));
    }

    /** Stands for a long poll that finds nothing to report: waits the whole time. */
    private static int waitMs(int ms) {
        try {
            new CountDownLatch(1).await(ms, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return ms;
    }

    /**
     * The JDK's client keeps an idle connection 1,200 s by default, our servers 30 s: a call on one the
     * server had just closed failed ("header parser received no bytes"). Once a client is made, the
     * JDK's keep-alive is under the server's idle timeout.
     */
    @Test
    void theClientLetsAnIdleConnectionGoBeforeTheServerDoes() {
        assertThat(client.get("/ping", Map.class)).isEqualTo(Map.of("pong", true));
        assertThat(Long.getLong("jdk.httpclient.keepalive.timeout")).isEqualTo(Transport.KEEP_ALIVE_SECONDS)
                .isLessThan(JsonHttpServer.DEFAULT_IDLE_TIMEOUT.toSeconds());
    }
}
