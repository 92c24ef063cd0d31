package koala.experiments;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import koala.bench.StartEstimateBenchmark;
import koala.bench.StartEstimateWorkload;
import koala.estimate.RuntimeGuess;
import koala.estimate.StartEstimator;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code koala bench start-estimates}: one refresh of the start estimates at 1,000 jobs x 100 sites, no testbed. By
 * default in this process, timed by the thread's CPU time as well as the wall clock: the goal is one core's second,
 * and on a machine busy with other work the wall clock counts the waits for a core too. {@code --jmh}: JMH's
 * average time instead ({@link StartEstimateBenchmark}), on a quiet machine.
 */
@Command(name = "start-estimates", mixinStandardHelpOptions = true,
        description = {"One refresh of the start estimates: every job of a queue of 1,000 on 100 sites of 16 hosts of "
                + "16 cores, 95%% busy, with local load and submissions to come, at 15 and 21 samples, on one thread: "
                + "median CPU time and wall time over the refreshes after a warm-up. Goal: under 1 s of one core. "
                + "--jmh: JMH's average time instead. About a minute."})
final class StartEstimateBenchCommand implements Callable<Integer> {
    private static final double GOAL_MS = 1000;

    @Option(names = "--refreshes", defaultValue = "20", description = "timed refreshes per case, after as many to warm "
            + "up (default: ${DEFAULT-VALUE})")
    int refreshes;

    @Option(names = "--jmh", description = "JMH (one fork, serial GC, average wall time) instead")
    boolean jmh;

    @Override
    public Integer call() throws Exception {
        if (jmh) {
            return runJmh();
        }
        StartEstimateWorkload w = StartEstimateWorkload.generate(StartEstimateBenchmark.SITES, StartEstimateBenchmark.JOBS, 1);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.printf("start estimates, %d jobs x %d sites, one refresh (%d timed after %d to warm up):%n",
                StartEstimateBenchmark.JOBS, StartEstimateBenchmark.SITES, refreshes, refreshes);
        for (int samples : new int[] {15, 21}) {
            StartEstimator estimator = new StartEstimator(RuntimeGuess.of(w.history(), Duration.ofHours(1)), samples, 1);
            double[] cpu = new double[refreshes];
            double[] wall = new double[refreshes];
            for (int i = -refreshes; i < refreshes; i++) {
                long c0 = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                estimator.estimate(w.snapshot());
                if (i >= 0) {
                    cpu[i] = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
                    wall[i] = (System.nanoTime() - t0) / 1e6;
                }
            }
            double medianCpu = median(cpu);
            System.out.printf("  %d samples: CPU %.0f ms (median; min %.0f), wall %.0f ms: %s%n", samples, medianCpu,
                    Arrays.stream(cpu).min().orElse(0), median(wall), medianCpu < GOAL_MS ? "goal (< 1 s) met" : "goal NOT met");
        }
        System.out.printf("  load average %.2f on %d cores%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), Runtime.getRuntime().availableProcessors());
        return 0;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static int runJmh() throws Exception {
        Options options = new OptionsBuilder()
                .include("^" + Pattern.quote(StartEstimateBenchmark.class.getName()) + "\\.")
                .mode(Mode.AverageTime).timeUnit(TimeUnit.MILLISECONDS)
                .forks(1).threads(1)
                .warmupIterations(3).warmupTime(TimeValue.seconds(4))
                .measurementIterations(5).measurementTime(TimeValue.seconds(6))
                .jvmArgs("-Xms1g", "-Xmx1g", "-XX:+UseSerialGC")
                .shouldFailOnError(true)
                .build();
        Collection<RunResult> results = new Runner(options).run();
        for (RunResult r : results) {
            double ms = r.getPrimaryResult().getScore();
            System.out.printf("  %s samples: %.0f ms (± %.0f) %s%n", r.getParams().getParam("samples"), ms,
                    r.getPrimaryResult().getScoreError(), ms < GOAL_MS ? "goal (< 1 s) met" : "goal (< 1 s) NOT met");
        }
        return 0;
    }
}
