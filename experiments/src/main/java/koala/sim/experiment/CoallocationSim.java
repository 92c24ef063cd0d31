package koala.sim.experiment;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;
import koala.sim.JobOutcome;
import koala.sim.JobSplit;
import koala.sim.MulticlusterQueue;
import koala.sim.MulticlusterQueue.Allocation;
import koala.sim.MulticlusterQueue.Cluster;
import koala.sim.MulticlusterQueue.Discipline;
import koala.sim.ParallelJob;
import koala.sim.ParallelWorkload;
import koala.sim.QueueRun;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.Styler;

/**
 * When does co-allocation pay? The question of Sonmez, Mohamed and Epema, "On the Benefit of
 * Processor Co-Allocation in Multicluster Grid Systems" (IEEE TPDS 2010), in the simulator, with
 * the scheduler's placement code ({@link MulticlusterQueue}).
 *
 * <p>At each load, one workload of rigid jobs ({@link ParallelWorkload}, the same jobs at every load,
 * only closer together) runs twice over: with every job held to one cluster, and with co-allocation
 * allowed at each wide-area slowdown {@code f} (a job on more than one cluster runs {@code f} times
 * its runtime). Then the break-even slowdown: the {@code f} at which the mean response time with
 * co-allocation reaches the one-cluster mean, found by bisection on [1, {@code maxSlowdown}]. The
 * means compare the same jobs: those that can run on one cluster (a job larger than every cluster
 * is counted apart, and still loads the grid when it is co-allocated).
 *
 * <p>{@link #simulate} is the pure part, a function of the {@link Settings} alone; the slowdowns are
 * a parameter so that measured ones (the testbed's) can be given in place of the defaults.
 * {@link #print} and {@link #write} report it: tables, {@code coallocation*.csv} and
 * {@code coallocation*.png}.
 */
public final class CoallocationSim {
    /** Loads 0.3, 0.4, .., 0.9 of the grid's nodes. */
    public static final List<Double> DEFAULT_LOADS = List.of(0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9);
    /** Slowdowns 1.0, 1.1, 1.25, 1.5 and 2.0. */
    public static final List<Slowdown> DEFAULT_SLOWDOWNS = List.of(Slowdown.of(1.0), Slowdown.of(1.1),
            Slowdown.of(1.25), Slowdown.of(1.5), Slowdown.of(2.0));
    /** The testbed's cells as {@code koala-testbed}'s {@code TestbedPlan} makes them by default. */
    public static final List<Cluster> TESTBED = List.of(new Cluster("fs0", 16), new Cluster("fs1", 8),
            new Cluster("fs2", 8));
    /** A run is overloaded when more than this share of its jobs still wait as the last one arrives. */
    public static final double OVERLOADED_QUEUE = 0.05;
    /** The break-even slowdown is found to within this. */
    static final double TOLERANCE = 0.005;

    private CoallocationSim() {
    }

    /**
     * A wide-area slowdown to try: the factor a co-allocated job's runtime is multiplied by, and
     * its name in tables and legends ("f=1.25", or "measured fs0+fs2" for one from the testbed).
     */
    public record Slowdown(String label, double factor) {
        public Slowdown {
            if (!(factor > 0) || Double.isInfinite(factor) || label == null || label.isBlank()) {
                throw new IllegalArgumentException("a slowdown is a positive factor with a name, got " + label + " " + factor);
            }
        }

        public static Slowdown of(double factor) {
            return new Slowdown(String.format(Locale.ROOT, "f=%.2f", factor), factor);
        }
    }

