package koala.sim;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import koala.placement.Resources;

/**
 * One run of a {@link ResourceQueue}: every job's outcome, in job order, and what the figures are made
 * of. Resource-seconds are cores, MiB and GPUs times seconds, in that order.
 *
 * @param waitingAtLastArrival jobs in the queue just after the last one arrived and was tried: a queue
 *                             that keeps growing (an overloaded grid) shows here
 * @param misfitPlacements     times a job was started with a node on a host that lacked what it needs
 * @param misfitNodes          nodes so started
 * @param makespan             from the start to the last job's end (or last failure)
 * @param lastLeft             from the start to the last time a job left the queue (it started, or its user
 *                             gave it up): the end of the part of the run in which the grid had work waiting
 * @param total                what the grid has
 * @param used                 resource-seconds the jobs that ran asked for, while they ran: the useful work
 * @param held                 resource-seconds their nodes held (a whole host each under node-granular placement)
 * @param lost                 resource-seconds held by tries that failed because a node did not fit
 */
public record ResourceRun(ResourceQueue.Mode mode, List<ResourceOutcome> outcomes, int waitingAtLastArrival,
        int misfitPlacements, int misfitNodes, Duration makespan, Duration lastLeft, Resources total, double[] used, double[] held,
        double[] lost) {
    public ResourceRun {
        outcomes = List.copyOf(outcomes);
    }

    public int ran() {
        return (int) outcomes.stream().filter(ResourceOutcome::didRun).count();
    }

    /** Jobs that never ran: placement could not place them even on an idle grid, or their user gave up. */
    public int neverRan() {
        return outcomes.size() - ran();
    }

    /** Jobs their user gave up after they failed every try, placed where they did not fit. */
    public int givenUp() {
        return (int) outcomes.stream().filter(o -> !o.didRun() && o.failedTries() > 0).count();
    }

    /**
     * Jobs that ran to their end per hour, counted until the last job left the queue ({@link #lastLeft}):
     * the jobs a placement gets done while there is work for it, without the run's tail, in which the last
     * jobs run out on a grid that has nothing left to place (a few long jobs, whose length is luck).
     * 0 when no job ended by then.
     */
    public double jobsPerHour() {
        double hours = lastLeft.toMillis() / 3_600_000.0;
        long done = outcomes.stream().filter(o -> o.didRun() && o.end().compareTo(lastLeft) <= 0).count();
        return hours == 0 ? 0 : done / hours;
    }

    public double meanWaitSeconds() {
        return Arrays.stream(waits()).average().orElse(0);
    }

    /** The {@code q} quantile of the waits of the jobs that ran (nearest rank); 0 when none ran. */
    public double waitQuantileSeconds(double q) {
        double[] w = waits();
        if (w.length == 0) {
            return 0;
        }
        Arrays.sort(w);
        int rank = (int) Math.ceil(q * w.length);
        return w[Math.max(0, Math.min(w.length - 1, rank - 1))];
    }

    private double[] waits() {
        return outcomes.stream().filter(ResourceOutcome::didRun).mapToDouble(ResourceOutcome::waitSeconds).toArray();
    }

    /** Percent of the grid's cores (0), memory (1) or GPUs (2) over the run that the jobs that ran used. */
    public double usedPercent(int dimension) {
        return percent(used, dimension);
    }

    /** Percent of the grid's cores, memory or GPUs over the run that their nodes held. */
    public double heldPercent(int dimension) {
        return percent(held, dimension);
    }

    /** Percent of the grid's cores, memory or GPUs over the run that tries placed where they did not fit held. */
    public double lostPercent(int dimension) {
        return percent(lost, dimension);
    }

    private double percent(double[] resourceSeconds, int d) {
        double has = switch (d) {
            case 0 -> total.cores();
            case 1 -> total.memoryMiB();
            case 2 -> total.gpus();
            default -> throw new IllegalArgumentException("dimension 0, 1 or 2, not " + d);
        };
        double span = makespan.toMillis() / 1000.0;
        return has == 0 || span == 0 ? 0 : 100 * resourceSeconds[d] / (has * span);
    }
}
