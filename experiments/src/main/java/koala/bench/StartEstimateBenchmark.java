package koala.bench;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import koala.estimate.Estimate;
import koala.estimate.RuntimeGuess;
import koala.estimate.StartEstimator;
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
 * One refresh of the start estimates: every job of a queue of {@value #JOBS} on {@value #SITES} sites
 * ({@link StartEstimateWorkload}), the likely run and {@code samples} drawn ones, on one thread. The issue's
 * goal: under 1 s of one core per refresh at this size.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Threads(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 4)
public class StartEstimateBenchmark {
    public static final int SITES = 100;
    public static final int JOBS = 1000;

    @Param({"15", "21"})
    public int samples;

    private StartEstimateWorkload workload;
    private StartEstimator estimator;

    @Setup
    public void setUp() {
        workload = StartEstimateWorkload.generate(SITES, JOBS, 1);
        estimator = new StartEstimator(RuntimeGuess.of(workload.history(), Duration.ofHours(1)), samples, 1);
    }

    @Benchmark
    public List<Estimate> refresh() {
        return estimator.estimate(workload.snapshot());
    }
}
