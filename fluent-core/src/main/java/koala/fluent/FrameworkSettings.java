package koala.fluent;

import koala.provisioning.PolicyKind;
import java.time.Duration;
import java.util.Objects;

/**
 * What the master is configured with.
 *
 * @param slotsPerWorker slots of a worker that joins without saying otherwise, and of the new
 *                       workers a grow asks for (8 in the example)
 * @param tIdle          how long a worker is idle before the master asks to release it
 * @param maxSuspensions how often one SWC may be suspended for RLs ({@link Suspensions}); 0: never,
 *                       an RL without an idle worker is rejected (or grown for) as before
 * @param moveSuspended  whether a suspended SWC's components may move to free slots on other
 *                       workers (their state carried) instead of waiting for the RL to end
 */
public record FrameworkSettings(PolicyKind provisioning, int slotsPerWorker, Duration tIdle, int maxSuspensions,
        boolean moveSuspended) {
    /** The number of suspensions a master allows unless told otherwise. */
    public static final int DEFAULT_MAX_SUSPENSIONS = 3;

    /** Settings without suspension. */
    public FrameworkSettings(PolicyKind provisioning, int slotsPerWorker, Duration tIdle) {
        this(provisioning, slotsPerWorker, tIdle, 0, false);
    }

    public FrameworkSettings {
        Objects.requireNonNull(provisioning, "provisioning");
        Objects.requireNonNull(tIdle, "tIdle");
        if (slotsPerWorker < 1) {
            throw new IllegalArgumentException("a worker has at least 1 slot, not " + slotsPerWorker);
        }
        if (tIdle.isNegative()) {
            throw new IllegalArgumentException("t_idle " + tIdle + " is negative");
        }
        if (maxSuspensions < 0) {
            throw new IllegalArgumentException("at most " + maxSuspensions + " suspensions: not a count");
        }
    }

    /** These settings with SWCs suspended for RLs at most {@code times} times each, moving or not. */
    public FrameworkSettings withSuspension(int times, boolean moves) {
        return new FrameworkSettings(provisioning, slotsPerWorker, tIdle, times, moves);
    }
}
