package koala.scheduler.remote;

import java.time.Duration;
import java.time.Instant;

/**
 * The state of the SSH link to a remote site, as a value: UP, or DOWN with the reason and when to
 * try again. Failures in a row back off 1, 2, 4, 8, 16 s and then every 30 s (the site's
 * {@code ssh.retryMax}), so that a head node that is away for long is not hammered and one that blinked
 * is back within a second or two.
 *
 * <pre>
 * event        from   to     next try
 * connected    any    UP     -
 * lost         UP     DOWN   now + 1 s            (the connection dropped: try again at once)
 * failed       DOWN   DOWN   now + backoff(n+1)   (n failures in a row so far; at most the site's retryMax)
 * </pre>
 *
 * @param lostBecause why and when a connection that was up dropped; kept in the reason of the
 *                    failed tries that follow, until the link is up again
 */
public record Link(boolean up, String reason, int failures, Instant nextTry, String lostBecause) {

    static Link initial() {
        return new Link(false, "not connected yet", 0, Instant.EPOCH, null);
    }

    Link connected() {
        return new Link(true, null, 0, null, null);
    }

    Link lost(String why, Instant now) {
        String cause = why + " at " + now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        return new Link(false, cause, 0, now.plusSeconds(1), cause);
    }

    Link failed(String why, Instant now, Duration most) {
        // after a loss, the loss stays in the reason: an admin sees why the site went down, not only the last try
        return new Link(false, lostBecause == null ? why : lostBecause + "; reconnecting: " + why, failures + 1,
                now.plus(backoff(failures + 1, most)), lostBecause);
    }

    boolean due(Instant now) {
        return !up && !now.isBefore(nextTry);
    }

    /** Delay after the n-th failure in a row: 2^(n-1) seconds, at most {@code most}. */
    static Duration backoff(int n, Duration most) {
        Duration doubled = Duration.ofSeconds(1L << Math.min(Math.max(n - 1, 0), 20));
        return doubled.compareTo(most) <= 0 ? doubled : most;
    }
}
