package koala.sim;

import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;

/**
 * One run of a {@link MulticlusterQueue}: every job's outcome, in job order, and what the figures
 * of the experiment are made of.
 *
 * @param waitingAtLastArrival jobs in the placement queue just after the last job arrived and was
 *                             tried: a queue that keeps growing (an overloaded grid) shows here
 * @param makespan             from the start to the last job's end
 * @param capacity             the grid's nodes
 */
public record QueueRun(MulticlusterQueue.Allocation allocation, double slowdown, List<JobOutcome> outcomes,
        int waitingAtLastArrival, Duration makespan, int capacity) {
    public QueueRun {
        outcomes = List.copyOf(outcomes);
    }

    /** Jobs that ran. */
    public int ran() {
        return (int) outcomes.stream().filter(JobOutcome::didRun).count();
    }

    /** Jobs that could never run: placement could not place them even on an idle grid. */
    public int unrunnable() {
        return outcomes.size() - ran();
    }

    /** Mean wait, seconds, of the jobs that ran. */
    public double meanWaitSeconds() {
        return meanWaitSeconds(o -> true);
    }

    /** Mean response time (wait + runtime), seconds, of the jobs that ran. */
    public double meanResponseSeconds() {
        return meanResponseSeconds(o -> true);
    }

    /** Mean wait, seconds, of the jobs that ran and pass {@code which}; 0 when none does. */
    public double meanWaitSeconds(Predicate<JobOutcome> which) {
        return mean(which, JobOutcome::waitSeconds);
    }

    public double meanResponseSeconds(Predicate<JobOutcome> which) {
        return mean(which, JobOutcome::responseSeconds);
    }

    /** Percent of the jobs that ran whose nodes were on more than one cluster. */
    public double coallocatedPercent() {
        int ran = ran();
        return ran == 0 ? 0 : 100.0 * outcomes.stream().filter(o -> o.didRun() && o.clusters() > 1).count() / ran;
    }

    /** Node-time held by jobs (runtimes as extended) / (capacity × makespan), percent. */
    public double utilizationPercent() {
        double busy = outcomes.stream().filter(JobOutcome::didRun).mapToDouble(o -> o.job().size() * o.runSeconds()).sum();
        double span = JobOutcome.seconds(makespan);
        return span == 0 ? 0 : 100 * busy / (capacity * span);
    }

    private double mean(Predicate<JobOutcome> which, ToDoubleFunction<JobOutcome> figure) {
        return outcomes.stream().filter(o -> o.didRun() && which.test(o)).mapToDouble(figure).average().orElse(0);
    }
}
