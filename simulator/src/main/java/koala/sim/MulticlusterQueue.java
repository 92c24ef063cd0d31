package koala.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import koala.placement.Assignment;
import koala.placement.PlacementDecision;
import koala.placement.FileLocations;
import koala.placement.GridView;
import koala.placement.JobNeed;
import koala.placement.SiteView;

/**
 * Rigid parallel jobs on a multicluster grid in virtual time, placed by the scheduler's own
 * placement code ({@code koala.placement}) from one placement queue: the question of Sonmez,
 * Mohamed and Epema (IEEE TPDS 2010), whether co-allocation pays.
 *
 * <p>A job of {@code s} nodes arrives, joins the queue and is tried at once. Either it is held to
 * one cluster ({@link Allocation#ONE_CLUSTER}: it starts when one cluster has {@code s} idle nodes),
 * or it may be co-allocated ({@link Allocation#COALLOCATED}: placement may split it over clusters,
 * as {@link JobSplit} says). A job placed on more than one cluster runs {@code slowdown} times its
 * runtime (rounded to the millisecond): the wide-area communication. Its nodes are all taken at its
 * start and all given back at its end.
 *
 * <p>The queue is tried whenever nodes come free or a job arrives, once per instant after every
 * arrival and end due then. {@link Discipline#FCFS}: in order of arrival, stopping at the first job
 * that cannot be placed (no job overtakes another). {@link Discipline#IN_ORDER}: in order of
 * arrival, a job that cannot be placed does not block the ones behind it, as the scheduler's
 * {@code PlacementQueue} does. A job that placement cannot place even on an idle grid (larger than
 * every cluster when held to one, larger than the grid when co-allocated) never enters the queue:
 * it is counted as unrunnable, with placement's reason.
 *
 * <p>No I/O and no clock: the run is a function of its arguments.
 */
public final class MulticlusterQueue {
    /** A cluster and its nodes (all of them KOALA's: no local users). */
    public record Cluster(String name, int nodes) {
        public Cluster {
            if (name == null || name.isBlank() || nodes < 1) {
                throw new IllegalArgumentException("a cluster has a name and at least 1 node, got " + name + " " + nodes);
            }
        }

        /** "fs0 16". */
        @Override
        public String toString() {
            return name + " " + nodes;
        }
    }

    /** Whether a job may be spread over clusters. */
    public enum Allocation {
        /** Held to one cluster. */
        ONE_CLUSTER,
        /** Placement may split it over several, and it then runs {@code slowdown} times longer. */
        COALLOCATED
    }

    /** The order the placement queue is tried in. */
    public enum Discipline {
        /** First come, first served: the first job that cannot be placed blocks those behind it. */
        FCFS,
        /** In order of arrival, skipping the jobs that cannot be placed (the scheduler's queue). */
        IN_ORDER
    }

    /** The grid, how jobs ask placement for nodes, and the queue's order. */
    public record Setup(List<Cluster> clusters, JobSplit split, Discipline discipline) {
        public Setup {
            clusters = List.copyOf(clusters);
            Set<String> names = new HashSet<>();
            if (clusters.isEmpty() || !clusters.stream().allMatch(c -> names.add(c.name()))) {
                throw new IllegalArgumentException("need at least one cluster, each named once");
            }
        }

        /** The grid's nodes. */
        public int capacity() {
            return clusters.stream().mapToInt(Cluster::nodes).sum();
        }

        /** The nodes of the largest cluster. */
        public int largest() {
            return clusters.stream().mapToInt(Cluster::nodes).max().orElse(0);
        }
    }

    private static final Instant START = Instant.EPOCH;

    private final Setup setup;
    private final Allocation allocation;
    private final double slowdown;
    private final EventQueue events = new EventQueue(START);
    private final Map<String, Integer> index;
    private final int[] idle;
    private final ArrayDeque<ParallelJob> waiting = new ArrayDeque<>();
    private final JobOutcome[] outcomes;
    private boolean dispatchDue;
    private int waitingAtLastArrival;
    private Instant lastEnd = START;

    private MulticlusterQueue(Setup setup, int jobs, Allocation allocation, double slowdown) {
        this.setup = setup;
        this.allocation = allocation;
        this.slowdown = slowdown;
        List<Cluster> clusters = setup.clusters();
        this.index = java.util.stream.IntStream.range(0, clusters.size()).boxed()
                .collect(Collectors.toMap(i -> clusters.get(i).name(), Function.identity()));
        this.idle = clusters.stream().mapToInt(Cluster::nodes).toArray();
        this.outcomes = new JobOutcome[jobs];
    }

