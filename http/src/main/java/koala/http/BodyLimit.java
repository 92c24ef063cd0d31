package koala.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.io.Content;

/**
 * The most bytes a request body may hold, and the reading that never holds more. A declared
 * {@code Content-Length} past the limit is refused before a byte is read; a chunked body is
 * counted as it arrives and refused as soon as it passes the limit. Either way the answer is a
 * 413 naming the limit, and the server closes the connection rather than read the rest.
 */
record BodyLimit(long maxBytes) {
    /** 1 MiB: the largest body KOALA sends is a JDF, a few kilobytes. */
    static final long DEFAULT = 1 << 20;

    private static final int CHUNK = 8192;

    /** The most a refused client's body is read on after its 413, and for how long. */
    static final long LINGER = 16L << 20;
    static final java.time.Duration LINGER_TIME = java.time.Duration.ofSeconds(2);

    BodyLimit {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("a body limit must be at least 0 bytes, not " + maxBytes);
        }
    }

    /** The whole body, or a 413 (too large), 408 (the client stalled) or 400 (it broke off). */
    byte[] read(org.eclipse.jetty.server.Request request) {
        long declared = request.getLength();
        if (declared > maxBytes) {
            throw tooLarge("its Content-Length is " + declared + " bytes");
        }
        // Not closed when refusing: closing an unfinished stream fails the exchange, and the 413
        // must still be written. The connection is closed after it instead (JettyBridge).
        InputStream in = Content.Source.asInputStream(request);
        ByteArrayOutputStream body = new ByteArrayOutputStream((int) Math.min(Math.max(declared, 0), CHUNK));
        byte[] buffer = new byte[CHUNK];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                if (body.size() + (long) n > maxBytes) {
                    throw tooLarge("more than that arrived");
                }
                body.write(buffer, 0, n);
            }
            in.close();
        } catch (IOException e) {
            throw unreadable(e);
        }
        return body.toByteArray();
    }

    /**
     * After a 413, reads and drops what the client still sends, up to {@link #LINGER} bytes within
     * {@link #LINGER_TIME}: a server that closes with unread bytes makes the kernel reset the
     * connection, and a client still writing its body then sees the reset, not the 413. Past either
     * bound the connection is closed anyway: a client sending gigabytes is not waited for.
     */
    void linger(org.eclipse.jetty.server.Request request, long startNanos) {
        if (request.getLength() > LINGER) {
            return;
        }
        long deadline = startNanos + LINGER_TIME.toNanos();
        long dropped = 0;
        // not closed: that would fail the exchange, whose answer is already written
        InputStream in = Content.Source.asInputStream(request);
        try {
            byte[] buffer = new byte[CHUNK];
            for (int n = in.read(buffer); n >= 0 && dropped <= LINGER && System.nanoTime() < deadline;
                 n = in.read(buffer)) {
                dropped += n;
            }
        } catch (IOException clientGone) {
            // nothing more to drop
        }
    }

    private Refused tooLarge(String why) {
        return new Refused(413, "request body too large: the limit is " + maxBytes + " bytes and " + why);
    }

    private static Refused unreadable(IOException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof TimeoutException) {
                return new Refused(408, "request body incomplete: the client sent nothing for the idle timeout");
            }
        }
        return new Refused(400, "request body unreadable: " + e.getMessage());
    }

    /** A body not read to its end: after the answer the connection must close, its rest unread. */
    static final class Refused extends ApiException {
        Refused(int status, String message) {
            super(status, message);
        }
    }
}
