package koala.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import koala.placement.PlacementDecision;
import koala.placement.GridView;
import koala.placement.JobNeed;
import koala.placement.PlacementPolicies;
import koala.placement.PlacementPolicy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The placement path: one operation is one decision, placing the next job of a queue of
 * {@value #QUEUE} mixed jobs (see {@link PlacementWorkload}, cycling through it) with one policy
 * against the grid view. The view stays the same snapshot for every decision, as within one pass
 * of the placement queue over a KIS snapshot; decisions are returned, so none is optimised away.
 * Run it through {@link PlacementBench}, which prints the figures.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Threads(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
public class PlacementBenchmark {
    public static final int QUEUE = 10_000;

    @Param({"worst-fit", "close-to-files", "cluster-minimization", "flexible-cluster-minimization"})
    public String policy;

    @Param({"10", "100", "1000"})
    public int sites;

    private PlacementPolicy placement;
    private GridView grid;
    private JobNeed[] queue;
    private int next;

    @Setup
    public void setUp() {
        PlacementWorkload workload = PlacementWorkload.generate(sites, QUEUE, PlacementWorkload.SEED);
        placement = PlacementPolicies.byName(policy);
        grid = workload.grid();
        List<JobNeed> jobs = workload.jobs();
        queue = jobs.toArray(JobNeed[]::new);
        next = 0;
    }

    @Benchmark
    public PlacementDecision decision() {
        JobNeed job = queue[next];
        next = next + 1 == queue.length ? 0 : next + 1;
        return placement.place(job, grid);
    }
}
