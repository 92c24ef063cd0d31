package koala.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;

/**
 * HTTP/1.1 ({@link Http1}) over a plain TCP socket, one connection per request, for
 * {@link JsonHttpClient#shortLived}: no connection pool, no selector thread and no TLS set-up, which
 * together are most of the JDK client's cost in a process that makes one request and exits. The
 * timeout bounds the connect and each wait for the server: a server silent for that long is a
 * {@link HttpTimeoutException}.
 */
final class SocketTransport implements Transport {
    private final URI base;

    SocketTransport(URI base) {
        if (!"http".equals(base.getScheme()) || base.getHost() == null) {
            throw new IllegalArgumentException("not an http://HOST[:PORT] address: " + base);
        }
        this.base = base;
    }

    @Override
    public Reply send(String method, String path, byte[] body, Map<String, String> headers, Duration timeout)
            throws IOException {
        URI target = base.resolve(path);
        String requestPath = target.getRawPath() + (target.getRawQuery() == null ? "" : "?" + target.getRawQuery());
        int port = base.getPort() < 0 ? 80 : base.getPort();
        int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(base.getHost(), port), millis);
            socket.setSoTimeout(millis);
            socket.getOutputStream().write(Http1.head(method, requestPath, base.getHost() + ":" + port, body, headers));
            if (body != null) {
                socket.getOutputStream().write(body);
            }
            socket.getOutputStream().flush();
            return Http1.parse(readAll(socket.getInputStream()));
        } catch (SocketTimeoutException e) {
            throw new HttpTimeoutException("no answer within " + millis + " ms");
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            out.write(buffer, 0, n);
            if (out.size() > Http1.MAX_ANSWER) {
                throw new IOException("answer larger than " + Http1.MAX_ANSWER + " bytes");
            }
        }
        return out.toByteArray();
    }
}
