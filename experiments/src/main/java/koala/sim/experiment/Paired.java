package koala.sim.experiment;

import java.util.List;
import java.util.function.ToDoubleFunction;
import koala.sim.RunMetrics;

/**
 * One figure of two policies compared seed by seed: both ran on the same workloads, so the
 * difference per seed is the policies' own and its spread is far smaller than either figure's.
 *
 * @param difference {@code a − b} over the seeds, mean and spread
 * @param higher     seeds where {@code a} is above {@code b}
 * @param seeds      seeds compared
 */
public record Paired(Stat difference, int higher, int seeds) {

    public static Paired of(List<RunMetrics> a, List<RunMetrics> b, ToDoubleFunction<RunMetrics> figure) {
        if (a.size() != b.size()) {
            throw new IllegalArgumentException("paired runs need as many seeds: " + a.size() + " and " + b.size());
        }
        List<Double> d = java.util.stream.IntStream.range(0, a.size())
                .mapToObj(i -> figure.applyAsDouble(a.get(i)) - figure.applyAsDouble(b.get(i))).toList();
        return new Paired(Stat.of(d, Double::doubleValue), (int) d.stream().filter(x -> x > 1e-9).count(), a.size());
    }

    /** "+0.85 ± 0.25 (higher at 10 of 10 seeds)". */
    public String text() {
        return String.format("%+.2f ± %.2f (higher at %d of %d seeds)", difference.mean(), difference.sd(), higher, seeds);
    }
}
