package koala.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * The little of HTTP/1.1 that the one-request-per-connection transports ({@link UnixSocketTransport},
 * {@link SocketTransport}) speak to a {@link JsonHttpServer}: a request with {@code Connection: close},
 * and an answer read to the end of the stream with a {@code Content-Length} body — no chunked answers,
 * redirects or pooling.
 */
final class Http1 {
    /** Answers larger than this are refused rather than held (a listing of every job is far smaller). */
    static final int MAX_ANSWER = 64 << 20;

    private Http1() {
    }

    /** The request line and headers, ending with the empty line; the body follows them. */
    static byte[] head(String method, String path, String host, byte[] body, Map<String, String> headers) {
        StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: ").append(host).append("\r\nConnection: close\r\nContent-Length: ")
                .append(body == null ? 0 : body.length).append("\r\n");
        for (Map.Entry<String, String> h : headers.entrySet()) { // no lambda: the node launcher's first request
            head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        return head.append("\r\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A {@link JsonHttpServer} always sends {@code Content-Length}; without one, the body runs to the end. */
    static Transport.Reply parse(byte[] answer) throws IOException {
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
        return new Transport.Reply(status, body);
    }
}
