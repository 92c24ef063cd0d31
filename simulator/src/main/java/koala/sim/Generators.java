package koala.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import koala.fluent.Application;
import koala.fluent.Job;

/**
 * The paper's workloads, generated for a seed. The same seed gives the same workload, CPU levels
 * included, so every policy is compared on the very same arrivals and loads.
 */
public final class Generators {
    private Generators() {
    }

    /**
     * The paper's {@code W_rl}: batches of RL applications arriving as a Poisson process.
     *
     * @param batchRate     batches per second (paper: 0.0278, one every 36 s on average)
     * @param maxBatch      batch sizes are geometric on [1, maxBatch] (paper: 10) ...
     * @param meanBatch     ... with this mean (paper: 2.5)
     * @param rlDuration    how long an RL runs (paper: 300 s)
     * @param loadPeriod    every how long its CPU load changes (paper: 30 s)
     * @param cpu           the level it changes to (not stated in the paper: {@link CpuProfile#DEFAULT})
     */
    public record RlParameters(double batchRate, int maxBatch, double meanBatch, Duration rlDuration,
            Duration loadPeriod, CpuProfile cpu) {
        public static final RlParameters PAPER = new RlParameters(0.0278, 10, 2.5, Duration.ofSeconds(300),
                Duration.ofSeconds(30), CpuProfile.DEFAULT);

        public RlParameters {
            if (!(batchRate > 0) || maxBatch < 1 || !(meanBatch >= 1 && meanBatch < (1 + maxBatch) / 2.0 + 1e-9)) {
                throw new IllegalArgumentException("W_rl: need a positive rate and 1 <= mean batch <= (1 + max) / 2");
            }
        }

        public RlParameters withCpu(CpuProfile profile) {
            return new RlParameters(batchRate, maxBatch, meanBatch, rlDuration, loadPeriod, profile);
        }

        public RlParameters withBatchRate(double rate) {
            return new RlParameters(rate, maxBatch, meanBatch, rlDuration, loadPeriod, cpu);
        }

        /** Worker-seconds offered per second: batch rate × mean batch × RL duration (paper: 20.85). */
        public double offeredLoad() {
            return batchRate * meanBatch * rlDuration.toMillis() / 1000.0;
        }
    }

    /** {@code W_rl} over {@code length}. Application ids are "b7.2": the second RL of the seventh batch. */
    public static Workload rl(RlParameters p, Duration length, long seed) {
        // arrivals and CPU levels draw from streams of their own, so that workloads of one seed that
        // differ only in the CPU profile have the very same arrivals
        Random random = new Random(seed);
        Random loads = new Random(seed * 0x9E3779B97F4A7C15L + 1);
        TruncatedGeometric sizes = TruncatedGeometric.withMean(p.maxBatch(), p.meanBatch());
        int periods = (int) Math.max(1, -Math.floorDiv(-p.rlDuration().toMillis(), p.loadPeriod().toMillis()));
        List<Job> jobs = new ArrayList<>();
        Map<String, double[]> levels = new HashMap<>();
        double t = 0;
        for (int b = 1; ; b++) {
            t += -Math.log(1 - random.nextDouble()) / p.batchRate();
            if (t * 1000 >= length.toMillis()) {
                break;
            }
            int size = sizes.draw(random);
            List<Application> apps = new ArrayList<>(size);
            for (int i = 1; i <= size; i++) {
                String id = "b" + b + "." + i;
                double[] l = p.cpu().draw(loads, periods);
                levels.put(id, l);
                apps.add(Application.rl(id, p.rlDuration(), mean(l), p.loadPeriod()));
            }
            jobs.add(new Job("b" + b, apps, Workload.START.plusMillis(Math.round(t * 1000))));
        }
        return new Workload("W_rl", jobs, levels, length);
    }

    /**
     * A workload of SWC applications, which queue instead of being rejected: batches arrive as a
     * Poisson process of {@code batchRate}, batch sizes geometric on [1, 10] with mean 2.5 as in
     * {@code W_rl}, each an SWC with 2^n mappers, n uniform on 1..3 (4 to 10 slots), running
     * {@code duration} at {@code cpuPercent} a slot. The paper's SWC parameters are not used for
     * Table 2; these are the simulator's choice.
     */
    public static Workload swc(double batchRate, Duration duration, double cpuPercent, Duration length, long seed) {
        Random random = new Random(seed);
        TruncatedGeometric sizes = TruncatedGeometric.withMean(10, 2.5);
        List<Job> jobs = new ArrayList<>();
        double t = 0;
        for (int b = 1; ; b++) {
            t += -Math.log(1 - random.nextDouble()) / batchRate;
            if (t * 1000 >= length.toMillis()) {
                break;
            }
            int size = sizes.draw(random);
            List<Application> apps = new ArrayList<>(size);
            for (int i = 1; i <= size; i++) {
                apps.add(Application.swc("s" + b + "." + i, 1 + random.nextInt(3), duration, cpuPercent));
            }
            jobs.add(new Job("s" + b, apps, Workload.START.plusMillis(Math.round(t * 1000))));
        }
        return new Workload("W_swc", jobs, Map.of(), length);
    }

    private static double mean(double[] levels) {
        double sum = 0;
        for (double l : levels) {
            sum += l;
        }
        return sum / levels.length;
    }

    /**
     * P(k) proportional to (1 − p)^(k−1) on k = 1..max, with p chosen (by bisection) so that the
     * mean is as asked: for max 10 and mean 2.5, p = 0.3886 (an untruncated geometric would have 0.4).
     */
    record TruncatedGeometric(double[] cumulative) {
        static TruncatedGeometric withMean(int max, double mean) {
            double lo = 1e-9;
            double hi = 1;
            for (int i = 0; i < 100; i++) {
                double p = (lo + hi) / 2;
                if (meanOf(p, max) > mean) {
                    lo = p;
                } else {
                    hi = p;
                }
            }
            return new TruncatedGeometric(cumulative((lo + hi) / 2, max));
        }

        static double meanOf(double p, int max) {
            double[] c = cumulative(p, max);
            double m = 0;
            for (int k = 1; k <= max; k++) {
                m += k * (c[k - 1] - (k == 1 ? 0 : c[k - 2]));
            }
            return m;
        }

        private static double[] cumulative(double p, int max) {
            double[] c = new double[max];
            double w = 1;
            double sum = 0;
            for (int k = 0; k < max; k++) {
                sum += w;
                c[k] = sum;
                w *= 1 - p;
            }
            for (int k = 0; k < max; k++) {
                c[k] /= sum;
            }
            return c;
        }

        int draw(Random random) {
            double u = random.nextDouble();
            for (int k = 0; k < cumulative.length; k++) {
                if (u < cumulative[k]) {
                    return k + 1;
                }
            }
            return cumulative.length;
        }
    }
}
