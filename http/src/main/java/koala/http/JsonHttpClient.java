package koala.http;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import koala.common.json.Json;

/**
 * A client for a {@link JsonHttpServer}: JSON in, JSON out, a refused request as {@link ApiException}.
 * It reaches the server over TCP — with the JDK's client, or a socket per request for a
 * short-lived process ({@link #shortLived}) — or over a Unix domain socket ({@link #unixSocket}),
 * and can carry a bearer token on every request ({@link #withBearer}).
 */
public final class JsonHttpClient {
    private final URI base;
    private final Duration timeout;
    private final Transport transport;
    private final Map<String, String> headers;

    public JsonHttpClient(URI base, Duration timeout) {
        this(base, timeout, Map.of());
    }

    /** A client that sends these headers with every request (e.g. {@code Authorization}). */
    public JsonHttpClient(URI base, Duration timeout, Map<String, String> headers) {
        this(base, timeout, Transport.jdk(base, timeout), headers);
    }

    private JsonHttpClient(URI base, Duration timeout, Transport transport, Map<String, String> headers) {
        this.base = base;
        this.timeout = timeout;
        this.transport = transport;
        this.headers = Map.copyOf(headers);
    }

    /** A client of the server listening on this Unix domain socket; {@link #base()} is {@code unix:PATH}. */
    public static JsonHttpClient unixSocket(Path socket, Duration timeout) {
        Path path = socket.toAbsolutePath();
        return new JsonHttpClient(URI.create("unix:" + path), timeout, new UnixSocketTransport(path), Map.of());
    }

    /**
     * A client for a process that makes a request or two and exits, such as the command line: over
     * {@code http://} it opens a plain socket per request ({@link SocketTransport}) and starts no
     * thread, where the JDK's client would set up TLS, a pool and a selector thread first; an
     * {@code https://} address gets the JDK's client.
     */
    public static JsonHttpClient shortLived(URI base, Duration timeout) {
        Transport transport = "http".equals(base.getScheme()) ? new SocketTransport(base) : Transport.jdk(base, timeout);
        return new JsonHttpClient(base, timeout, transport, Map.of());
    }

    /** The same client (sharing its connections) sending {@code Authorization: Bearer TOKEN} on every request. */
    public JsonHttpClient withBearer(String token) {
        return withHeader("Authorization", "Bearer " + token);
    }

    /** The same client (sharing its connections) sending {@code name: value} on every request. */
    public JsonHttpClient withHeader(String name, String value) {
        Map<String, String> more = new HashMap<>(headers);
        more.put(name, value);
        return new JsonHttpClient(base, timeout, transport, more);
    }

    public URI base() {
        return base;
    }

    public <T> T get(String path, Class<T> type) {
        return call("GET", path, null, timeout, Json.mapper().constructType(type));
    }

    public <T> T get(String path, TypeReference<T> type) {
        return call("GET", path, null, timeout, Json.mapper().constructType(type));
    }

    /** A GET that may legitimately take {@code extra} longer than the usual timeout (long polls). */
    public <T> T getLong(String path, Class<T> type, Duration extra) {
        return call("GET", path, null, timeout.plus(extra), Json.mapper().constructType(type));
    }

    public <T> T post(String path, Object body, Class<T> type) {
        return call("POST", path, Json.write(body).getBytes(StandardCharsets.UTF_8), timeout,
                Json.mapper().constructType(type));
    }

    public <T> T delete(String path, Class<T> type) {
        return call("DELETE", path, null, timeout, Json.mapper().constructType(type));
    }

    /**
     * A call in plain JSON ({@link koala.common.json.PlainJson}): the body a map, the answer a map. For a
     * command whose start is on the clock: Jackson's object mapper alone loads some 660 classes.
     */
    @SuppressWarnings("unchecked")
    public Map<String, Object> plain(String method, String path, Map<String, ?> body) {
        byte[] bytes = body == null ? null : koala.common.json.PlainJson.write(body).getBytes(StandardCharsets.UTF_8);
        Transport.Reply reply = send(method, path, bytes, timeout);
        String text = new String(reply.body(), StandardCharsets.UTF_8);
        Object value;
        try {
            value = text.isEmpty() ? Map.of() : koala.common.json.PlainJson.read(text);
        } catch (IllegalArgumentException e) {
            throw new ApiException(502, "unreadable answer (HTTP " + reply.status() + "): " + e.getMessage());
        }
        Map<String, Object> map = value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        if (reply.status() >= 400) {
            Object error = map.get("error");
            Object field = map.get("field");
            throw new ApiException(reply.status(), error == null ? "HTTP " + reply.status() : error.toString(),
                    field == null ? null : field.toString());
        }
        return map;
    }

    private <T> T call(String method, String path, byte[] body, Duration within, JavaType type) {
        return read(send(method, path, body, within), type);
    }

    private Transport.Reply send(String method, String path, byte[] body, Duration within) {
        Map<String, String> sent = headers;
        if (body != null) {
            sent = new HashMap<>(headers);
            sent.put("Content-Type", "application/json");
        }
        Transport.Reply reply;
        try {
            reply = transport.send(method, path, body, sent, within);
        } catch (ConnectException e) {
            throw ApiException.unreached("cannot reach " + base + ": connection refused");
        } catch (HttpTimeoutException e) {
            throw new ApiException(504, "no answer from " + base + " within " + within.toSeconds() + " s");
        } catch (IOException e) {
            throw ApiException.unreached("cannot reach " + base + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "interrupted while calling " + base);
        }
        return reply;
    }

    private static <T> T read(Transport.Reply reply, JavaType type) {
        try {
            if (reply.status() >= 400) {
                ApiError error = reply.body().length == 0 ? new ApiError("HTTP " + reply.status(), null)
                        : Json.mapper().readValue(reply.body(), ApiError.class);
                throw new ApiException(reply.status(), error.error(), error.field());
            }
            return reply.body().length == 0 ? null : Json.mapper().readValue(reply.body(), type);
        } catch (IOException e) {
            throw new ApiException(502, "unreadable answer (HTTP " + reply.status() + "): " + e.getMessage());
        }
    }
}
