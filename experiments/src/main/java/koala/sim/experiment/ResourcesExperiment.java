package koala.sim.experiment;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import koala.placement.PlacementPolicy;
import koala.placement.Resources;
import koala.sim.ResourceJob;
import koala.sim.ResourceMix;
import koala.sim.ResourceQueue;
import koala.sim.ResourceQueue.Host;
import koala.sim.ResourceQueue.Mode;
import koala.sim.ResourceQueue.Site;
import koala.sim.ResourceRun;

/**
 * Jobs that ask for cores, memory and GPUs on a grid of unequal hosts, placed node-granular as KOALA
 * did before it knew resources (a node is a whole host; placement counts idle hosts) and by resources
 * (the placement policies fit each node on a host and hosts are shared), both by the scheduler's own
 * placement code ({@link ResourceQueue}), on the same grid and the same jobs.
 *
 * <p>The grid is the shape {@code testbed up --shape} gives the testbed, times {@code scale}: fs0 with
 * 12 hosts of 4 cores and 8G and 4 hosts of 16 cores, 64G and 2 GPUs, fs1 with 8 hosts of 8 cores and
 * 16G. At each load the mix ({@link ResourceMix#DEFAULT}) arrives at the rate that offers that share of
 * the grid in the resource it asks most of; a load of 0 submits every job at once (a backlog). Jobs per
 * hour are counted until the last job left the queue ({@link ResourceRun#jobsPerHour}); the goal is
 * judged at the highest load with arrivals ({@link #headline}), where each placement is given the same
 * jobs at the same times. In a backlog, jobs per hour count whichever jobs get done: a placement that gives
 * up the large ones early fills its hours with small ones.
 *
 * <p>{@link #simulate} is the pure part, a function of the {@link Settings}; {@link #print} and
 * {@link #write} report it.
 */
public final class ResourcesExperiment {
    /** The goal: resource-aware placement finishes at least this many times the jobs per hour. */
    public static final double GOAL = 1.3;
    /** A run is overloaded when more than this share of its jobs still wait as the last one arrives. */
    public static final double OVERLOADED_QUEUE = 0.05;

    private ResourcesExperiment() {
    }

    /**
     * What to simulate.
     *
     * @param scale     the grid is the testbed's shape times this
     * @param loads     offered loads, fractions of the grid's busiest resource; 0 for a backlog
     * @param failAfter how long a job placed where it does not fit runs before it fails
     * @param tries     how many times in all its user submits such a job
     */
    public record Settings(int scale, List<Double> loads, int jobs, long seed, ResourceMix mix, PlacementPolicy policy,
            Duration failAfter, int tries) {
        public Settings {
            loads = List.copyOf(loads);
            if (scale < 1 || jobs < 1 || tries < 1 || failAfter.isNegative() || loads.isEmpty()
                    || !loads.stream().allMatch(l -> l >= 0 && l < 10)) {
                throw new IllegalArgumentException("need a scale, jobs and tries of at least 1, a failure time of 0 s or "
                        + "more and loads from 0 (a backlog) to below 10");
            }
        }

        /** Scale 4 (96 hosts), loads 0.5, 0.7 and 0.9, 4,000 jobs, seed 1, Worst-Fit, 5 minutes, 3 tries. */
        public static Settings defaults() {
            return new Settings(4, List.of(0.5, 0.7, 0.9), 4000, 1, ResourceMix.DEFAULT,
                    koala.placement.PlacementPolicies.byName(koala.placement.PlacementPolicies.DEFAULT),
                    Duration.ofMinutes(5), 3);
        }

        public ResourceQueue.Setup setup() {
            return new ResourceQueue.Setup(grid(scale), policy, failAfter, tries, seed);
        }
    }

