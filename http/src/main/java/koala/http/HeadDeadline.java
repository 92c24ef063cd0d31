package koala.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import koala.common.json.Json;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Closes a connection whose request head (request line and headers) has not all arrived within the
 * head timeout, with a 408 first. Jetty's idle timeout drops a client that sends nothing for a
 * while, but one that sends a header line every few seconds is never idle that long and would hold
 * its connection (and, 64 of them, a daemon) for as long as it likes.
 *
 * <p>Listens to every connection of the server's connectors; one task on the server's timer looks
 * at each open connection every quarter of the bound (at most every second) and keeps a
 * {@link HeadClock} per connection. The 408 is written straight to the socket: no request exists
 * yet to answer through.
 */
final class HeadDeadline implements Connection.Listener {
    private static final Logger LOG = LogManager.getLogger(JsonHttpServer.class);

    private final Duration bound;
    private final InstantSource clock;
    private final Map<HttpConnection, HeadClock> open = new ConcurrentHashMap<>();
    private final byte[] answer;
    private volatile Scheduler timer;

    HeadDeadline(Duration bound, InstantSource clock) {
        this.bound = bound;
        this.clock = clock;
        this.answer = answer(bound);
    }

    /** How often connections are looked at: a quarter of the bound, between 10 ms and 1 s. */
    Duration period() {
        long quarter = bound.toMillis() / 4;
        return Duration.ofMillis(Math.max(10, Math.min(1000, quarter)));
    }

    /** Looks at the connections from now on, on {@code timer}, until {@link #stop()}. */
    void start(Scheduler timer) {
        this.timer = timer;
        schedule();
    }

    void stop() {
        timer = null;
    }

    @Override
    public void onOpened(Connection connection) {
        if (connection instanceof HttpConnection http) {
            open.put(http, new HeadClock(bound, HeadClock.Look.OPENED));
        }
    }

    @Override
    public void onClosed(Connection connection) {
        open.remove(connection);
    }

    private void schedule() {
        Scheduler scheduler = timer;
        if (scheduler == null) {
            return;
        }
        try {
            scheduler.schedule(this::lookAtAll, period().toMillis(), TimeUnit.MILLISECONDS);
        } catch (RuntimeException stopping) {
            timer = null;
        }
    }

    private void lookAtAll() {
        try {
            open.forEach((connection, head) -> {
                if (head.overdue(look(connection), clock.instant())) {
                    open.remove(connection);
                    expire(connection);
                }
            });
        } catch (RuntimeException e) {
            LOG.error("looking for request heads past {} failed", bound, e);
        } finally {
            schedule();
        }
    }

    private static HeadClock.Look look(HttpConnection connection) {
        HttpParser parser = connection.getParser();
        HeadClock.Parse parse = parser.isStart() ? HeadClock.Parse.WAITING
                : parser.inHeaderState() ? HeadClock.Parse.HEAD : HeadClock.Parse.PAST;
        return new HeadClock.Look(parse, connection.getMessagesIn(), connection.getBytesIn());
    }

    /** The 408, then the close (at once if the 408 cannot be written). */
    private void expire(HttpConnection connection) {
        EndPoint endPoint = connection.getEndPoint();
        LOG.debug("closing the connection from {}: its request head took longer than {}", endPoint.getRemoteSocketAddress(),
                bound);
        Callback close = Callback.from(() -> close(endPoint), failed -> endPoint.close());
        try {
            endPoint.write(close, ByteBuffer.wrap(answer));
        } catch (RuntimeException e) {
            endPoint.close(); // a write was pending: no room for an answer
        }
    }

    private static void close(EndPoint endPoint) {
        endPoint.shutdownOutput();
        endPoint.close();
    }

    private static byte[] answer(Duration bound) {
        String body = Json.write(new ApiError("request head incomplete: the request line and headers must arrive within "
                + say(bound), null));
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length
                + "\r\nConnection: close\r\n\r\n";
        return (head + body).getBytes(StandardCharsets.UTF_8);
    }

    /** {@code 10 s}, or {@code 1500 ms} when not whole seconds. */
    static String say(Duration duration) {
        long ms = duration.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }
}
