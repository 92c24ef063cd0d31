package koala.bench;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs {@link ScrapeBenchmark} through JMH (one fork, one thread) and prints the time of one scrape
 * of the scheduler's metrics in each format against the target ({@value #TARGET_MILLIS} ms), the
 * time the loop spends reading the grid each round, and what one scrape holds. About two minutes;
 * with {@code quick} (or {@code --quick}) about one. Used by {@code bin/koala bench metrics}.
 */
public final class ScrapeBench {
    /** One scrape of a grid of {@value ScrapeBenchmark#JOBS} jobs and {@value ScrapeBenchmark#INSTANCES} instances. */
    public static final double TARGET_MILLIS = 50;

    /** A benchmark's time per operation: JMH's mean and its 99.9% error, in microseconds. */
    public record Time(double micros, double error) {
    }

    /** What one scrape in a format holds: its size, its samples (lines that are not comments), its koala_ families. */
    public record Content(int bytes, int samples, int families) {
    }

    /**
     * The figures of one run.
     *
     * @param scrapes by format (openmetrics, prometheus)
     * @param read    the loop's reading of the grid, once a round
     */
    public record Figures(BenchSettings settings, Map<String, Time> scrapes, Optional<Time> read,
                          Map<String, Content> contents, PlacementFigures.Machine machine) {
    }

    private ScrapeBench() {
    }

    public static void main(String[] args) throws RunnerException {
        boolean quick = Arrays.stream(args).anyMatch(a -> a.equals("quick") || a.equals("--quick"));
        run(quick ? BenchSettings.QUICK : BenchSettings.FULL, System.out);
    }

    /** Runs the benchmark and prints the table. */
    public static Figures run(BenchSettings settings, PrintStream out) throws RunnerException {
        out.printf("Metrics scrape benchmark: %,d jobs, %d framework instances of %d workers, %d sites; %s%n",
                ScrapeBenchmark.JOBS, ScrapeBenchmark.INSTANCES, ScrapeBenchmark.WORKERS, ScrapeBenchmark.SITES,
                settings.describe());
        Map<String, Content> contents = contents();
        double loadBefore = loadAverage();
        out.println("  running 3 cases (scrape in 2 formats, the loop's reading), one fork each ...");
        Collection<RunResult> results = new Runner(options(settings)).run();
        Map<String, Time> scrapes = new LinkedHashMap<>();
        Optional<Time> read = Optional.empty();
        for (RunResult r : results) {
            Time t = new Time(r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError());
            if (r.getParams().getBenchmark().endsWith(".scrape")) {
                scrapes.put(r.getParams().getParam("format"), t);
            } else {
                read = Optional.of(t);
            }
        }
        Figures figures = new Figures(settings, scrapes, read, contents, new PlacementFigures.Machine(
                Runtime.getRuntime().availableProcessors(), loadBefore, loadAverage()));
        out.print(table(figures));
        return figures;
    }

    static Options options(BenchSettings settings) {
        return new OptionsBuilder()
                .include("^" + Pattern.quote(ScrapeBenchmark.class.getName()) + "\\.")
                .mode(Mode.AverageTime).timeUnit(TimeUnit.MICROSECONDS)
                .forks(1).threads(1)
                .warmupIterations(settings.warmupIterations())
                .warmupTime(TimeValue.milliseconds(settings.warmupMillis()))
                .measurementIterations(settings.measurementIterations())
                .measurementTime(TimeValue.milliseconds(settings.measurementMillis()))
                .jvmArgs("-Xms512m", "-Xmx512m")
                .verbosity(VerboseMode.SILENT)
                .shouldFailOnError(true)
                .build();
    }

    /** One scrape of the benchmark's grid in each format, looked at (built here, outside JMH). */
    static Map<String, Content> contents() {
        Map<String, Content> contents = new LinkedHashMap<>();
        QuietLogs.koala();
        try (MetricsBenchGrid grid = MetricsBenchGrid.build(ScrapeBenchmark.JOBS, ScrapeBenchmark.INSTANCES,
                ScrapeBenchmark.WORKERS, ScrapeBenchmark.SITES, ScrapeBenchmark.NODES_PER_SITE)) {
            for (String format : List.of("openmetrics", "prometheus")) {
                byte[] body = grid.metrics().scrape(ScrapeBenchmark.accept(format)).body();
                contents.put(format, content(new String(body, StandardCharsets.UTF_8), body.length));
            }
        }
        return contents;
    }

    static Content content(String text, int bytes) {
        List<String> lines = text.lines().toList();
        int samples = (int) lines.stream().filter(l -> !l.isEmpty() && !l.startsWith("#")).count();
        int families = new TreeSet<>(lines.stream().filter(l -> l.startsWith("# TYPE koala_"))
                .map(l -> l.split(" ")[2]).toList()).size();
        return new Content(bytes, samples, families);
    }

    /** The table {@code bin/koala bench metrics} prints. */
    static String table(Figures f) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%nOne scrape of GET /metrics, rendered without the network (JMH, 1 fork, %s, %s): "
                + "mean time per operation ± 99.9%% error%n%n", f.settings().describe(), f.settings().label()));
        out.append(String.format("  %-34s %20s %11s %9s %9s%n", "", "time", "vs 50 ms", "size", "samples"));
        for (Map.Entry<String, Time> e : f.scrapes().entrySet()) {
            Content c = f.contents().get(e.getKey());
            out.append(String.format("  %-34s %20s %10.4fx %6.0f KB %,9d%n", "scrape, " + name(e.getKey()),
                    time(e.getValue()), e.getValue().micros() / 1000 / TARGET_MILLIS,
                    c == null ? 0 : c.bytes() / 1024.0, c == null ? 0 : c.samples()));
        }
        f.read().ifPresent(t -> out.append(String.format("  %-34s %20s%n", "the loop's reading, once a round", time(t))));
        out.append('\n').append(target(f)).append('\n');
        Content om = f.contents().get("openmetrics");
        if (om != null) {
            out.append(String.format("koala_ metric families in one scrape of this grid: %d%n", om.families()));
        }
        out.append(PlacementReport.machine(f.machine())).append('\n');
        return out.toString();
    }

    /** "Target: one scrape <= 50 ms: met (the slower format, prometheus, 0.91 ms: 0.018 of the target, 55x under it)". */
    static String target(Figures f) {
        Optional<Map.Entry<String, Time>> slowest = f.scrapes().entrySet().stream()
                .max(Map.Entry.comparingByValue((a, b) -> Double.compare(a.micros(), b.micros())));
        String goal = String.format("Target: one scrape <= %.0f ms: ", TARGET_MILLIS);
        return slowest.map(s -> {
            double ms = s.getValue().micros() / 1000;
            return goal + String.format("%s (the slower format, %s, %.3f ms: %.4f of the target, %.0fx under it)",
                    ms <= TARGET_MILLIS ? "met" : "NOT met", name(s.getKey()), ms, ms / TARGET_MILLIS,
                    TARGET_MILLIS / ms);
        }).orElse(goal + "not measured");
    }

    private static String name(String format) {
        return "openmetrics".equals(format) ? "OpenMetrics text" : "Prometheus text 0.0.4";
    }

    private static String time(Time t) {
        return t.micros() >= 1000 ? String.format("%,.2f ± %,.2f ms", t.micros() / 1000, t.error() / 1000)
                : String.format("%,.0f ± %,.0f us", t.micros(), t.error());
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
}
