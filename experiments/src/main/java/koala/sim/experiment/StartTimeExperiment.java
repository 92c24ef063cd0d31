package koala.sim.experiment;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.LongPredicate;
import koala.estimate.RunHistory;
import koala.estimate.RuntimeGuess;
import koala.estimate.StartEstimator;
import koala.placement.PlacementPolicies;
import koala.sim.experiment.StartTimeReplay.Observed;
import koala.sim.experiment.StartTimeReplay.Variant;

/**
 * When will it start: a {@link StartTimeWorkload} replayed at several offered loads ({@link StartTimeReplay}),
 * the start estimate asked at every submission and compared with the start that happened, per class of the
 * actual wait, beside the naive estimate (the jobs ahead in the queue times the mean runtime of the last 100
 * jobs to end, over the number of sites) and beside the estimator told only the users' wall times (what a
 * scheduler that trusts them says; Slurm's backfill reserves on them).
 *
 * <p>The error of a predicted wait is {@code |predicted - actual| / actual}, the actual wait counted as at least
 * a minute (a job that starts at once has a wait of 0). The goal, for waits over 10 minutes: a median
 * error of at most {@value #GOAL_MEDIAN_ERROR}, and at least {@value #GOAL_IN_RANGE} of the starts inside the
 * stated 80% range. The first {@value #WARM_UP} of each run's jobs (an empty grid and no history) are left out.
 */
public final class StartTimeExperiment {
    public static final double GOAL_MEDIAN_ERROR = 0.25;
    public static final double GOAL_IN_RANGE = 0.70;
    static final double WARM_UP = 0.1;
    private static final long MINUTE = 60_000L;

    /** fs0 of 12 hosts, fs1 and fs2 of 8, fs3 of 4, each host of 8 cores: 256 cores. */
    static final int[] HOSTS = {12, 8, 8, 4};
    static final int CORES_PER_HOST = 8;

    /** A class of actual waits. */
    record WaitClass(String name, LongPredicate holds) {
    }

    static final List<WaitClass> CLASSES = List.of(
            new WaitClass("< 10 min", w -> w < 10 * MINUTE),
            new WaitClass("10 min - 1 h", w -> w >= 10 * MINUTE && w < 60 * MINUTE),
            new WaitClass("> 1 h", w -> w >= 60 * MINUTE),
            new WaitClass("> 10 min (goal)", w -> w >= 10 * MINUTE));

    /**
     * What to run.
     *
     * @param samples   the estimator's sampled runs per estimate
     * @param ablations whether to run the estimator without calibration, without future submissions, without local
     *                  load and without history (wall times, with their spread) too
     */
    public record Settings(List<Double> loads, int jobs, long seed, int samples, boolean ablations) {
        public Settings {
            loads = List.copyOf(loads);
            if (loads.isEmpty() || !loads.stream().allMatch(l -> l > StartTimeWorkload.LOCAL_SHARE && l < 1.5) || jobs < 10
                    || samples < 1) {
                throw new IllegalArgumentException("loads above the local users' share (" + StartTimeWorkload.LOCAL_SHARE
                        + ") and below 1.5, at least 10 jobs and 1 sample");
            }
        }

        public static Settings defaults() {
            return new Settings(List.of(0.5, 0.7, 0.9), 5000, 1, StartEstimator.DEFAULT_SAMPLES, false);
        }

        List<Variant> variants() {
            List<Variant> v = new ArrayList<>();
            Function<RunHistory, RuntimeGuess> guess = h -> RuntimeGuess.of(h, StartTimeReplay.SITE_DEFAULT);
            v.add(new Variant("estimate", guess, samples, true, true, true));
            v.add(new Variant("wall times", h -> RuntimeGuess.exact(RunHistory.empty(), StartTimeReplay.SITE_DEFAULT), 1, false,
                    false, false));
            if (ablations) {
                v.add(new Variant("no calibration", guess, samples, true, true, false));
                v.add(new Variant("no arrivals", guess, samples, true, false, true));
                v.add(new Variant("no local load", guess, samples, false, true, true));
                v.add(new Variant("no history", h -> RuntimeGuess.of(RunHistory.empty(), StartTimeReplay.SITE_DEFAULT), samples,
                        true, true, true));
            }
            return v;
        }
    }

    /**
     * The figures of one class at one load: per variant median and 90th-percentile error and share in range, and
     * the 95% confidence interval of the median error ({@link #medianInterval}).
     */
    public record Row(double load, String waitClass, int jobs, List<String> variants, double[] median, double[] p90,
            double[] inRange, double[] medianLow, double[] medianHigh, double naiveMedian, double naiveP90) {
    }

