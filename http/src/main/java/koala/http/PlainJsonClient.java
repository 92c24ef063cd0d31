package koala.http;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import koala.common.json.PlainJson;

/**
 * A {@link JsonHttpClient} for the node launcher, which every grow starts: the same wire and the
 * same failures ({@link ApiException} with the server's status, reason and field; 503 when the
 * server cannot be reached, 504 when it does not answer in time), but bodies as plain maps
 * ({@link PlainJson}) over a socket per request ({@link SocketTransport}), so that the first
 * request costs the JVM no Jackson and no JDK HTTP client.
 */
public final class PlainJsonClient {
    private final URI base;
    private final Duration timeout;
    private final Transport transport;
    private final Map<String, String> headers;

    /** A client of the server at this {@code http://} address, sending these headers with every request. */
    public PlainJsonClient(URI base, Duration timeout, Map<String, String> headers) {
        this.base = base;
        this.timeout = timeout;
        this.transport = new SocketTransport(base);
        this.headers = Map.copyOf(headers);
    }

    /** Sends {@code body} (null for none); answers the server's JSON object, empty for an empty answer. */
    public Map<String, Object> call(String method, String path, Map<String, ?> body) {
        return call(method, path, body, Duration.ZERO);
    }

    /** As {@link #call(String, String, Map)}, for a request the server may hold {@code extra} longer (long polls). */
    @SuppressWarnings("unchecked")
    public Map<String, Object> call(String method, String path, Map<String, ?> body, Duration extra) {
        Duration within = timeout.plus(extra);
        Transport.Reply reply;
        try {
            byte[] bytes = body == null ? null : PlainJson.write(body).getBytes(StandardCharsets.UTF_8);
            reply = transport.send(method, path, bytes, bytes == null ? headers : withContentType(), within);
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
        Object answer;
        try {
            answer = reply.body().length == 0 ? Map.of() : PlainJson.read(new String(reply.body(), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new ApiException(502, "unreadable answer (HTTP " + reply.status() + "): " + e.getMessage());
        }
        if (!(answer instanceof Map)) {
            throw new ApiException(502, "unreadable answer (HTTP " + reply.status() + "): not a JSON object");
        }
        Map<String, Object> fields = (Map<String, Object>) answer;
        if (reply.status() >= 400) {
            Object error = fields.getOrDefault("error", "HTTP " + reply.status());
            Object field = fields.get("field");
            throw new ApiException(reply.status(), String.valueOf(error), field == null ? null : field.toString());
        }
        return fields;
    }

    private Map<String, String> withContentType() {
        Map<String, String> sent = new java.util.HashMap<>(headers);
        sent.put("Content-Type", "application/json");
        return sent;
    }
}
