package koala.estimate;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * What a job will really run.
 *
 * <p>The prediction (Tsafrir, Etsion and Feitelson 2007): the mean of the owner's last two runs of the same job
 * name when there are any, capped at the job's wall-time limit; else the wall-time limit; else the site-wide
 * default. Users' wall times are mostly far too long, so the wall time is the last resort, not the first.
 *
 * <p>The spread: a runtime is the prediction times a ratio of actual to predicted runtime drawn from those
 * history saw for predictions on the same {@link Basis}, or from defaults while history holds fewer than
 * {@value #MIN_RATIOS}; capped at the wall time (a job is killed there). For work already running {@code e},
 * only the ratios that give more than {@code e} are drawn from; when none does, the wall time if it is still
 * ahead, else twice {@code e} (a job that has outrun every precedent is taken to be halfway).
 */
public final class RuntimeGuess {
    /** What a prediction came from. */
    public enum Basis { HISTORY, WALL_TIME, SITE_DEFAULT }

    /** A predicted runtime and what it came from. */
    public record Prediction(Duration runtime, Basis basis) {
    }

    /** Fewer ratios than this in history and the defaults are used. */
    public static final int MIN_RATIOS = 20;

    private static final Map<Basis, double[]> DEFAULT_RATIOS = new EnumMap<>(Map.of(
            // runs of the same job vary by tens of percent
            Basis.HISTORY, new double[] {0.5, 0.7, 0.8, 0.9, 1.0, 1.0, 1.1, 1.25, 1.5, 2.0},
            // users' wall times are overestimates spread over the whole range (Tsafrir et al.: "modal", far from 1)
            Basis.WALL_TIME, new double[] {0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.75, 0.9, 1.0},
            Basis.SITE_DEFAULT, new double[] {0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0}));
    private static final double[] EXACT = {1.0};

    private final RunHistory history;
    private final Duration siteDefault;
    private final boolean spread;
    private final Map<Basis, double[]> ratios = new EnumMap<>(Basis.class);

    private RuntimeGuess(RunHistory history, Duration siteDefault, boolean spread) {
        if (siteDefault.isNegative() || siteDefault.isZero()) {
            throw new IllegalArgumentException("the site-wide default runtime is positive, not " + siteDefault);
        }
        this.history = history;
        this.siteDefault = siteDefault;
        this.spread = spread;
        for (Basis b : Basis.values()) {
            ratios.put(b, spread ? sorted(history.ratios(b), DEFAULT_RATIOS.get(b)) : EXACT);
        }
    }

    /** Predictions from {@code history}, the spread from history's ratios (or the defaults). */
    public static RuntimeGuess of(RunHistory history, Duration siteDefault) {
        return new RuntimeGuess(history, siteDefault, true);
    }

    /** Predictions from {@code history} and no spread: every job runs exactly its prediction. */
    public static RuntimeGuess exact(RunHistory history, Duration siteDefault) {
        return new RuntimeGuess(history, siteDefault, false);
    }

    /** The history this guesses from. */
    public RunHistory history() {
        return history;
    }

    /** What {@code owner}'s job {@code name} with that wall-time limit (or null) will likely run. */
    public Prediction predict(String owner, String name, Duration wallTime) {
        List<Duration> runs = history.lastRuns(owner, name);
        if (!runs.isEmpty()) {
            long mean = Math.max(1, runs.stream().mapToLong(Duration::toMillis).sum() / runs.size());
            long capped = wallTime == null ? mean : Math.min(mean, wallTime.toMillis());
            return new Prediction(Duration.ofMillis(capped), Basis.HISTORY);
        }
        if (wallTime != null && wallTime.toMillis() > 0) {
            return new Prediction(wallTime, Basis.WALL_TIME);
        }
        return new Prediction(siteDefault, Basis.SITE_DEFAULT);
    }

    /** Its likely runtime in all, in ms, having run {@code elapsed} ms so far: the median draw. */
    long likely(Prediction p, Duration wallTime, long elapsed) {
        double[] r = ratios.get(p.basis());
        int from = firstBeyond(r, p, elapsed);
        long total = from < r.length ? runtime(p, r[from + (r.length - 1 - from) / 2]) : outrun(wallTime, elapsed);
        return cap(total, wallTime, elapsed);
    }

    /** A drawn runtime in all, in ms, having run {@code elapsed} ms so far. */
    long draw(Prediction p, Duration wallTime, long elapsed, Random random) {
        double[] r = ratios.get(p.basis());
        int from = firstBeyond(r, p, elapsed);
        long total = from < r.length ? runtime(p, r[from + random.nextInt(r.length - from)]) : outrun(wallTime, elapsed);
        return cap(total, wallTime, elapsed);
    }

    private static int firstBeyond(double[] sorted, Prediction p, long elapsed) {
        int i = 0;
        while (i < sorted.length && runtime(p, sorted[i]) <= elapsed) {
            i++;
        }
        return i;
    }

    private static long runtime(Prediction p, double ratio) {
        return Math.max(1, Math.round(p.runtime().toMillis() * ratio));
    }

    private static long outrun(Duration wallTime, long elapsed) {
        return wallTime != null && wallTime.toMillis() > elapsed ? wallTime.toMillis() : Math.max(1, 2 * elapsed);
    }

    private static long cap(long total, Duration wallTime, long elapsed) {
        long capped = wallTime == null ? total : Math.min(total, wallTime.toMillis());
        return Math.max(capped, elapsed);
    }

    private static double[] sorted(List<Double> seen, double[] defaults) {
        double[] r = seen.size() >= MIN_RATIOS ? seen.stream().mapToDouble(Double::doubleValue).toArray() : defaults.clone();
        Arrays.sort(r);
        return r;
    }
}
