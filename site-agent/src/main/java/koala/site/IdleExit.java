package koala.site;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/**
 * When an agent nobody calls should stop. An agent on a remote head node outlives the SSH
 * connection that started it, so that a scheduler that lost the connection re-attaches to it; but
 * a scheduler gone for good would leave it running for ever. The scheduler polls its agents every
 * few seconds, so an agent that has had no request for {@code limit} has been forgotten.
 */
final class IdleExit {
    private final InstantSource clock;
    private final Duration limit;
    private long lastCount = -1;
    private Instant lastChange;

    IdleExit(InstantSource clock, Duration limit) {
        this.clock = clock;
        this.limit = limit;
        this.lastChange = clock.instant();
    }

    /** Given the number of requests seen so far, true once none has come for the limit. */
    boolean idle(long requestsSeen) {
        if (requestsSeen != lastCount) {
            lastCount = requestsSeen;
            lastChange = clock.instant();
            return false;
        }
        return !clock.instant().isBefore(lastChange.plus(limit));
    }

    Duration limit() {
        return limit;
    }
}
