package koala.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * HTTP/1.1 ({@link Http1}) over a Unix domain socket, for {@link JsonHttpClient#unixSocket}: one
 * connection per request, the answer read to the end of the stream.
 */
final class UnixSocketTransport implements Transport {
    /** Closes the channel of a request past its timeout, which ends a blocked read. */
    private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "unix-http-deadlines");
        t.setDaemon(true);
        return t;
    });

    private final Path socket;

    UnixSocketTransport(Path socket) {
        this.socket = socket;
    }

    @Override
    public Reply send(String method, String path, byte[] body, Map<String, String> headers, Duration timeout)
            throws IOException {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ScheduledFuture<?> deadline = DEADLINES.schedule(() -> closeQuietly(channel), timeout.toMillis(),
                    TimeUnit.MILLISECONDS);
            try {
                channel.connect(UnixDomainSocketAddress.of(socket));
                channel.write(ByteBuffer.wrap(Http1.head(method, path, "localhost", body, headers)));
                if (body != null) {
                    channel.write(ByteBuffer.wrap(body));
                }
                return Http1.parse(readAll(channel));
            } catch (AsynchronousCloseException e) {
                throw new HttpTimeoutException("no answer within " + timeout.toMillis() + " ms");
            } finally {
                deadline.cancel(false);
            }
        }
    }

    private static byte[] readAll(SocketChannel channel) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer buffer = ByteBuffer.allocate(8192);
        while (channel.read(buffer) >= 0) {
            out.write(buffer.array(), 0, buffer.position());
            buffer.clear();
            if (out.size() > Http1.MAX_ANSWER) {
                throw new IOException("answer larger than " + Http1.MAX_ANSWER + " bytes");
            }
        }
        return out.toByteArray();
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // closing to end a wait: nothing to add
        }
    }
}
