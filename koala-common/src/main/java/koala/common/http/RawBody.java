package koala.common.http;

import java.util.Objects;

/**
 * A response body written as it is, under its own content type, instead of as JSON: a metrics
 * scrape in a Prometheus text format, say. Errors are still JSON.
 */
public record RawBody(String contentType, byte[] bytes) {
    public RawBody {
        Objects.requireNonNull(contentType, "contentType");
        Objects.requireNonNull(bytes, "bytes");
    }
}
