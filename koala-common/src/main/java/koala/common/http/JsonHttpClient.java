package koala.common.http;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;
import koala.common.json.Json;

/** A client for a {@link JsonHttpServer}: JSON in, JSON out, a refused request as {@link ApiException}. */
public final class JsonHttpClient {
    private final URI base;
    private final Duration timeout;
    private final HttpClient http;
    private final Map<String, String> headers;

    public JsonHttpClient(URI base, Duration timeout) {
        this(base, timeout, Map.of());
    }

    /** A client that sends these headers with every request (e.g. {@code Authorization}). */
    public JsonHttpClient(URI base, Duration timeout, Map<String, String> headers) {
        this.base = base;
        this.timeout = timeout;
        this.headers = Map.copyOf(headers);
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    public URI base() {
        return base;
    }

    public <T> T get(String path, Class<T> type) {
        return call(builder(path).GET(), Json.mapper().constructType(type));
    }

    public <T> T get(String path, TypeReference<T> type) {
        return call(builder(path).GET(), Json.mapper().constructType(type));
    }

    /** A GET that may legitimately take {@code extra} longer than the usual timeout (long polls). */
    public <T> T getLong(String path, Class<T> type, Duration extra) {
        return call(builder(path).timeout(timeout.plus(extra)).GET(), Json.mapper().constructType(type));
    }

    public <T> T post(String path, Object body, Class<T> type) {
        return call(builder(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(Json.write(body))), Json.mapper().constructType(type));
    }

    public <T> T delete(String path, Class<T> type) {
        return call(builder(path).DELETE(), Json.mapper().constructType(type));
    }

    private HttpRequest.Builder builder(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout);
        headers.forEach(builder::header);
        return builder;
    }

    private <T> T call(HttpRequest.Builder request, JavaType type) {
        HttpResponse<byte[]> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        } catch (ConnectException e) {
            throw new ApiException(503, "cannot reach " + base + ": connection refused");
        } catch (HttpTimeoutException e) {
            throw new ApiException(504, "no answer from " + base + " within " + timeout.toSeconds() + " s");
        } catch (IOException e) {
            throw new ApiException(503, "cannot reach " + base + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "interrupted while calling " + base);
        }
        return read(response, type);
    }

    private static <T> T read(HttpResponse<byte[]> response, JavaType type) {
        try {
            if (response.statusCode() >= 400) {
                ApiError error = response.body().length == 0 ? new ApiError("HTTP " + response.statusCode(), null)
                        : Json.mapper().readValue(response.body(), ApiError.class);
                throw new ApiException(response.statusCode(), error.error(), error.field());
            }
            return response.body().length == 0 ? null : Json.mapper().readValue(response.body(), type);
        } catch (IOException e) {
            throw new ApiException(502, "unreadable answer (HTTP " + response.statusCode() + "): " + e.getMessage());
        }
    }
}
