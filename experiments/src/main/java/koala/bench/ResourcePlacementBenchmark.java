package koala.bench;

import java.util.concurrent.TimeUnit;
import koala.placement.GridView;
import koala.placement.JobNeed;
import koala.placement.PlacementDecision;
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
 * The placement path by resources: one decision of the next job of {@link ResourceWorkload}'s queue
 * against {@value #SITES} sites of {@value ResourceWorkload#HOSTS_PER_SITE} hosts, as
 * {@link PlacementBenchmark} does by nodes. Only the reference grid size: the figure to meet is at
 * {@value #SITES} sites, and every other size would add a fork per policy to the run.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Threads(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
public class ResourcePlacementBenchmark {
    public static final int SITES = PlacementFigures.REFERENCE_SITES;

    @Param({"worst-fit", "close-to-files", "cluster-minimization", "flexible-cluster-minimization"})
    public String policy;

    private PlacementPolicy placement;
    private GridView grid;
    private JobNeed[] queue;
    private int next;

    @Setup
    public void setUp() {
        ResourceWorkload workload = ResourceWorkload.generate(SITES, PlacementBenchmark.QUEUE, PlacementWorkload.SEED);
        placement = PlacementPolicies.byName(policy);
        grid = workload.grid();
        queue = workload.jobs().toArray(JobNeed[]::new);
        next = 0;
    }

    @Benchmark
    public PlacementDecision decision() {
        JobNeed job = queue[next];
        next = next + 1 == queue.length ? 0 : next + 1;
        return placement.place(job, grid);
    }
}