    /** The testbed's unequal hosts times {@code scale}: fs0-n000.. small then big, fs1-n000.. */
    public static List<Site> grid(int scale) {
        List<Host> fs0 = new ArrayList<>();
        for (int i = 0; i < 16 * scale; i++) {
            fs0.add(new Host(String.format(Locale.ROOT, "fs0-n%03d", i), i < 12 * scale ? gib(4, 8, 0) : gib(16, 64, 2)));
        }
        List<Host> fs1 = new ArrayList<>();
        for (int i = 0; i < 8 * scale; i++) {
            fs1.add(new Host(String.format(Locale.ROOT, "fs1-n%03d", i), gib(8, 16, 0)));
        }
        return List.of(new Site("fs0", fs0), new Site("fs1", fs1));
    }

    private static Resources gib(int cores, int memoryGiB, int gpus) {
        return new Resources(cores, memoryGiB * 1024L, gpus);
    }

    /** One placement's figures at one load. */
    public record Figures(Mode mode, int jobs, int ran, int neverRan, int givenUp, double jobsPerHour, double meanWait,
            double medianWait, double p90Wait, java.util.Map<String, int[]> byKind, double[] used, double[] held, double[] lost, int misfitPlacements,
            int misfitNodes, int waitingAtLastArrival, boolean overloaded, double hours) {
        static Figures of(ResourceRun run) {
            double[] used = new double[3];
            double[] held = new double[3];
            double[] lost = new double[3];
            for (int d = 0; d < 3; d++) {
                used[d] = run.usedPercent(d);
                held[d] = run.heldPercent(d);
                lost[d] = run.lostPercent(d);
            }
            return new Figures(run.mode(), run.outcomes().size(), run.ran(), run.neverRan(), run.givenUp(),
                    run.jobsPerHour(), run.meanWaitSeconds(), run.waitQuantileSeconds(0.5), run.waitQuantileSeconds(0.9),
                    kinds(run), used, held, lost, run.misfitPlacements(), run.misfitNodes(), run.waitingAtLastArrival(),
                    run.waitingAtLastArrival() > OVERLOADED_QUEUE * run.outcomes().size(), run.makespan().toMillis() / 3.6e6);
        }
    }

    /** Per job class, in order of first appearance: [jobs, jobs that ran]. */
    static java.util.Map<String, int[]> kinds(ResourceRun run) {
        java.util.Map<String, int[]> kinds = new java.util.LinkedHashMap<>();
        for (koala.sim.ResourceOutcome o : run.outcomes()) {
            int[] c = kinds.computeIfAbsent(o.job().kind(), k -> new int[2]);
            c[0]++;
            c[1] += o.didRun() ? 1 : 0;
        }
        return kinds;
    }

    /**
     * One load: its arrival rate (0 for a backlog) and each placement's figures, in {@link Mode} order
     * (slots, whole hosts, resource-aware).
     */
    public record Row(double load, double rate, List<Figures> figures) {
        public Row {
            figures = List.copyOf(figures);
        }

        public Figures of(Mode mode) {
            return figures.get(mode.ordinal());
        }

        /** The node-granular placement that finished the most jobs per hour (ties: slots, today's default). */
        public Figures bestNodeGranular() {
            Figures slots = of(Mode.SLOTS);
            Figures whole = of(Mode.WHOLE_HOSTS);
            return whole.jobsPerHour() > slots.jobsPerHour() ? whole : slots;
        }

        /** Jobs per hour, resource-aware over the better node-granular placement. */
        public double ratio() {
            double base = bestNodeGranular().jobsPerHour();
            return base == 0 ? Double.POSITIVE_INFINITY : of(Mode.RESOURCE_AWARE).jobsPerHour() / base;
        }

        public boolean backlog() {
            return load == 0;
        }
    }

    public record Result(Settings settings, List<Row> rows, double wallSeconds) {
        public Result {
            rows = List.copyOf(rows);
        }
    }