    private StartTimeExperiment() {
    }

    /** The jobs measured at one load (the warm-up left out): what happened and what each variant said. */
    public record Measured(double load, List<String> variants, List<Observed> jobs) {
    }

    /** The pure part: every load's rows. */
    public static List<Row> simulate(Settings s, PrintStream progress) {
        return simulate(s, progress, new ArrayList<>());
    }

    /** Every load's rows; the jobs measured are added to {@code measuredOut}. */
    public static List<Row> simulate(Settings s, PrintStream progress, List<Measured> measuredOut) {
        List<Row> rows = new ArrayList<>();
        List<Variant> variants = s.variants();
        for (double load : s.loads()) {
            long t0 = System.nanoTime();
            int[] cores = Arrays.stream(HOSTS).map(h -> h * CORES_PER_HOST).toArray();
            StartTimeWorkload w = StartTimeWorkload.generate(s.jobs(), load, cores, s.seed());
            List<Observed> all = StartTimeReplay.run(w, HOSTS, CORES_PER_HOST,
                    PlacementPolicies.byName(PlacementPolicies.DEFAULT), variants);
            List<Observed> measured = all.subList((int) Math.round(all.size() * WARM_UP), all.size());
            measuredOut.add(new Measured(load, variants.stream().map(Variant::name).toList(), measured));
            for (WaitClass c : CLASSES) {
                rows.add(row(load, c, measured.stream().filter(o -> c.holds().test(o.waitMs())).toList(), variants));
            }
            progress.printf(Locale.ROOT, "  load %.2f: %d jobs replayed in %.1f s%n", load, all.size(),
                    (System.nanoTime() - t0) / 1e9);
        }
        return rows;
    }

    private static Row row(double load, WaitClass c, List<Observed> jobs, List<Variant> variants) {
        int n = variants.size();
        double[] median = new double[n];
        double[] p90 = new double[n];
        double[] in = new double[n];
        double[] low = new double[n];
        double[] high = new double[n];
        int[] ranks = medianInterval(jobs.size());
        for (int v = 0; v < n; v++) {
            int k = v;
            double[] err = jobs.stream().mapToDouble(o -> error(o.likely()[k], o)).sorted().toArray();
            median[v] = percentile(err, 0.5);
            low[v] = ranks == null ? Double.NaN : err[ranks[0]];
            high[v] = ranks == null ? Double.NaN : err[ranks[1]];
            p90[v] = percentile(err, 0.9);
            long inside = jobs.stream().filter(o -> o.low()[k] <= o.startMs() && o.startMs() <= o.high()[k]).count();
            in[v] = jobs.isEmpty() ? Double.NaN : inside / (double) jobs.size();
        }
        double[] naive = jobs.stream().mapToDouble(o -> error(o.naiveMs(), o)).sorted().toArray();
        return new Row(load, c.name(), jobs.size(), variants.stream().map(Variant::name).toList(), median, p90, in, low, high,
                percentile(naive, 0.5), percentile(naive, 0.9));
    }

    /**
     * The ranks (0-based, in the sorted errors) of a distribution-free 95% confidence interval of the median of
     * {@code n} errors: the k-th smallest and k-th largest, k the largest with P(Binomial(n, 1/2) < k) at most
     * 2.5%; null when {@code n} is too small for one (under 6).
     */
    static int[] medianInterval(int n) {
        double below = 0;
        int k = 0;
        while (k < n) {
            double next = below + Math.exp(logChoose(n, k) - n * Math.log(2));
            if (next > 0.025) {
                break;
            }
            below = next;
            k++;
        }
        return k == 0 ? null : new int[] {k - 1, n - k};
    }

    private static double logChoose(int n, int k) {
        double s = 0;
        for (int i = 1; i <= k; i++) {
            s += Math.log(n - k + i) - Math.log(i);
        }
        return s;
    }

    /** |predicted - actual| wait over the actual wait, at least a minute; infinite when no start was foreseen. */
    static double error(long predictedStart, Observed o) {
        if (predictedStart == Long.MAX_VALUE) {
            return Double.POSITIVE_INFINITY;
        }
        return Math.abs(predictedStart - o.startMs()) / (double) Math.max(MINUTE, o.waitMs());
    }

