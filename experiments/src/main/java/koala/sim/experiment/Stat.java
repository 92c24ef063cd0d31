package koala.sim.experiment;

import java.util.List;
import java.util.function.ToDoubleFunction;

/** A figure over several seeds: mean and sample standard deviation ("spread"). */
public record Stat(double mean, double sd) {

    public static <T> Stat of(List<T> runs, ToDoubleFunction<T> figure) {
        double[] v = runs.stream().mapToDouble(figure).toArray();
        double mean = 0;
        for (double x : v) {
            mean += x;
        }
        mean /= Math.max(1, v.length);
        double ss = 0;
        for (double x : v) {
            ss += (x - mean) * (x - mean);
        }
        return new Stat(mean, v.length > 1 ? Math.sqrt(ss / (v.length - 1)) : 0);
    }

    /** "30.4 ± 0.6". */
    public String text() {
        return String.format("%.1f ± %.1f", mean, sd);
    }

    /** "1.32 ± 0.06". */
    public String text2() {
        return String.format("%.2f ± %.2f", mean, sd);
    }

    /** "1.3200,0.0600", for CSV files. */
    public String csv() {
        return String.format(java.util.Locale.ROOT, "%.4f,%.4f", mean, sd);
    }
}
