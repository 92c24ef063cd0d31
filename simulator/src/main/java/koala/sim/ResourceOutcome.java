package koala.sim;

import java.time.Duration;
import java.util.List;
import koala.placement.Assignment;

/**
 * What became of one job in a {@link ResourceQueue} run: when it started (its last try) and ended and
 * on which hosts, or why it never ran.
 *
 * @param start       from the start of the run; null when it never ran
 * @param end         likewise
 * @param assignments where its nodes were, each naming the host of each node; empty when it never ran
 * @param failedTries how many times it was placed where it did not fit and failed before this
 * @param reason      why it never ran; null when it ran
 */
public record ResourceOutcome(ResourceJob job, Duration start, Duration end, List<Assignment> assignments, int failedTries,
        String reason) {
    public ResourceOutcome {
        assignments = List.copyOf(assignments);
    }

    static ResourceOutcome ran(ResourceJob job, Duration start, Duration end, List<Assignment> assignments, int failedTries) {
        return new ResourceOutcome(job, start, end, assignments, failedTries, null);
    }

    static ResourceOutcome neverRunnable(ResourceJob job, String reason) {
        return new ResourceOutcome(job, null, null, List.of(), 0, reason);
    }

    static ResourceOutcome givenUp(ResourceJob job, int tries) {
        return new ResourceOutcome(job, null, null, List.of(), tries, "given up after " + tries
                + (tries == 1 ? " try" : " tries") + " placed where it did not fit");
    }

    public boolean didRun() {
        return start != null;
    }

    /** Seconds from its first arrival to the start of the try that ran. */
    public double waitSeconds() {
        return JobOutcome.seconds(start.minus(job.arrival()));
    }
}
