package koala.sim.experiment;

import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import koala.provisioning.ProvisioningSettings;
import koala.sim.Clairvoyant;
import koala.sim.Generators;
import koala.sim.GrowDelay;
import koala.sim.RunMetrics;
import koala.sim.Simulation;
import koala.sim.Workload;

/**
 * Runs of one setting over seeds 1..n, each on its own {@code W_rl} (the same workload for every
 * policy at a given seed: common random numbers, so differences between policies are theirs, not
 * the workloads'). Seeds run in parallel; the results come back in seed order, so the figures do
 * not depend on the number of cores.
 */
public record Runs(Generators.RlParameters workload, Duration length, int seeds, GrowDelay delay, PrintStream progress) {

    public Runs {
        if (seeds < 1 || length.isNegative() || length.isZero()) {
            throw new IllegalArgumentException("need at least 1 seed and a positive length, got " + seeds + ", " + length);
        }
    }

    public Runs withWorkload(Generators.RlParameters value) {
        return new Runs(value, length, seeds, delay, progress);
    }

    /** The same runs without a progress line per setting. */
    public Runs quiet() {
        return new Runs(workload, length, seeds, delay, new PrintStream(java.io.OutputStream.nullOutputStream()));
    }

    public Workload workload(long seed) {
        return Generators.rl(workload, length, seed);
    }

    public List<RunMetrics> of(ProvisioningSettings settings) {
        return LongStream.rangeClosed(1, seeds).parallel()
                .mapToObj(seed -> Simulation.one(workload(seed), settings, delay, seed)).toList();
    }

    public Summary summary(String label, ProvisioningSettings settings) {
        return Summary.of(label, timed(label, settings));
    }

    /** The runs of one setting, one per seed in seed order, with a progress line. */
    public List<RunMetrics> timed(String label, ProvisioningSettings settings) {
        long t0 = System.nanoTime();
        List<RunMetrics> runs = of(settings).stream().map(RunMetrics::withoutSeries).toList();
        progress.printf("  %-28s %d × %d h in %.1f s%n", label, seeds, length.toHours(), (System.nanoTime() - t0) / 1e9);
        return runs;
    }

    public Summary clairvoyant(int fMax) {
        return Summary.of("clairvoyant (F_max " + fMax + ")", LongStream.rangeClosed(1, seeds).parallel()
                .mapToObj(seed -> Clairvoyant.bound(workload(seed), fMax)).toList());
    }
}
