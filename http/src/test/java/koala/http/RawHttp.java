package koala.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/** Bytes on a bare socket, for what a well-behaved client never sends: stalls, huge bodies. */
final class RawHttp implements AutoCloseable {
    /** How long a test waits for the server to act before it fails. */
    static final int PATIENCE_MS = 10_000;

    private final Socket socket;

    RawHttp(int port) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(PATIENCE_MS);
    }

    RawHttp send(String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
        return this;
    }

    /**
     * Everything the server sends until it closes the connection; fails if it is still open
     * after {@link #PATIENCE_MS}. A reset counts as closed: a server may reset a connection
     * whose request it did not read.
     */
    String untilClosed() throws IOException {
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                seen.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("server kept the connection open for " + PATIENCE_MS + " ms; it sent: "
                    + seen.toString(StandardCharsets.ISO_8859_1), e);
        } catch (IOException reset) {
            // closed with unread bytes: as closed as a FIN
        }
        return seen.toString(StandardCharsets.ISO_8859_1);
    }

    /** One answer with a Content-Length body, the connection left open (kept alive). */
    String readAnswer() throws IOException {
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        int length = -1;
        int headEnd = -1;
        while (length < 0 || seen.size() < headEnd + length) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed mid-answer: " + seen.toString(StandardCharsets.ISO_8859_1));
            }
            seen.write(b);
            String text = seen.toString(StandardCharsets.ISO_8859_1);
            if (headEnd < 0 && text.endsWith("\r\n\r\n")) {
                headEnd = text.length();
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)").matcher(text);
                length = m.find() ? Integer.parseInt(m.group(1)) : 0;
            }
        }
        return seen.toString(StandardCharsets.ISO_8859_1);
    }

    Socket socket() {
        return socket;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** One request over a Unix domain socket channel, the whole answer back (the server closes after it). */
    static String exchange(SocketChannel channel, String request) throws IOException {
        channel.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.ISO_8859_1)));
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        ByteBuffer buffer = ByteBuffer.allocate(8192);
        while (channel.read(buffer) >= 0) {
            seen.write(buffer.array(), 0, buffer.position());
            buffer.clear();
        }
        return seen.toString(StandardCharsets.ISO_8859_1);
    }

    /** The body of a whole HTTP answer. */
    static String body(String answer) {
        return answer.substring(answer.indexOf("\r\n\r\n") + 4);
    }
}
