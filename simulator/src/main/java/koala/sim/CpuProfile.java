package koala.sim;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

/**
 * How busy an RL application keeps its worker's CPU. The paper says only that an RL's CPU load
 * changes every 30 s; the level it takes in each period is the simulator's choice, made here:
 * a new level each period, drawn independently.
 * <ul>
 *   <li>{@code uniform:MIN:MAX} — uniform on [MIN, MAX] percent (the default, {@code uniform:50:100});</li>
 *   <li>{@code constant:V} — always V percent.</li>
 * </ul>
 * Levels are drawn when the workload is made, so every policy run on a workload sees the same loads.
 */
public sealed interface CpuProfile permits CpuProfile.Uniform, CpuProfile.Constant {

    /** The default: a level uniform on 50–100% every period, 75% on average. */
    CpuProfile DEFAULT = new Uniform(50, 100);

    /** The levels of {@code periods} consecutive load periods. */
    double[] draw(Random random, int periods);

    /** The mean level. */
    double mean();

    /** "uniform:50:100", "constant:90". */
    String spec();

    record Uniform(double min, double max) implements CpuProfile {
        public Uniform {
            if (!(min >= 0 && max <= 100 && min <= max)) {
                throw new IllegalArgumentException("CPU profile uniform:" + min + ":" + max + ": need 0 <= MIN <= MAX <= 100");
            }
        }

        @Override
        public double[] draw(Random random, int periods) {
            double[] levels = new double[periods];
            for (int i = 0; i < periods; i++) {
                levels[i] = min + (max - min) * random.nextDouble();
            }
            return levels;
        }

        @Override
        public double mean() {
            return (min + max) / 2;
        }

        @Override
        public String spec() {
            return "uniform:" + fmt(min) + ":" + fmt(max);
        }
    }

    record Constant(double percent) implements CpuProfile {
        public Constant {
            if (!(percent >= 0 && percent <= 100)) {
                throw new IllegalArgumentException("CPU profile constant:" + percent + ": need 0 <= V <= 100");
            }
        }

        @Override
        public double[] draw(Random random, int periods) {
            double[] levels = new double[periods];
            Arrays.fill(levels, percent);
            return levels;
        }

        @Override
        public double mean() {
            return percent;
        }

        @Override
        public String spec() {
            return "constant:" + fmt(percent);
        }
    }

    /** Reads "uniform:50:100" or "constant:90". */
    static CpuProfile parse(String spec) {
        String[] parts = spec.strip().toLowerCase(Locale.ROOT).split(":");
        try {
            if (parts[0].equals("uniform") && parts.length == 3) {
                return new Uniform(Double.parseDouble(parts[1]), Double.parseDouble(parts[2]));
            }
            if (parts[0].equals("constant") && parts.length == 2) {
                return new Constant(Double.parseDouble(parts[1]));
            }
        } catch (NumberFormatException e) {
            // falls through to the message below
        }
        throw new IllegalArgumentException("CPU profile '" + spec + "': write uniform:MIN:MAX or constant:V (percent)");
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
