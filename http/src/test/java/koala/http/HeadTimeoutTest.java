package koala.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request's head (request line and headers) must arrive within the head timeout, however slowly it
 * trickles: a client that sends a header line now and then never stalls long enough for the idle
 * timeout (30 s here), but is closed once its head has taken the head timeout (1 s here), with a 408
 * when the server can still write one. Other clients are served meanwhile.
 */
class HeadTimeoutTest {
    /** The head timeout of these tests. */
    private static final long BOUND_MS = 1000;
    /** What a close may take past the bound: the server looks at its connections every 250 ms, and this host is shared. */
    private static final long MARGIN_MS = 1500;
    /** A header line every 200 ms: far more often than the 30 s idle timeout. */
    private static final long TRICKLE_MS = 200;

    @TempDir
    Path dir;

    private JsonHttpServer server;
    private JsonHttpClient client;
    private Path socket;
    private final ScheduledExecutorService trickler = Executors.newScheduledThreadPool(2);
    private final ExecutorService readers = Executors.newCachedThreadPool();

    @BeforeEach
    void start() throws IOException {
        socket = dir.resolve("koala.sock");
        server = JsonHttpServer.builder().endpoints(List.of(Endpoint.loopback("local", 0), Endpoint.unix("unix", socket)))
                .threads(2).headTimeout(Duration.ofMillis(BOUND_MS)).build();
        server.route("GET", "/ping", r -> Response.ok(Map.of("pong", true)));
        server.start();
        client = new JsonHttpClient(URI.create("http://127.0.0.1:" + server.port()), Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        trickler.shutdownNow();
        readers.shutdownNow();
        server.close();
    }

    @Test
    void aHeadThatStopsHalfwayGetsA408AtTheHeadTimeoutLongBeforeTheIdleTimeout() throws IOException {
        try (RawHttp raw = new RawHttp(server.port())) {
            long start = System.nanoTime();
            String answer = raw.send("GET /ping HTTP/1.1\r\nHost: test\r\n").untilClosed();
            long waitedMs = (System.nanoTime() - start) / 1_000_000;
            assertThat(waitedMs).isBetween(BOUND_MS - 50, BOUND_MS + MARGIN_MS);
            assertThat(answer).startsWith("HTTP/1.1 408 ").contains("Connection: close").contains("application/json")
                    .endsWith("{\"error\":\"request head incomplete: the request line and headers must arrive within "
                            + "1 s\"}");
        }
        assertThat(client.get("/ping", Map.class)).isEqualTo(Map.of("pong", true));
    }

    @Test
    void sixteenTricklingClientsOnTcpAndEightOnTheUnixSocketAreAllClosedWhileOthersAreServed() throws Exception {
        List<CompletableFuture<Long>> closed = new ArrayList<>();
        List<AutoCloseable> connections = new ArrayList<>();
        try {
            for (int i = 0; i < 16; i++) {
                RawHttp raw = new RawHttp(server.port());
                connections.add(raw);
                closed.add(trickle(text -> raw.send(text), raw::untilClosed));
            }
            for (int i = 0; i < 8; i++) {
                SocketChannel unix = SocketChannel.open(StandardProtocolFamily.UNIX);
                unix.connect(UnixDomainSocketAddress.of(socket));
                connections.add(unix);
                closed.add(trickle(text -> unix.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1))),
                        () -> untilClosed(unix)));
            }
            // served while every trickler holds a connection, on both endpoints
            assertThat(client.get("/ping", Map.class)).isEqualTo(Map.of("pong", true));
            assertThat(JsonHttpClient.unixSocket(socket, Duration.ofSeconds(5)).get("/ping", Map.class))
                    .isEqualTo(Map.of("pong", true));
            for (CompletableFuture<Long> each : closed) {
                // each still trickling when closed: 5 lines a second would have gone on for 30 s
                assertThat(each.get(RawHttp.PATIENCE_MS, TimeUnit.MILLISECONDS)).isBetween(BOUND_MS - 50, BOUND_MS + MARGIN_MS);
            }
        } finally {
            for (AutoCloseable connection : connections) {
                connection.close();
            }
        }
        assertThat(client.get("/ping", Map.class)).isEqualTo(Map.of("pong", true));
    }

    @Test
    void blankLinesBeforeTheRequestLineCountAsHead() throws IOException {
        try (RawHttp raw = new RawHttp(server.port())) {
            long start = System.nanoTime();
            ScheduledFuture<?> lines = trickler.scheduleAtFixedRate(() -> quietly(() -> raw.send("\r\n")), 0, TRICKLE_MS,
                    TimeUnit.MILLISECONDS);
            String answer = raw.untilClosed();
            lines.cancel(false);
            assertThat((System.nanoTime() - start) / 1_000_000).isBetween(BOUND_MS - 50, BOUND_MS + MARGIN_MS);
            assertThat(answer).satisfiesAnyOf(a -> assertThat(a).isEmpty(), a -> assertThat(a).startsWith("HTTP/1.1 408 "));
        }
    }

    @Test
    void aSlowHeadWithinTheBoundIsAnswered() throws IOException {
        try (RawHttp raw = new RawHttp(server.port())) {
            // four lines 100 ms apart: the head takes 300 ms of the 1000 allowed
            String[] head = {"GET /ping HTTP/1.1\r\n", "Host: test\r\n", "Accept: */*\r\n", "Connection: close\r\n\r\n"};
            AtomicInteger next = new AtomicInteger();
            ScheduledFuture<?> lines = trickler.scheduleAtFixedRate(() -> {
                int i = next.getAndIncrement();
                if (i < head.length) {
                    quietly(() -> raw.send(head[i]));
                }
            }, 0, 100, TimeUnit.MILLISECONDS);
            String answer = raw.untilClosed();
            lines.cancel(false);
            assertThat(answer).startsWith("HTTP/1.1 200 ").endsWith("{\"pong\":true}");
        }
    }

    @Test
    void aKeptAliveConnectionThatWaitsBetweenRequestsIsNotCut() throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /ping HTTP/1.1\r\nHost: test\r\n\r\n");
            assertThat(raw.readAnswer()).startsWith("HTTP/1.1 200 ");
            // idle twice the head timeout between two requests: that is the idle timeout's business (30 s)
            CompletableFuture<Void> later = new CompletableFuture<>();
            trickler.schedule(() -> later.complete(null), 2 * BOUND_MS, TimeUnit.MILLISECONDS);
            later.get(RawHttp.PATIENCE_MS, TimeUnit.MILLISECONDS);
            raw.send("GET /ping HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n");
            assertThat(raw.untilClosed()).startsWith("HTTP/1.1 200 ").endsWith("{\"pong\":true}");
        }
    }

    @FunctionalInterface
    private interface Send {
        void send(String text) throws IOException;
    }

    @FunctionalInterface
    private interface IoAction {
        void run() throws IOException;
    }

    @FunctionalInterface
    private interface Read {
        String read() throws IOException;
    }

    /** A request line, then a header line every {@link #TRICKLE_MS}; the milliseconds until the server closed. */
    private CompletableFuture<Long> trickle(Send send, Read untilClosed) throws IOException {
        long start = System.nanoTime();
        send.send("GET /ping HTTP/1.1\r\n");
        AtomicInteger line = new AtomicInteger();
        ScheduledFuture<?> lines = trickler.scheduleAtFixedRate(
                () -> quietly(() -> send.send("X-Line-" + line.incrementAndGet() + ": trickle\r\n")),
                TRICKLE_MS, TRICKLE_MS, TimeUnit.MILLISECONDS);
        return CompletableFuture.supplyAsync(() -> {
            try {
                String answer = untilClosed.read();
                assertThat(answer).satisfiesAnyOf(a -> assertThat(a).isEmpty(),
                        a -> assertThat(a).startsWith("HTTP/1.1 408 "));
                return (System.nanoTime() - start) / 1_000_000;
            } catch (IOException e) {
                throw new AssertionError(e);
            } finally {
                lines.cancel(false);
            }
        }, readers);
    }

    /** A write after the server closed fails: the reader has seen the close then, or soon will. */
    private static void quietly(IoAction action) {
        try {
            action.run();
        } catch (IOException closedByServer) {
            // expected once the server gave up on this client
        }
    }

    private static String untilClosed(SocketChannel channel) throws IOException {
        try {
            return RawHttp.exchange(channel, "");
        } catch (IOException reset) {
            return "";
        }
    }
}
