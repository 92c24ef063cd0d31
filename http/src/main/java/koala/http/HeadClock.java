package koala.http;

import java.time.Duration;
import java.time.Instant;

/**
 * How long the head of a request (its request line and headers) has been arriving on one
 * connection, judged from looks at the connection taken now and then ({@link HeadDeadline} takes
 * one every quarter of the bound, at most every second). No I/O and no clock: each look comes with
 * its time.
 *
 * <p>A head is arriving when the parser is inside one (past the first byte of a request line, short
 * of the blank line that ends the headers), or when bytes came in between two looks that both saw
 * the parser waiting for a request and no request was completed meanwhile: blank lines before a
 * request line, which the parser skips without leaving its waiting state. Its clock starts at the
 * first look that sees it and stops when a request's head is complete (the connection's count of
 * requests moves on) or the parser is past the head. So a head is overdue at most one look's period
 * after the bound, never before it. A connection that waits between requests without sending
 * anything has no head arriving: it is the idle timeout's business.
 *
 * <p>Worked example, bound 1 s, looks every 250 ms: a client sends {@code GET / HTTP/1.1} at
 * 0.1 s and a header line every 0.2 s after. The look at 0.25 s sees the parser inside a head and
 * starts the clock; the looks at 0.5, 0.75 and 1.0 s see the same request still arriving (0.75 s
 * so far); the look at 1.25 s finds it arriving for 1.0 s: overdue.
 */
final class HeadClock {
    /** Where the parser of a connection is. */
    enum Parse {
        /** Waiting for a request: nothing of one parsed yet (blank lines are skipped here). */
        WAITING,
        /** Inside a request's head. */
        HEAD,
        /** Past the head: reading the body, handling the request, answering it, or closed. */
        PAST
    }

    /** One look at a connection: where its parser is, requests whose head it completed, bytes it read. */
    record Look(Parse parse, long requests, long bytesIn) {
        static final Look OPENED = new Look(Parse.WAITING, 0, 0);
    }

    private final Duration bound;
    private Look last;
    private Instant since;

    HeadClock(Duration bound, Look first) {
        this.bound = bound;
        this.last = first;
    }

    /** Takes this look into account: whether the head now arriving has been arriving for the bound or longer. */
    boolean overdue(Look look, Instant now) {
        boolean sameRequest = look.requests() == last.requests();
        if (!sameRequest || look.parse() == Parse.PAST) {
            since = null; // the head that was arriving arrived
        }
        boolean blankLines = look.parse() == Parse.WAITING && last.parse() == Parse.WAITING && sameRequest
                && look.bytesIn() > last.bytesIn();
        if (since == null && (look.parse() == Parse.HEAD || blankLines)) {
            since = now;
        }
        last = look;
        return since != null && Duration.between(since, now).compareTo(bound) >= 0;
    }
}