    /**
     * Runs {@code jobs} (numbered 1..n, as {@link ParallelWorkload} numbers them) until every job
     * that can run has ended.
     *
     * @param slowdown how many times its runtime a job placed on more than one cluster runs; at least
     *                 1 is what wide-area links give, below 1 is allowed (a faster remote cluster)
     */
    public static QueueRun run(Setup setup, List<ParallelJob> jobs, Allocation allocation, double slowdown) {
        if (!(slowdown > 0) || Double.isInfinite(slowdown)) {
            throw new IllegalArgumentException("a slowdown is a positive factor, got " + slowdown);
        }
        for (int i = 0; i < jobs.size(); i++) {
            if (jobs.get(i).id() != i + 1) {
                throw new IllegalArgumentException("jobs are numbered 1..n in order; job " + (i + 1) + " is numbered "
                        + jobs.get(i).id());
            }
        }
        return new MulticlusterQueue(setup, jobs.size(), allocation, slowdown).run(jobs);
    }

    private QueueRun run(List<ParallelJob> jobs) {
        Duration last = jobs.stream().map(ParallelJob::arrival).max(Duration::compareTo).orElse(Duration.ZERO);
        for (ParallelJob job : jobs) {
            events.at(START.plus(job.arrival()), () -> arrive(job));
        }
        // after every arrival due at the last arrival's instant and the queue's try then
        events.at(START.plus(last), () -> events.at(events.instant(), () -> waitingAtLastArrival = waiting.size()));
        events.runUntil(Instant.ofEpochMilli(Long.MAX_VALUE));
        return new QueueRun(allocation, slowdown, List.of(outcomes), waitingAtLastArrival,
                Duration.between(START, lastEnd), setup.capacity());
    }

    private void arrive(ParallelJob job) {
        if (place(job, allIdle()) instanceof PlacementDecision.NotPlaced never) {
            outcomes[job.id() - 1] = JobOutcome.unrunnable(job, never.reasons().toString());
            return;
        }
        waiting.add(job);
        dispatchSoon();
    }

    /** Tries the queue once, after everything else due at this instant. */
    private void dispatchSoon() {
        if (!dispatchDue) {
            dispatchDue = true;
            events.at(events.instant(), this::dispatch);
        }
    }

    private void dispatch() {
        dispatchDue = false;
        int totalIdle = java.util.Arrays.stream(idle).sum();
        for (Iterator<ParallelJob> it = waiting.iterator(); it.hasNext(); ) {
            ParallelJob job = it.next();
            // no policy places more nodes than are idle: spare it the call
            if (job.size() <= totalIdle && place(job, view()) instanceof PlacementDecision.Placed placed) {
                it.remove();
                start(job, placed.assignments());
                totalIdle -= job.size();
            } else if (setup.discipline() == Discipline.FCFS) {
                return;
            }
        }
    }

    private PlacementDecision place(ParallelJob job, GridView grid) {
        JobNeed need = allocation == Allocation.ONE_CLUSTER ? setup.split().oneCluster(job) : setup.split().coallocated(job);
        return setup.split().policy().place(need, grid);
    }

    private void start(ParallelJob job, List<Assignment> assignments) {
        for (Assignment a : assignments) {
            idle[index.get(a.site())] -= a.nodes();
        }
        long runtime = job.runtime().toMillis();
        boolean spans = assignments.stream().map(Assignment::site).distinct().count() > 1;
        Duration runs = Duration.ofMillis(spans ? Math.round(runtime * slowdown) : runtime);
        Instant now = events.instant();
        events.after(runs, () -> end(job, assignments, now));
    }

    private void end(ParallelJob job, List<Assignment> assignments, Instant start) {
        for (Assignment a : assignments) {
            idle[index.get(a.site())] += a.nodes();
        }
        Instant now = events.instant();
        lastEnd = now;
        outcomes[job.id() - 1] = JobOutcome.ran(job, Duration.between(START, start), Duration.between(START, now),
                assignments);
        dispatchSoon();
    }

    private GridView view() {
        List<SiteView> sites = new ArrayList<>(idle.length);
        for (int i = 0; i < idle.length; i++) {
            Cluster c = setup.clusters().get(i);
            sites.add(new SiteView(c.name(), c.nodes(), idle[i]));
        }
        return new GridView(sites, FileLocations.NONE);
    }

    private GridView allIdle() {
        return new GridView(setup.clusters().stream().map(c -> new SiteView(c.name(), c.nodes(), c.nodes())).toList(),
                FileLocations.NONE);
    }
}
