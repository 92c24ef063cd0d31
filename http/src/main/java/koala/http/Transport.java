package koala.http;

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

    /**
     * How long the JDK's client keeps an idle connection for reuse, seconds: less than the 30 s after
     * which our servers close one ({@link JsonHttpServer#DEFAULT_IDLE_TIMEOUT}). With the JDK's 1,200 s, a call sent on a
     * connection the server had just closed failed with "header parser received no bytes" — a
     * DeviceManager's word count lost for it — and a POST is not sent again by the JDK.
     */
    long KEEP_ALIVE_SECONDS = 20;

    /** TCP through {@link HttpClient}; one per {@link JsonHttpClient} and its {@code withBearer} copies. */
    static Transport jdk(URI base, Duration connectTimeout) {
        KeepAlive.set();
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

    /**
     * Sets the JDK client's keep-alive ({@code jdk.httpclient.keepalive.timeout}) before its connection
     * pool reads it, once, when the first client is made; a value given on the command line is kept.
     */
    final class KeepAlive {
        private static final String PROPERTY = "jdk.httpclient.keepalive.timeout";

        static {
            if (System.getProperty(PROPERTY) == null) {
                System.setProperty(PROPERTY, Long.toString(KEEP_ALIVE_SECONDS));
            }
        }

        private KeepAlive() {
        }

        static void set() {
            // the static initializer does it, once
        }
    }
}
