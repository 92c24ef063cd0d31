package koala.bench;

import java.util.concurrent.TimeUnit;
import koala.scheduler.metrics.GridReading;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The scheduler's {@code GET /metrics} without the network: one operation of {@link #scrape} is one
 * scrape, the whole text rendered from the latest reading and every count, in OpenMetrics or
 * Prometheus text; one of {@link #read} is what the loop adds to every round, reading the grid into
 * the snapshot scrapes render. The grid ({@link MetricsBenchGrid}) is built once per fork: {@value
 * #JOBS} jobs, {@value #INSTANCES} framework instances of {@value #WORKERS} workers, {@value #SITES}
 * sites of {@value #NODES_PER_SITE} nodes. Run it through {@link ScrapeBench}, which prints the figures.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Threads(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
public class ScrapeBenchmark {
    public static final int JOBS = 1000;
    public static final int INSTANCES = 100;
    public static final int WORKERS = 5;
    public static final int SITES = 20;
    public static final int NODES_PER_SITE = 60;

    /** The grid, built once per fork. */
    @State(Scope.Benchmark)
    public static class Built {
        MetricsBenchGrid grid;

        @Setup(Level.Trial)
        public void setUp() {
            QuietLogs.koala();
            grid = MetricsBenchGrid.build(JOBS, INSTANCES, WORKERS, SITES, NODES_PER_SITE);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            grid.close();
        }
    }

    /** The format asked for: what Prometheus asks (openmetrics), or anything (Prometheus text 0.0.4). */
    @State(Scope.Benchmark)
    public static class Asked {
        @Param({"openmetrics", "prometheus"})
        public String format;

        String accept;

        @Setup(Level.Trial)
        public void setUp() {
            accept = accept(format);
        }
    }

    static String accept(String format) {
        return "openmetrics".equals(format) ? "application/openmetrics-text;version=1.0.0;q=0.5,"
                + "text/plain;version=0.0.4;q=0.2,*/*;q=0.1" : "*/*";
    }

    @Benchmark
    public byte[] scrape(Built built, Asked asked) {
        return built.grid.metrics().scrape(asked.accept).body();
    }

    @Benchmark
    public GridReading read(Built built) {
        return built.grid.read();
    }
}
