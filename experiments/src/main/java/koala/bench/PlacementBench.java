package koala.bench;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import koala.placement.PlacementDecision;
import koala.placement.JobNeed;
import koala.placement.PlacementPolicies;
import koala.placement.PlacementPolicy;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link PlacementBenchmark} through JMH (one fork per combination, one thread) for every
 * policy at 10, 100 and 1,000 sites, and {@link ResourcePlacementBenchmark} for every policy at 100
 * sites of 50 hosts, and prints {@link PlacementReport}'s table. About 4 minutes;
 * with {@code quick} (or {@code --quick}) about one. Used by {@code bin/koala bench placement}.
 */
public final class PlacementBench {
    public static final List<Integer> SITES = List.of(10, 100, 1000);

    private PlacementBench() {
    }

    public static void main(String[] args) throws RunnerException {
        boolean quick = Arrays.stream(args).anyMatch(a -> a.equals("quick") || a.equals("--quick"));
        run(quick ? BenchSettings.QUICK : BenchSettings.FULL, System.out);
    }

    /** Runs the benchmark, printing one line per combination as it goes and then the table. */
    public static PlacementFigures run(BenchSettings settings, PrintStream out) throws RunnerException {
        List<String> policies = PlacementPolicies.names();
        out.printf("Placement benchmark: %d policies x %d grid sizes, %s%n", policies.size(), SITES.size(),
                settings.describe());
        Map<String, Double> placed = placedShares(policies);
        Map<String, Double> placedByResources = placedByResources(policies);
        double loadBefore = loadAverage();
        ProgressFormat progress = new ProgressFormat(out, policies.size() * (SITES.size() + 1));
        Collection<RunResult> results;
        try {
            results = new Runner(options(settings, policies), progress).run();
        } catch (RunnerException | RuntimeException e) {
            progress.log().forEach(System.err::println);
            throw e;
        }
        PlacementFigures.Machine machine = new PlacementFigures.Machine(Runtime.getRuntime().availableProcessors(),
                loadBefore, loadAverage());
        PlacementFigures figures = new PlacementFigures(settings, results.stream().map(PlacementBench::score).toList(),
                placed, placedByResources, machine);
        out.print(PlacementReport.table(figures));
        return figures;
    }

    static Options options(BenchSettings settings, List<String> policies) {
        return new OptionsBuilder()
                .include("^" + Pattern.quote(PlacementBenchmark.class.getName()) + "\\.")
                .include("^" + Pattern.quote(ResourcePlacementBenchmark.class.getName()) + "\\.")
                .param("policy", policies.toArray(String[]::new))
                .param("sites", SITES.stream().map(String::valueOf).toArray(String[]::new))
                .mode(Mode.Throughput).timeUnit(TimeUnit.SECONDS)
                .forks(1).threads(1)
                .warmupIterations(settings.warmupIterations())
                .warmupTime(TimeValue.milliseconds(settings.warmupMillis()))
                .measurementIterations(settings.measurementIterations())
                .measurementTime(TimeValue.milliseconds(settings.measurementMillis()))
                .jvmArgs("-Xms512m", "-Xmx512m")
                .shouldFailOnError(true)
                .build();
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    static PlacementFigures.Score score(RunResult result) {
        double[] iterations = result.getBenchmarkResults().stream()
                .flatMap(b -> b.getIterationResults().stream())
                .mapToDouble(i -> i.getPrimaryResult().getScore()).sorted().toArray();
        boolean byResources = byResources(result.getParams().getBenchmark());
        int sites = byResources ? ResourcePlacementBenchmark.SITES : Integer.parseInt(result.getParams().getParam("sites"));
        return new PlacementFigures.Score(result.getParams().getParam("policy"), sites, median(iterations),
                result.getPrimaryResult().getScore(), result.getPrimaryResult().getScoreError(), byResources);
    }

    /** Whether the benchmark method of that name is the one by resources. */
    static boolean byResources(String benchmark) {
        return benchmark.startsWith(ResourcePlacementBenchmark.class.getName() + ".");
    }

    /** The median of sorted values. */
    static double median(double[] sorted) {
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /** For each policy, the share of the queue by resources it places on its grid. */
    static Map<String, Double> placedByResources(List<String> policies) {
        ResourceWorkload workload = ResourceWorkload.generate(ResourcePlacementBenchmark.SITES,
                PlacementBenchmark.QUEUE, PlacementWorkload.SEED);
        Map<String, Double> shares = new LinkedHashMap<>();
        for (String name : policies) {
            PlacementPolicy policy = PlacementPolicies.byName(name);
            long placed = workload.jobs().stream().filter(job -> policy.place(job, workload.grid())
                    instanceof PlacementDecision.Placed).count();
            shares.put(name, placed / (double) workload.jobs().size());
        }
        return shares;
    }

    /** For each policy, the share of the benchmark's queue it places on the reference grid. */
    static Map<String, Double> placedShares(List<String> policies) {
        PlacementWorkload workload = PlacementWorkload.generate(PlacementFigures.REFERENCE_SITES,
                PlacementBenchmark.QUEUE, PlacementWorkload.SEED);
        Map<String, Double> shares = new LinkedHashMap<>();
        for (String name : policies) {
            PlacementPolicy policy = PlacementPolicies.byName(name);
            long placed = 0;
            for (JobNeed job : workload.jobs()) {
                if (policy.place(job, workload.grid()) instanceof PlacementDecision.Placed) {
                    placed++;
                }
            }
            shares.put(name, placed / (double) workload.jobs().size());
        }
        return shares;
    }
}
