package koala.bench;

/**
 * How long JMH warms up and measures each benchmark (one fork, one thread). With the placement
 * benchmark's 16 combinations (4 policies × 3 grid sizes by nodes, 4 policies by resources) and
 * about a second to start each fork, {@link #FULL} takes about 4 minutes and {@link #QUICK} about one.
 */
public record BenchSettings(String label, int warmupIterations, int warmupMillis, int measurementIterations,
                            int measurementMillis) {
    public static final BenchSettings FULL = new BenchSettings("full", 3, 1_000, 6, 1_500);
    public static final BenchSettings QUICK = new BenchSettings("quick", 2, 500, 5, 300);

    /** "warmup 3 x 1.0 s, measurement 6 x 1.5 s". */
    public String describe() {
        return String.format("warmup %d x %.1f s, measurement %d x %.1f s", warmupIterations, warmupMillis / 1000.0,
                measurementIterations, measurementMillis / 1000.0);
    }
}