    /** Every load, both placements; a line on {@code progress} per run. */
    public static Result simulate(Settings s, PrintStream progress) {
        long t0 = System.nanoTime();
        ResourceQueue.Setup setup = s.setup();
        Resources total = setup.total();
        List<Row> rows = new ArrayList<>();
        for (double load : s.loads()) {
            double rate = load == 0 ? 0 : s.mix().arrivalRate(load, total);
            List<ResourceJob> jobs = s.mix().generate(s.jobs(), rate, s.seed());
            List<Figures> f = new ArrayList<>();
            for (Mode mode : Mode.values()) {
                long t = System.nanoTime();
                f.add(Figures.of(ResourceQueue.run(setup, jobs, mode)));
                progress.printf(Locale.ROOT, "  %s, %s: %.1f s%n", label(load), label(mode), (System.nanoTime() - t) / 1e9);
            }
            rows.add(new Row(load, rate, f));
        }
        return new Result(s, rows, (System.nanoTime() - t0) / 1e9);
    }

    static String label(double load) {
        return load == 0 ? "backlog" : String.format(Locale.ROOT, "load %.2f", load);
    }

    static String label(Mode mode) {
        return switch (mode) {
            case SLOTS -> "node = slot";
            case WHOLE_HOSTS -> "node = whole host";
            case RESOURCE_AWARE -> "resource-aware";
        };
    }

    /** The table per load, the ratio and whether the goal is met. */
    public static void print(Result r, PrintStream out) {
        Settings s = r.settings();
        ResourceQueue.Setup setup = s.setup();
        Resources total = setup.total();
        out.printf(Locale.ROOT, "Placement by resources in the simulator: fs0 %d hosts of 4 cores and 8G + %d of 16 cores, 64G "
                        + "and 2 GPUs, fs1 %d hosts of 8 cores and 16G (%s in all); %,d jobs a run: %s; %s; in-order "
                        + "placement queue; seed %d%n", 12 * s.scale(), 4 * s.scale(), 8 * s.scale(), total.describe(), s.jobs(),
                s.mix().describe(), s.policy().name(), s.seed());
        out.printf(Locale.ROOT, "node-granular: a node is one SGE slot (a c-core node held to 1 core runs c times longer) or "
                + "a whole host; placement counts idle ones and SGE picks the hosts; a component that does not fit every host is "
                + "pinned to a site; a node without the memory or GPUs it needs fails after %d s and its job is submitted again, "
                + "%d tries in all%n", s.failAfter().toSeconds(), s.tries());
        for (Row row : r.rows()) {
            out.println();
            if (row.backlog()) {
                out.printf(Locale.ROOT, "Backlog: all %,d jobs submitted at once (jobs per hour count the jobs done, whatever "
                        + "their size: a placement that gives up the large ones early fills its hours with small ones)%n", s.jobs());
            } else {
                double[] o = s.mix().offered(row.rate(), total);
                out.printf(Locale.ROOT, "Load %.2f: %.1f jobs per hour offered (cores %.0f%%, memory %.0f%%, GPUs %.0f%% of the grid)%n",
                        row.load(), row.rate() * 3600, 100 * o[0], 100 * o[1], 100 * o[2]);
            }
            table(row, out);
        }
        out.println();
        out.println("Jobs per hour, resource-aware / the better node-granular placement:");
        for (Row row : r.rows()) {
            Figures base = row.bestNodeGranular();
            out.printf(Locale.ROOT, "  %-10s %6.1f / %6.1f (%s) = %.2fx%n", label(row.load()),
                    row.of(Mode.RESOURCE_AWARE).jobsPerHour(), base.jobsPerHour(), label(base.mode()), row.ratio());
        }
        Row headline = headline(r);
        int misfits = r.rows().stream().mapToInt(x -> x.of(Mode.RESOURCE_AWARE).misfitPlacements()).sum();
        out.printf(Locale.ROOT, "%n%s: %.2fx the jobs per hour (goal >= %.1f): %s; resource-aware placed %d jobs where they did "
                        + "not fit (must be 0)%n", label(headline.load()), headline.ratio(), GOAL,
                headline.ratio() >= GOAL ? "met" : "NOT met", misfits);
        out.printf(Locale.ROOT, "wall time %.1f s%n", r.wallSeconds());
    }

    /** The row the goal is judged on: the highest load with arrivals (a backlog only when there is no other). */
    public static Row headline(Result r) {
        return r.rows().stream().filter(x -> !x.backlog()).max(java.util.Comparator.comparingDouble(Row::load))
                .orElse(r.rows().get(0));
    }