    private static double percentile(double[] sorted, double p) {
        return sorted.length == 0 ? Double.NaN : sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)];
    }

    /** The table, one block per load. */
    public static void print(List<Row> rows, PrintStream out) {
        if (rows.isEmpty()) {
            return;
        }
        List<String> variants = rows.get(0).variants();
        StringBuilder head = new StringBuilder(String.format("%-5s %-16s %6s", "load", "actual wait", "jobs"));
        for (String v : variants) {
            head.append(String.format(" | %-24s", v + ": median/p90/in 80%"));
        }
        head.append(" | naive: median/p90");
        out.println(head);
        for (Row r : rows) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-5.2f %-16s %6d", r.load(), r.waitClass(),
                    r.jobs()));
            for (int v = 0; v < variants.size(); v++) {
                line.append(String.format(Locale.ROOT, " | %7s %7s %8s", pct(r.median()[v]), pct(r.p90()[v]),
                        pct(r.inRange()[v])));
            }
            line.append(String.format(Locale.ROOT, " | %7s %7s", pct(r.naiveMedian()), pct(r.naiveP90())));
            out.println(line);
        }
        out.println();
        for (Row r : rows) {
            if (r.waitClass().startsWith("> 10 min")) {
                boolean met = r.median()[0] <= GOAL_MEDIAN_ERROR && r.inRange()[0] >= GOAL_IN_RANGE;
                out.printf(Locale.ROOT, "load %.2f, waits over 10 min (%d jobs): median error %s (95%% CI %s-%s; goal <= 25%%), "
                        + "%s inside the 80%% range (goal >= 70%%): %s%n", r.load(), r.jobs(), pct(r.median()[0]),
                        pct(r.medianLow()[0]), pct(r.medianHigh()[0]), pct(r.inRange()[0]), met ? "met" : "NOT met");
            }
        }
    }

    private static String pct(double x) {
        if (Double.isNaN(x)) {
            return "-";
        }
        return Double.isInfinite(x) ? "inf" : String.format(Locale.ROOT, "%.0f%%", 100 * x);
    }

    /**
     * Per measured job, its wait and what each variant said (waits in seconds; empty when no start was foreseen):
     * {@code start-time-jobs.csv} in {@code out}, to look at the errors beyond their medians.
     */
    public static void writeJobs(List<Measured> measured, Path out) {
        if (measured.isEmpty()) {
            return;
        }
        StringBuilder csv = new StringBuilder("load,job,nodes,wait_s,naive_s");
        for (String v : measured.get(0).variants()) {
            String n = v.replace(' ', '_');
            csv.append(',').append(n).append("_likely_s,").append(n).append("_low_s,").append(n).append("_high_s,")
                    .append(n).append("_replayed_s");
        }
        csv.append('\n');
        for (Measured m : measured) {
            for (Observed o : m.jobs()) {
                long at = o.job().arrivalMs();
                csv.append(String.format(Locale.ROOT, "%.2f,%d,%d,%s,%s", m.load(), o.job().id(), o.job().nodes(),
                        seconds(o.startMs(), at), seconds(o.naiveMs(), at)));
                for (int v = 0; v < m.variants().size(); v++) {
                    csv.append(',').append(seconds(o.likely()[v], at)).append(',').append(seconds(o.low()[v], at)).append(',')
                            .append(seconds(o.high()[v], at)).append(',').append(seconds(o.replayed()[v], at));
                }
                csv.append('\n');
            }
        }
        writeFile(out, "start-time-jobs.csv", csv);
    }

    private static String seconds(long startMs, long arrivalMs) {
        return startMs == Long.MAX_VALUE ? "" : String.format(Locale.ROOT, "%.0f", (startMs - arrivalMs) / 1000.0);
    }

    private static void writeFile(Path out, String name, CharSequence text) {
        try {
            Files.createDirectories(out);
            Files.writeString(out.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The rows as CSV: {@code start-time.csv} in {@code out}. */
    public static void write(List<Row> rows, Path out) {
        StringBuilder csv = new StringBuilder("load,wait_class,jobs,variant,median_error,p90_error,in_range,median_ci_low,"
                + "median_ci_high\n");
        for (Row r : rows) {
            for (int v = 0; v < r.variants().size(); v++) {
                csv.append(String.format(Locale.ROOT, "%.2f,%s,%d,%s,%.4f,%.4f,%.4f,%.4f,%.4f%n", r.load(), r.waitClass(),
                        r.jobs(), r.variants().get(v), r.median()[v], r.p90()[v], r.inRange()[v], r.medianLow()[v],
                        r.medianHigh()[v]));
            }
            csv.append(String.format(Locale.ROOT, "%.2f,%s,%d,naive,%.4f,%.4f,,,%n", r.load(), r.waitClass(), r.jobs(),
                    r.naiveMedian(), r.naiveP90()));
        }
        writeFile(out, "start-time.csv", csv);
    }
}
