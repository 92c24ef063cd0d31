package koala.http;

import java.util.Map;
import java.util.Objects;

/**
 * A response body written as it is, under its own content type, instead of as JSON: a metrics
 * scrape in a Prometheus text format, say, or a web page. Errors are still JSON.
 *
 * @param headers more response headers to send with it (a page's {@code Content-Security-Policy}),
 *                by name; none by default
 */
public record RawBody(String contentType, byte[] bytes, Map<String, String> headers) {
    public RawBody {
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(bytes, "bytes");
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }

    public RawBody(String contentType, byte[] bytes) {
        this(contentType, bytes, Map.of());
    }
}