    /**
     * What to simulate.
     *
     * @param clusters    the grid (by default {@link #TESTBED})
     * @param loads       offered loads, fractions of the grid's nodes
     * @param slowdowns   the slowdowns to report co-allocation at
     * @param seed        the workload's seed
     * @param jobs        jobs per run
     * @param split       how a job may be split: flexible by Flexible Cluster Minimization, or
     *                    components of a size placed by a policy
     * @param maxSlowdown the break-even search's upper end
     */
    public record Settings(List<Cluster> clusters, List<Double> loads, List<Slowdown> slowdowns, long seed, int jobs,
            ParallelWorkload workload, JobSplit split, Discipline discipline, double maxSlowdown) {
        public Settings {
            clusters = List.copyOf(clusters);
            loads = List.copyOf(loads);
            slowdowns = List.copyOf(slowdowns);
            if (loads.isEmpty() || !loads.stream().allMatch(l -> l > 0 && l < 10)) {
                throw new IllegalArgumentException("loads are fractions of the grid's nodes above 0, e.g. 0.3,0.5,0.9");
            }
            if (jobs < 1 || !(maxSlowdown > 1) || Double.isInfinite(maxSlowdown)) {
                throw new IllegalArgumentException("need at least 1 job a run and a largest slowdown above 1");
            }
        }

        /** The defaults: the testbed's cells, loads 0.3..0.9, f 1.0..2.0, 10,000 jobs, seed 1, FCFS, FCM. */
        public static Settings defaults() {
            return new Settings(TESTBED, DEFAULT_LOADS, DEFAULT_SLOWDOWNS, 1, 10_000, ParallelWorkload.DEFAULT,
                    JobSplit.FLEXIBLE, Discipline.FCFS, 4);
        }

        /** The same settings with other slowdowns, e.g. the ones measured on the testbed. */
        public Settings withSlowdowns(List<Slowdown> value) {
            return new Settings(clusters, loads, value, seed, jobs, workload, split, discipline, maxSlowdown);
        }

        public Settings withLoads(List<Double> value) {
            return new Settings(clusters, value, slowdowns, seed, jobs, workload, split, discipline, maxSlowdown);
        }

        public Settings withSeed(long value) {
            return new Settings(clusters, loads, slowdowns, value, jobs, workload, split, discipline, maxSlowdown);
        }

        public Settings withJobs(int value) {
            return new Settings(clusters, loads, slowdowns, seed, value, workload, split, discipline, maxSlowdown);
        }

        public MulticlusterQueue.Setup setup() {
            return new MulticlusterQueue.Setup(clusters, split, discipline);
        }
    }

    /**
     * One run's figures, over the jobs that can run on one cluster.
     *
     * @param unrunnable           jobs that could not run at all
     * @param waitingAtLastArrival jobs still in the queue as the last one arrived
     * @param overloaded           more than {@link #OVERLOADED_QUEUE} of the jobs were: the queue
     *                             grows, and the means grow with the number of jobs
     */
    public record Figures(String label, double slowdown, int ran, int unrunnable, double meanWaitSeconds,
            double meanResponseSeconds, double coallocatedPercent, double utilizationPercent, int waitingAtLastArrival,
            boolean overloaded) {
        static Figures of(String label, QueueRun run, Predicate<JobOutcome> compared) {
            return new Figures(label, run.slowdown(), run.ran(), run.unrunnable(), run.meanWaitSeconds(compared),
                    run.meanResponseSeconds(compared), run.coallocatedPercent(), run.utilizationPercent(),
                    run.waitingAtLastArrival(), run.waitingAtLastArrival() > OVERLOADED_QUEUE * run.outcomes().size());
        }
    }

    /**
     * Where co-allocation stops paying at one load.
     *
     * @param oneClusterOverloaded the one-cluster run it is compared with is overloaded: both means
     *                             then grow with the number of jobs, and the break-even is rather
     *                             the slowdown at which co-allocated jobs, running longer, leave the
     *                             grid no more throughput than holding jobs to one cluster does
     */
    public record BreakEven(Kind kind, double slowdown, boolean oneClusterOverloaded) {
        public enum Kind {
            /** Co-allocation does not pay even at f = 1: its mean response is no lower than one cluster's. */
            NEVER,
            /** It pays below {@code slowdown} and not from there on. */
            AT,
            /** It still pays at the search's upper end, {@code slowdown}. */
            BEYOND
        }

        /** "1.37", "none", "> 4.00", with a "*" when the one-cluster run is overloaded. */
        public String text() {
            return switch (kind) {
                case NEVER -> "none";
                case AT -> String.format(Locale.ROOT, "%.2f", slowdown);
                case BEYOND -> String.format(Locale.ROOT, "> %.2f", slowdown);
            } + (oneClusterOverloaded ? "*" : "");
        }
    }

    /** One load: its arrival rate, the one-cluster run, the co-allocated run at each slowdown, the break-even. */
    public record LoadRow(double load, double arrivalRate, Figures oneCluster, List<Figures> coallocated,
            BreakEven breakEven) {
        public LoadRow {
            coallocated = List.copyOf(coallocated);
        }
    }

    public record Result(Settings settings, List<LoadRow> rows) {
        public Result {
            rows = List.copyOf(rows);
        }
    }

    /** Every load (in parallel, results in load order: the figures do not depend on the cores). */
    public static Result simulate(Settings settings) {
        return new Result(settings, settings.loads().parallelStream().map(load -> load(settings, load)).toList());
    }

