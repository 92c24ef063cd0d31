package koala.http;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import koala.common.failure.Failure;
import koala.common.json.Json;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.ConnectionMetaData;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;

/**
 * The one Jetty handler of a {@link JsonHttpServer}: turns Jetty's request into a {@link Request},
 * lets {@link Routes} answer it and writes the {@link Response} as JSON (a {@link RawBody} as it is).
 * Every failure becomes a response here: {@link ApiException} its status, a domain {@link Failure}
 * the status {@link FailureStatus} gives it, anything else a logged 500.
 */
final class JettyBridge extends Handler.Abstract {
    private static final Logger LOG = LogManager.getLogger(JsonHttpServer.class);
    private static final String PEER = Peer.class.getName();

    private final Routes routes;
    private final BodyLimit limit;
    private final AtomicLong requests = new AtomicLong();

    JettyBridge(Routes routes, BodyLimit limit) {
        super(InvocationType.BLOCKING); // handlers block (long polls): never on a selector thread
        this.routes = routes;
        this.limit = limit;
    }

    long requests() {
        return requests.get();
    }

    @Override
    public boolean handle(org.eclipse.jetty.server.Request request, org.eclipse.jetty.server.Response response,
                          Callback callback) {
        requests.incrementAndGet();
        // The idle timeout is for stalled clients, which show up as a read or write that waits.
        // A handler that waits on something else (a long poll) is not one: keep its connection.
        request.addIdleTimeoutListener(timeout -> false);
        Response answer;
        boolean close = false;
        try {
            answer = routes.answer(head(request), request.getHttpURI().getPath(), () -> limit.read(request));
        } catch (BodyLimit.Refused e) {
            answer = new Response(e.status(), e.toError());
            close = true;
        } catch (ApiException e) {
            answer = new Response(e.status(), e.toError());
        } catch (Failure e) {
            answer = new Response(FailureStatus.of(e), new ApiError(e.getMessage(), e.field()));
        } catch (RuntimeException e) {
            LOG.error("{} {} failed", request.getMethod(), request.getHttpURI().getPath(), e);
            answer = new Response(500, new ApiError("internal error: " + e, null));
        }
        if (close) {
            refuse(request, response, answer, callback);
        } else {
            send(response, answer, false, callback);
        }
        return true;
    }

    /** The answer first, then the rest of the body dropped ({@link BodyLimit#linger}), then the close. */
    private void refuse(org.eclipse.jetty.server.Request request, org.eclipse.jetty.server.Response response,
                        Response answer, Callback callback) {
        long start = System.nanoTime();
        try (Blocker.Callback written = Blocker.callback()) {
            send(response, answer, true, written);
            written.block();
        } catch (IOException | RuntimeException e) {
            callback.failed(e);
            return;
        }
        limit.linger(request, start);
        callback.succeeded();
    }

    private static void send(org.eclipse.jetty.server.Response response, Response answer, boolean close,
                             Callback callback) {
        RawBody raw = answer.body() instanceof RawBody r ? r : null;
        byte[] bytes = raw != null ? raw.bytes() : answer.body() == null ? new byte[0]
                : Json.write(answer.body()).getBytes(StandardCharsets.UTF_8);
        response.setStatus(answer.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, raw != null ? raw.contentType() : "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        // no browser takes a JSON answer (a job's name, a reason) for a script or a page
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        if (raw != null) {
            raw.headers().forEach((name, value) -> response.getHeaders().put(name, value));
        }
        if (close) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    private static Request head(org.eclipse.jetty.server.Request request) {
        HttpURI uri = request.getHttpURI();
        Map<String, String> headers = new HashMap<>();
        for (HttpField field : request.getHeaders()) {
            headers.putIfAbsent(field.getLowerCaseName(), field.getValue());
        }
        ConnectionMetaData connection = request.getConnectionMetaData();
        return new Request(request.getMethod(), uri.getDecodedPath(), Map.of(), query(uri.getQuery()), new byte[0],
                headers, connection.getConnector().getName(), peer(connection));
    }

    /** Read once per connection: the kernel's answer cannot change while the socket lives. */
    private static Peer peer(ConnectionMetaData connection) {
        SocketAddress remote = connection.getRemoteSocketAddress();
        if (remote instanceof InetSocketAddress) {
            return Peer.network(remote);
        }
        if (connection.getAttribute(PEER) instanceof Peer known) {
            return known;
        }
        Peer peer = channel(connection).flatMap(PeerCredentials::of).map(c -> Peer.unix(remote, c))
                .orElse(Peer.network(remote));
        connection.setAttribute(PEER, peer);
        return peer;
    }

    private static Optional<SocketChannel> channel(ConnectionMetaData connection) {
        EndPoint endPoint = connection.getConnection().getEndPoint();
        while (endPoint instanceof EndPoint.Wrapper wrapper) {
            endPoint = wrapper.unwrap();
        }
        return endPoint.getTransport() instanceof SocketChannel channel ? Optional.of(channel) : Optional.empty();
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            query.put(decode(eq < 0 ? pair : pair.substring(0, eq)), eq < 0 ? "" : decode(pair.substring(eq + 1)));
        }
        return query;
    }

    static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new ApiException(400, "malformed URL encoding in '" + s + "': " + e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "JsonHttpServer routes";
    }
}
