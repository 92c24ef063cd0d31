package koala.common.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * HTTP/1.1 over a Unix domain socket, for {@link JsonHttpClient#unixSocket}: one connection per
 * request ({@code Connection: close}), the answer read to the end of the stream. Just enough for
 * a {@link JsonHttpServer}: a {@code Content-Length} body, no chunked answers, redirects or pooling.
 */
final class UnixSocketTransport implements Transport {
    /** Answers larger than this are refused rather than held (a listing of every job is far smaller). */
    private static final int MAX_ANSWER = 64 << 20;
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
                channel.write(ByteBuffer.wrap(head(method, path, body, headers)));
                if (body != null) {
                    channel.write(ByteBuffer.wrap(body));
                }
                return parse(readAll(channel));
            } catch (AsynchronousCloseException e) {
                throw new HttpTimeoutException("no answer within " + timeout.toMillis() + " ms");
            } finally {
                deadline.cancel(false);
            }
        }
    }

    private static byte[] head(String method, String path, byte[] body, Map<String, String> headers) {
        StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: localhost\r\nConnection: close\r\nContent-Length: ")
                .append(body == null ? 0 : body.length).append("\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        return head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] readAll(SocketChannel channel) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer buffer = ByteBuffer.allocate(8192);
        while (channel.read(buffer) >= 0) {
            out.write(buffer.array(), 0, buffer.position());
            buffer.clear();
            if (out.size() > MAX_ANSWER) {
                throw new IOException("answer larger than " + MAX_ANSWER + " bytes");
            }
        }
        return out.toByteArray();
    }

    /** A {@link JsonHttpServer} always sends {@code Content-Length}; without one, the body runs to the end. */
    private static Reply parse(byte[] answer) throws IOException {
        String text = new String(answer, StandardCharsets.ISO_8859_1); // byte for byte, so offsets agree
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.") || end < 0) {
            throw new IOException("not an HTTP answer: " + text.substring(0, Math.min(40, text.length())));
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        byte[] body = Arrays.copyOfRange(answer, end + 4, answer.length);
        for (String line : lines) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (lower.startsWith("transfer-encoding:")) {
                throw new IOException("a chunked answer: this client reads only Content-Length bodies");
            }
            if (lower.startsWith("content-length:") && Integer.parseInt(lower.substring(15).trim()) != body.length) {
                throw new IOException("answer cut short: " + body.length + " of " + lower.substring(15).trim() + " bytes");
            }
        }
        return new Reply(status, body);
    }

    private static void closeQuietly(SocketChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // closing to end a wait: nothing to add
        }
    }
}
