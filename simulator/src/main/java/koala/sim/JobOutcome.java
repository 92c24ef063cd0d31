package koala.sim;

import java.time.Duration;
import java.util.List;
import koala.placement.Assignment;

/**
 * What became of one job in a {@link MulticlusterQueue} run: when it started and ended and where
 * it ran, or, for a job placement could not place even on an idle grid, why it never ran.
 *
 * @param start       from the start of the run; null when it never ran
 * @param end         likewise
 * @param assignments where its nodes were, as placement gave them; empty when it never ran
 * @param reason      why it never ran, in placement's words; null when it ran
 */
public record JobOutcome(ParallelJob job, Duration start, Duration end, List<Assignment> assignments, String reason) {
    public JobOutcome {
        assignments = List.copyOf(assignments);
    }

    static JobOutcome ran(ParallelJob job, Duration start, Duration end, List<Assignment> assignments) {
        return new JobOutcome(job, start, end, assignments, null);
    }

    static JobOutcome unrunnable(ParallelJob job, String reason) {
        return new JobOutcome(job, null, null, List.of(), reason);
    }

    public boolean didRun() {
        return start != null;
    }

    /** Seconds from arrival to start. */
    public double waitSeconds() {
        return seconds(start.minus(job.arrival()));
    }

    /** Seconds from arrival to end: the wait plus the runtime, extended when the job spanned clusters. */
    public double responseSeconds() {
        return seconds(end.minus(job.arrival()));
    }

    /** Seconds it ran. */
    public double runSeconds() {
        return seconds(end.minus(start));
    }

    /** How many clusters its nodes were on: more than 1 when it was co-allocated. */
    public int clusters() {
        return (int) assignments.stream().map(Assignment::site).distinct().count();
    }

    static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
    }
}