    static LoadRow load(Settings s, double load) {
        MulticlusterQueue.Setup setup = s.setup();
        double rate = s.workload().arrivalRate(load, setup.capacity());
        List<ParallelJob> jobs = s.workload().generate(s.jobs(), rate, s.seed());
        QueueRun held = MulticlusterQueue.run(setup, jobs, Allocation.ONE_CLUSTER, 1);
        boolean[] heldRan = new boolean[jobs.size()];
        held.outcomes().forEach(o -> heldRan[o.job().id() - 1] = o.didRun());
        Predicate<JobOutcome> compared = o -> heldRan[o.job().id() - 1];
        List<Figures> coallocated = new ArrayList<>();
        for (Slowdown f : s.slowdowns()) {
            coallocated.add(Figures.of(f.label(), MulticlusterQueue.run(setup, jobs, Allocation.COALLOCATED, f.factor()),
                    compared));
        }
        Figures oneCluster = Figures.of("one cluster", held, compared);
        return new LoadRow(load, rate, oneCluster, coallocated, breakEven(setup, jobs, compared, oneCluster,
                s.maxSlowdown()));
    }

    /**
     * The slowdown at which the mean response time of {@code jobs} co-allocated reaches
     * {@code oneCluster}'s, by bisection on [1, {@code max}] to within {@link #TOLERANCE}: the midpoint of
     * the last interval whose lower end pays and whose upper end does not. It assumes the mean grows
     * with {@code f}, as it does but for noise: a longer co-allocated run holds its nodes longer.
     */
    static BreakEven breakEven(MulticlusterQueue.Setup setup, List<ParallelJob> jobs, Predicate<JobOutcome> compared,
            Figures oneCluster, double max) {
        Predicate<Double> pays = f -> MulticlusterQueue.run(setup, jobs, Allocation.COALLOCATED, f)
                .meanResponseSeconds(compared) < oneCluster.meanResponseSeconds();
        boolean overloaded = oneCluster.overloaded();
        if (!pays.test(1.0)) {
            return new BreakEven(BreakEven.Kind.NEVER, 1, overloaded);
        }
        if (pays.test(max)) {
            return new BreakEven(BreakEven.Kind.BEYOND, max, overloaded);
        }
        double lo = 1;
        double hi = max;
        while (hi - lo > TOLERANCE) {
            double mid = (lo + hi) / 2;
            if (pays.test(mid)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return new BreakEven(BreakEven.Kind.AT, (lo + hi) / 2, overloaded);
    }

    /** The tables, the paper's conclusion beside ours. */
    public static void print(Result r, PrintStream out) {
        Settings s = r.settings();
        MulticlusterQueue.Setup setup = s.setup();
        out.printf(Locale.ROOT, "Co-allocation in the simulator: clusters %s (%d nodes); %,d jobs a run, %s; Poisson arrivals at "
                        + "load × %d nodes / (%.2f nodes × %s s); %s placement queue; co-allocated jobs placed by %s; "
                        + "seed %d%n", join(s.clusters()), setup.capacity(), s.jobs(), s.workload().describe(),
                setup.capacity(), s.workload().sizes().mean(), fmt(s.workload().runtime().meanSeconds()),
                s.discipline() == Discipline.FCFS ? "FCFS" : "in-order (the scheduler's)", s.split().spec(), s.seed());
        int unrunnable = r.rows().get(0).oneCluster().unrunnable();
        if (unrunnable > 0) {
            out.printf(Locale.ROOT, "%,d jobs (larger than every cluster) cannot run on one cluster; the means below are over the "
                    + "other %,d, which run either way%n", unrunnable, r.rows().get(0).oneCluster().ran());
        }
        out.println();
        out.println("Mean response time, s (wait + runtime; a job on more than one cluster runs f × its runtime)");
        table(r, out, Figures::meanResponseSeconds, true);
        out.println();
        out.println("Mean wait, s");
        table(r, out, Figures::meanWaitSeconds, false);
        out.println();
        out.println("Jobs co-allocated, % / node utilization, %");
        header(r, out, "");
        for (LoadRow row : r.rows()) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %4.2f  %14s", row.load(),
                    String.format(Locale.ROOT, "- / %.1f", row.oneCluster().utilizationPercent())));
            for (Figures f : row.coallocated()) {
                line.append(String.format(Locale.ROOT, "  %" + width(r) + "s", String.format(Locale.ROOT,
                        "%.1f / %.1f", f.coallocatedPercent(), f.utilizationPercent())));
            }
            out.println(line);
        }
        if (r.rows().stream().anyMatch(row -> row.oneCluster().overloaded()
                || row.coallocated().stream().anyMatch(Figures::overloaded))) {
            out.printf("%n* overloaded: more than %.0f%% of the jobs still waited when the last one arrived; the queue "
                    + "grows, and so do these%n  means with the number of jobs. A break-even marked * is against an "
                    + "overloaded one-cluster run.%n", 100 * OVERLOADED_QUEUE);
        }
        out.println();
        conclusion(r, out);
    }

    private static void table(Result r, PrintStream out, java.util.function.ToDoubleFunction<Figures> figure,
            boolean breakEven) {
        header(r, out, breakEven ? "  co-allocation pays while f <" : "");
        for (LoadRow row : r.rows()) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %4.2f  %14s", row.load(),
                    cell(row.oneCluster(), figure)));
            for (Figures f : row.coallocated()) {
                line.append(String.format(Locale.ROOT, "  %" + width(r) + "s", cell(f, figure)));
            }
            if (breakEven) {
                line.append("  ").append(row.breakEven().text());
            }
            out.println(line);
        }
    }

    /** A column per slowdown: 12 characters, or its longest name's. */
    private static int width(Result r) {
        return Math.max(12, r.settings().slowdowns().stream().mapToInt(f -> f.label().length()).max().orElse(0));
    }

    private static void header(Result r, PrintStream out, String last) {
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "  %4s  %14s", "load", "one cluster"));
        for (Slowdown f : r.settings().slowdowns()) {
            head.append(String.format(Locale.ROOT, "  %" + width(r) + "s", f.label()));
        }
        out.println(head.append(last));
    }

    private static String cell(Figures f, java.util.function.ToDoubleFunction<Figures> figure) {
        return String.format(Locale.ROOT, "%.0f%s", figure.applyAsDouble(f), f.overloaded() ? "*" : "");
    }

    /**
     * What the paper says beside what this run shows. Only what its abstract and introduction say:
     * no figure of the paper is quoted, since its measured slowdowns are for its applications on
     * DAS-3, not for this grid.
     */
    static void conclusion(Result r, PrintStream out) {
        out.println("The paper (Sonmez, Mohamed, Epema, IEEE TPDS 2010) reports that co-allocation is advantageous as long "
                + "as the extension");
        out.println("of job runtimes by inter-cluster communication is not too large; for one job, it pays when the "
                + "wide-area overhead is");
        out.println("smaller than the extra wait the job would have on a single cluster. Its figures are for its own "
                + "applications and grid;");
        out.println("ours, for this simulated grid, follow.");
        List<LoadRow> stable = r.rows().stream().filter(row -> !row.breakEven().oneClusterOverloaded()).toList();
        List<LoadRow> overloaded = r.rows().stream().filter(row -> row.breakEven().oneClusterOverloaded()).toList();
        if (!stable.isEmpty()) {
            out.printf("Here, where holding jobs to one cluster does not overload the grid (%s),%nco-allocation pays up to "
                    + "a slowdown of %s.%n", loads(stable), range(stable));
        }
        if (!overloaded.isEmpty()) {
            out.printf("Where it does (%s), up to %s: about where co-allocated jobs, running longer,%nleave the grid no "
                    + "more throughput than one cluster does.%n", loads(overloaded), range(overloaded));
        }
    }

    private static String loads(List<LoadRow> rows) {
        return (rows.size() == 1 ? "load " : "loads ") + String.join(", ", rows.stream()
                .map(row -> String.format(Locale.ROOT, "%.2f", row.load())).toList());
    }

    /** "1.70 (load 0.60) to 2.04 (load 0.30)", or one figure when they agree to two decimals. */
    private static String range(List<LoadRow> rows) {
        LoadRow low = rows.stream().min(java.util.Comparator.comparingDouble(row -> row.breakEven().slowdown())).orElseThrow();
        LoadRow high = rows.stream().max(java.util.Comparator.comparingDouble(row -> row.breakEven().slowdown())).orElseThrow();
        String lowText = plain(low.breakEven());
        String highText = plain(high.breakEven());
        return lowText.equals(highText) ? lowText : String.format(Locale.ROOT, "%s (load %.2f) to %s (load %.2f)",
                lowText, low.load(), highText, high.load());
    }

    private static String plain(BreakEven b) {
        return switch (b.kind()) {
            case NEVER -> "1 (it never pays)";
            case AT -> String.format(Locale.ROOT, "%.2f", b.slowdown());
            case BEYOND -> String.format(Locale.ROOT, "beyond %.2f", b.slowdown());
        };
    }

    /** {@code coallocation.csv} (every run), {@code coallocation-breakeven.csv}, and the two PNGs. */
    public static List<Path> write(Result r, Path dir) {
        List<String> runs = new ArrayList<>();
        List<String> breakEven = new ArrayList<>();
        for (LoadRow row : r.rows()) {
            runs.add(csv(row, "one-cluster", row.oneCluster()));
            row.coallocated().forEach(f -> runs.add(csv(row, "coallocated", f)));
            breakEven.add(String.format(Locale.ROOT, "%.2f,%s,%.4f,%.1f", row.load(),
                    row.breakEven().kind().name().toLowerCase(Locale.ROOT), row.breakEven().slowdown(),
                    row.oneCluster().meanResponseSeconds()));
        }
        List<Path> files = new ArrayList<>();
        files.add(Charts.csv(dir, "coallocation", "load,arrival_rate_per_s,allocation,label,slowdown,ran,unrunnable,"
                + "mean_wait_s,mean_response_s,coallocated_pct,utilization_pct,waiting_at_last_arrival,overloaded", runs));
        files.add(Charts.csv(dir, "coallocation-breakeven", "load,kind,break_even_slowdown,one_cluster_response_s",
                breakEven));
        files.add(Charts.png(responseChart(r), dir, "coallocation"));
        files.add(Charts.png(breakEvenChart(r), dir, "coallocation-breakeven"));
        return files;
    }

    private static String csv(LoadRow row, String allocation, Figures f) {
        return String.format(Locale.ROOT, "%.2f,%.6f,%s,%s,%.4f,%d,%d,%.1f,%.1f,%.2f,%.2f,%d,%s", row.load(),
                row.arrivalRate(), allocation, f.label(), f.slowdown(), f.ran(), f.unrunnable(), f.meanWaitSeconds(),
                f.meanResponseSeconds(), f.coallocatedPercent(), f.utilizationPercent(), f.waitingAtLastArrival(),
                f.overloaded());
    }

    static XYChart responseChart(Result r) {
        Settings s = r.settings();
        XYChart chart = Charts.chart("Mean response time: one cluster vs co-allocation at slowdown f",
                "offered load, fraction of " + s.setup().capacity() + " nodes (" + join(s.clusters()) + "; "
                        + s.split().spec() + ", " + (s.discipline() == Discipline.FCFS ? "FCFS" : "in order") + ")",
                "mean response time (s, log scale)");
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        chart.getStyler().setYAxisDecimalPattern("#,###");
        List<Double> loads = r.rows().stream().map(LoadRow::load).toList();
        Charts.add(chart, new Charts.Line("one cluster", Charts.unbox(loads),
                r.rows().stream().mapToDouble(row -> row.oneCluster().meanResponseSeconds()).toArray(), null, true));
        chart.getSeriesMap().get("one cluster").setLineWidth(3);
        for (int i = 0; i < s.slowdowns().size(); i++) {
            int k = i;
            Charts.add(chart, new Charts.Line("co-allocation " + s.slowdowns().get(i).label(), Charts.unbox(loads),
                    r.rows().stream().mapToDouble(row -> row.coallocated().get(k).meanResponseSeconds()).toArray(), null,
                    true));
        }
        return chart;
    }

    static XYChart breakEvenChart(Result r) {
        XYChart chart = Charts.chart("Break-even wide-area slowdown: co-allocation pays below the line",
                "offered load, fraction of " + r.settings().setup().capacity() + " nodes", "slowdown f");
        chart.getStyler().setYAxisMin(1.0);
        chart.getStyler().setYAxisDecimalPattern("0.00");
        List<LoadRow> rows = r.rows();
        Charts.add(chart, new Charts.Line("break-even f (" + fmt(r.settings().maxSlowdown()) + " = still pays at " + fmt(r.settings().maxSlowdown()) + ")",
                rows.stream().mapToDouble(LoadRow::load).toArray(),
                rows.stream().mapToDouble(row -> row.breakEven().slowdown()).toArray(), null, true));
        List<LoadRow> overloaded = rows.stream().filter(row -> row.breakEven().oneClusterOverloaded()).toList();
        if (!overloaded.isEmpty()) {
            Charts.add(chart, new Charts.Line("one cluster overloaded", overloaded.stream().mapToDouble(LoadRow::load)
                    .toArray(), overloaded.stream().mapToDouble(row -> row.breakEven().slowdown()).toArray(), null, true));
            chart.getSeriesMap().get("one cluster overloaded").setXYSeriesRenderStyle(
                    org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Scatter);
            chart.getSeriesMap().get("one cluster overloaded").setMarker(
                    org.knowm.xchart.style.markers.SeriesMarkers.DIAMOND);
            chart.getSeriesMap().get("one cluster overloaded").setMarkerColor(java.awt.Color.RED);
        }
        return chart;
    }

    private static String join(List<Cluster> clusters) {
        return String.join(", ", clusters.stream().map(Cluster::toString).toList());
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
