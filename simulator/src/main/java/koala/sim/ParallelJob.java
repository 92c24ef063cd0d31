package koala.sim;

import java.time.Duration;

/**
 * A rigid parallel job: it needs {@code size} nodes at once for {@code runtime} (on one cluster;
 * spread over several it may run longer, see {@link MulticlusterQueue}).
 *
 * @param id      its position in the workload, from 1
 * @param arrival when it is submitted, from the start of the run
 */
public record ParallelJob(int id, Duration arrival, int size, Duration runtime) {
    public ParallelJob {
        if (size < 1 || arrival.isNegative() || runtime.isNegative() || runtime.isZero()) {
            throw new IllegalArgumentException("job " + id + ": needs at least 1 node, an arrival at or after 0 and a "
                    + "positive runtime");
        }
    }

    /** Job {@code id} arriving {@code arrivalSeconds} after the start, {@code size} nodes for {@code runtimeSeconds}. */
    public static ParallelJob of(int id, double arrivalSeconds, int size, double runtimeSeconds) {
        return new ParallelJob(id, millis(arrivalSeconds), size, millis(runtimeSeconds));
    }

    static Duration millis(double seconds) {
        return Duration.ofMillis(Math.round(seconds * 1000));
    }
}
