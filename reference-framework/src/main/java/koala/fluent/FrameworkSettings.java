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
 */
public record FrameworkSettings(PolicyKind provisioning, int slotsPerWorker, Duration tIdle) {
    public FrameworkSettings {
        Objects.requireNonNull(provisioning, "provisioning");
        Objects.requireNonNull(tIdle, "tIdle");
        if (slotsPerWorker < 1) {
            throw new IllegalArgumentException("a worker has at least 1 slot, not " + slotsPerWorker);
        }
        if (tIdle.isNegative()) {
            throw new IllegalArgumentException("t_idle " + tIdle + " is negative");
        }
    }
}