    private static void table(Row row, PrintStream out) {
        List<Figures> f = row.figures();
        out.printf(Locale.ROOT, "  %-44s  %22s  %22s  %22s%n", "", label(Mode.SLOTS), label(Mode.WHOLE_HOSTS),
                label(Mode.RESOURCE_AWARE));
        line(out, "jobs per hour (ran, until the queue emptied)", f, x -> String.format(Locale.ROOT, "%.1f", x.jobsPerHour()));
        line(out, "hours to finish every job", f, x -> String.format(Locale.ROOT, "%.1f", x.hours()));
        if (!row.backlog()) {
            line(out, "still waiting as the last job arrived", f, x -> x.waitingAtLastArrival() + (x.overloaded() ? " (overloaded)" : ""));
        }
        line(out, "wait, min: mean / median / p90", f, x -> String.format(Locale.ROOT, "%.0f / %.0f / %.0f", x.meanWait() / 60,
                x.medianWait() / 60, x.p90Wait() / 60));
        line(out, "used, %: cores / memory / GPUs", f, x -> triple(x.used()));
        line(out, "held by nodes, %: cores / memory / GPUs", f, x -> triple(x.held()));
        line(out, "held by tries that failed, %", f, x -> triple(x.lost()));
        line(out, "placed where they did not fit: tries (nodes)", f, x -> x.misfitPlacements() + " (" + x.misfitNodes() + ")");
        line(out, "jobs that never ran (given up)", f, x -> x.neverRan() + " (" + x.givenUp() + ")");
        line(out, "% ran: " + String.join(" / ", f.get(0).byKind().keySet()), f, x -> x.byKind().values().stream()
                .map(c -> String.valueOf(Math.round(100.0 * c[1] / c[0]))).collect(java.util.stream.Collectors.joining(" / ")));
    }

    private static String triple(double[] v) {
        return String.format(Locale.ROOT, "%.0f / %.0f / %.0f", v[0], v[1], v[2]);
    }

    private static void line(PrintStream out, String name, List<Figures> f, java.util.function.Function<Figures, String> v) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "  %-44s", name));
        for (Figures x : f) {
            b.append(String.format(Locale.ROOT, "  %22s", v.apply(x)));
        }
        out.println(b);
    }

    /** {@code resources.csv}: one row per load and placement (slots, whole-hosts, resource-aware). */
    public static Path write(Result r, Path dir) {
        List<String> rows = new ArrayList<>();
        for (Row row : r.rows()) {
            for (Figures x : row.figures()) {
                rows.add(String.format(Locale.ROOT, "%.2f,%.4f,%s,%d,%d,%d,%d,%.3f,%.3f,%.1f,%.1f,%.1f,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f,"
                                + "%.2f,%.2f,%.2f,%d,%d,%d", row.load(), row.rate() * 3600,
                        x.mode().name().toLowerCase(Locale.ROOT).replace('_', '-'), x.jobs(), x.ran(),
                        x.neverRan(), x.givenUp(), x.jobsPerHour(), x.hours(), x.meanWait(), x.medianWait(), x.p90Wait(),
                        x.used()[0], x.used()[1], x.used()[2], x.held()[0], x.held()[1], x.held()[2], x.lost()[0],
                        x.lost()[1], x.lost()[2], x.misfitPlacements(), x.misfitNodes(), x.waitingAtLastArrival()));
            }
        }
        return Charts.csv(dir, "resources", "load,jobs_per_hour_offered,placement,jobs,ran,never_ran,given_up,jobs_per_hour,"
                + "hours,wait_mean_s,wait_median_s,wait_p90_s,used_cores_pct,used_memory_pct,used_gpus_pct,held_cores_pct,"
                + "held_memory_pct,held_gpus_pct,failed_cores_pct,failed_memory_pct,failed_gpus_pct,misfit_tries,misfit_nodes,"
                + "waiting_at_last_arrival", rows);
    }
}
