package koala.estimate;

import java.util.List;

/**
 * What the scheduler saw submitted lately, from which the estimate draws the jobs still to come: they join the
 * queue behind the ones waiting now and, as no job blocks the ones behind it, may start before a large one
 * that waits for room. Without them the estimate is late for large jobs at high load.
 *
 * @param perHour submissions per hour lately
 * @param recent  the jobs submitted lately (their shapes, policies, owners, names and wall times); a future
 *                submission is one of them again
 */
public record Arrivals(double perHour, List<QueuedJob> recent) {
    /** No submissions foreseen. */
    public static final Arrivals NONE = new Arrivals(0, List.of());

    public Arrivals {
        recent = List.copyOf(recent);
        if (!(perHour >= 0) || perHour > 0 && recent.isEmpty()) {
            throw new IllegalArgumentException("submissions per hour are 0 or more, and come with the jobs submitted lately");
        }
    }
}
