package koala.common.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * How a {@link JsonHttpClient} reaches its server: over TCP with the JDK's client, or over a Unix
 * domain socket ({@link UnixSocketTransport}), which the JDK's client cannot do.
 */
interface Transport {
    /** A status and the raw body of an answer. */
    record Reply(int status, byte[] body) {
    }

    /**
     * Sends one request ({@code body} null for none); a connection refused is a
     * {@link java.net.ConnectException}, no answer in time a {@link java.net.http.HttpTimeoutException}.
     */
    Reply send(String method, String path, byte[] body, Map<String, String> headers, Duration timeout)
            throws IOException, InterruptedException;

    /** TCP through {@link HttpClient}; one per {@link JsonHttpClient} and its {@code withBearer} copies. */
    static Transport jdk(URI base, Duration connectTimeout) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(connectTimeout).build();
        return (method, path, body, headers, timeout) -> {
            HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(timeout)
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            headers.forEach(request::header);
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Reply(response.statusCode(), response.body());
        };
    }
}
