package koala.experiments;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import koala.cli.Koala;
import koala.provisioning.PolicyKind;
import koala.sim.Generators;
import koala.sim.GrowDelay;
import koala.sim.RunMetrics;
import koala.sim.Simulation;
import koala.sim.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * {@code koala experiment testbed}: the policies of Table 2 on the real SGE testbed with a
 * time-compressed {@code W_rl}, beside the simulator's prediction for the very same workload and
 * the O_grow measured in the same run. One workload is generated and fed identically to each
 * policy; the simulator then runs it with {@code O_grow} fixed at the median grow time (request to
 * worker joined) of all the real runs' grows.
 */
@Command(name = "testbed", mixinStandardHelpOptions = true, defaultValueProvider = TestbedExperiment.EveryPolicy.class,
        description = {"Static, OnDemand, Proactive, Reserve and Pool on the real SGE testbed with W_rl compressed in time "
                + "(--scale 10: RLs of 30 s, a batch every 3.6 s on average; --minutes of arrivals per policy), F_max "
                + "20, 1 slot per worker, RL CPU 5-10%% of a core (the paper's 50-100%% times 0.1, U_min/U_max "
                + "likewise 4%%/5%%); measured from the master's metrics and the runner's and master's logs, beside "
                + "the simulator's prediction for the same workload with the O_grow measured in the run. Needs the "
                + "testbed up; uses the scheduler running on the grid's port, or starts one. About --minutes + 1.5 "
                + "minutes per policy. Writes testbed.csv, testbed-series.csv and testbed-POLICY.png to --out."})
final class TestbedExperiment implements Callable<Integer> {
    /** The default of {@code --policies}: every policy, in {@link PolicyKind}'s order. */
    static final class EveryPolicy implements IDefaultValueProvider {
        @Override
        public String defaultValue(ArgSpec arg) {
            return arg instanceof OptionSpec o && o.longestName().equals("--policies")
                    ? String.join(",", PolicyKind.shortNames()) : null;
        }
    }

    @Option(names = "--minutes", defaultValue = "10", description = "minutes of arrivals per policy (default: "
            + "${DEFAULT-VALUE})")
    double minutes;

    @Option(names = "--policies", split = ",", description = "policies, in this order (default: ${DEFAULT-VALUE})")
    List<String> policies;

    @Option(names = "--seed", defaultValue = "1", description = "the workload's seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--scale", defaultValue = "10", description = "time compression of W_rl (default: ${DEFAULT-VALUE})")
    double scale;

    @Option(names = "--static-workers", defaultValue = "20", description = "Static's workers (default: "
            + "${DEFAULT-VALUE}; Table 2 uses 28)")
    int staticWorkers;

    @Option(names = "--out", defaultValue = "results", description = "results folder (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--o-grow", defaultValue = "3", description = "O_grow for the simulator, seconds, when the run "
            + "has no grow to measure it (default: ${DEFAULT-VALUE})")
    double fallbackOGrow;

    @Override
    public Integer call() throws Exception {
        List<PolicyKind> kinds = TestbedSetup.policies(policies);
        if (!(minutes > 0)) {
            throw new IllegalArgumentException("--minutes must be positive");
        }
        TestbedSetup setup = new TestbedSetup(scale, 20, staticWorkers, 2, 0.1);
        Workload workload = workload(setup);
        PrintStream o = System.out;
        describe(o, setup, workload, kinds);
        Optional<TestbedScheduler> testbed = TestbedScheduler.open(o);
        if (testbed.isEmpty()) {
            return Koala.FAILURE;
        }
        Map<PolicyKind, TestbedRun.Result> real = new LinkedHashMap<>();
        try (TestbedScheduler scheduler = testbed.get()) {
            o.println("scheduler: " + scheduler.describe());
            TestbedRun run = new TestbedRun(scheduler.client(), scheduler.gridFile(), setup, InstantSource.system(), o);
            for (PolicyKind p : kinds) {
                o.printf("%n%s on the testbed%n", p);
                try {
                    TestbedRun.Result r = run.run(p, workload);
                    real.put(p, r);
                    o.println("  " + TestbedReport.line("real", r.figures().metrics()));
                } catch (RuntimeException | java.io.IOException e) {
                    // one policy's failure leaves the others' runs to compare
                    o.println("  " + p + " failed, left out of the comparison: " + e.getMessage());
                }
            }
        }
        List<Double> grows = new ArrayList<>();
        real.values().forEach(r -> grows.addAll(r.growTimes()));
        double oGrow = grows.isEmpty() ? fallbackOGrow : GrowBenchCommand.median(grows);
        o.printf(Locale.ROOT, "%nO_grow measured on the testbed (grow request to worker joined the master): median %.2f s "
                + "of %d grown workers%s%n", oGrow, grows.size(), grows.isEmpty() ? " (none: --o-grow used)" : "");
        Map<PolicyKind, RunMetrics> sim = new LinkedHashMap<>();
        for (PolicyKind p : real.keySet()) {
            sim.put(p, Simulation.one(workload, setup.settings(p),
                    GrowDelay.fixed(Duration.ofMillis(Math.round(oGrow * 1000))), seed));
        }
        new TestbedReport(out, o).write(real, sim, oGrow, grows);
        o.println("\nresults in " + out.toAbsolutePath());
        return real.size() == kinds.size() ? 0 : Koala.FAILURE;
    }

    /** W_rl over minutes × scale of paper time, compressed; extended so what arrives last can finish. */
    Workload workload(TestbedSetup setup) {
        return setup.compressed(minutes, paperLength -> Generators.rl(setup.workload(), paperLength, seed));
    }

    private void describe(PrintStream o, TestbedSetup s, Workload w, List<PolicyKind> kinds) {
        Generators.RlParameters p = s.workload();
        o.printf(Locale.ROOT, "W_rl compressed %sx, seed %d: %d batches, %d RLs of %d s arriving over %.1f min (a batch "
                        + "every %.1f s on average, %.1f RLs a batch), CPU %s of a core changing every %.0f s; the run "
                        + "lasts %d s%n", TestbedReport.num(scale), seed, w.jobs().size(), w.applications(),
                Math.round(p.rlDuration().toSeconds() / scale), minutes, 1 / p.batchRate() / scale, p.meanBatch(),
                p.cpu().spec(), p.loadPeriod().toSeconds() / scale, w.length().toSeconds());
        for (PolicyKind k : kinds) {
            o.printf("  %-9s initial %2d  F_max %2d  %s%n", k, s.initialWorkers(k), s.fMax(k), s.jdfAttributes(k, Runtime.getRuntime().availableProcessors()));
        }
    }
}
