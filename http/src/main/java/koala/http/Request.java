package koala.http;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import koala.common.json.Json;

/**
 * One HTTP request as a handler sees it: path parameters, query parameters, the raw body, the
 * headers (names in lower case, first value), the name of the {@link Endpoint} it came through
 * and who sent it ({@link Peer}: over a Unix domain socket, the kernel-verified user).
 */
public record Request(String method, String path, Map<String, String> pathParams, Map<String, String> query,
                      byte[] body, Map<String, String> headers, String endpoint, Peer peer) {

    public Request(String method, String path, Map<String, String> pathParams, Map<String, String> query, byte[] body) {
        this(method, path, pathParams, query, body, Map.of());
    }

    public Request(String method, String path, Map<String, String> pathParams, Map<String, String> query,
                   byte[] body, Map<String, String> headers) {
        this(method, path, pathParams, query, body, headers, Endpoint.DEFAULT, Peer.UNKNOWN);
    }

    Request withPathParams(Map<String, String> params) {
        return new Request(method, path, params, query, body, headers, endpoint, peer);
    }

    Request withBody(byte[] bytes) {
        return new Request(method, path, pathParams, query, bytes, headers, endpoint, peer);
    }

    /** A request header, by its name in any case. */
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name.toLowerCase(java.util.Locale.ROOT)));
    }

    public String param(String name) {
        return pathParams.get(name);
    }

    public Optional<String> queryParam(String name) {
        return Optional.ofNullable(query.get(name));
    }

    /**
     * Reads the body as {@code type}; a malformed body is a 400 naming the offending field and
     * what was wrong with it (the shared mapper refuses coercions: {@code "2"} or {@code 1.5} is
     * not an {@code int}).
     */
    public <T> T body(Class<T> type) {
        if (body.length == 0) {
            throw new ApiException(400, "request body is empty; expected a JSON object");
        }
        T value;
        try {
            value = Json.mapper().readValue(body, type);
        } catch (IOException e) {
            throw BodyError.of(e, body);
        }
        if (value == null) {
            throw new ApiException(400, "request body is null; expected a JSON object");
        }
        return value;
    }
}
