package koala.sim.experiment;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import koala.constraints.Constraint;
import koala.constraints.Container;
import koala.constraints.Group;
import koala.constraints.Tags;
import koala.placement.ComponentNeed;
import koala.placement.FileLocations;
import koala.placement.FlexibleClusterMinimization;
import koala.placement.GridView;
import koala.placement.JobNeed;
import koala.placement.SiteConstraints;
import koala.placement.SiteView;

/**
 * The scheduler's own path for a grow with constraints ({@link SiteConstraints} around Flexible Cluster
 * Minimization, as {@code Allocations} places one), timed over sites and on hosts on the same state:
 * {@code sites} sites of {@code hosts} hosts of 4 slots (2 idle each), {@code instances} instances of 4
 * workers each on random hosts, each instance keeping at most 2 of its workers per host (hard, in force).
 * Each grow is of 1 worker of a new instance that keeps the same. Over sites the bound is kept per site;
 * on hosts the decision chooses the host, and builds a node per host of the grid. Each decision is
 * timed {@code repeats} times, the fastest kept (the others are the machine's other work).
 */
public final class SchedulerGrowTiming {
    private SchedulerGrowTiming() {
    }

    /** Median, 99th percentile and maximum of the decisions, in ms. */
    public record Figures(double median, double p99, double max) {
    }

    public record Result(int sites, int hosts, int instances, int grows, Figures overSites, Figures onHosts) {
    }

    public static Result run(int sites, int hosts, int instances, int grows, int repeats, long seed) {
        Random random = new Random(seed);
        List<SiteView> views = new ArrayList<>();
        for (int s = 0; s < sites; s++) {
            Map<String, Integer> idle = new HashMap<>();
            for (int h = 0; h < hosts; h++) {
                idle.put(host(s, h), 2);
            }
            views.add(new SiteView(site(s), hosts * 4, hosts * 2, idle));
        }
        GridView grid = new GridView(views, FileLocations.NONE);
        List<Container> running = new ArrayList<>();
        Map<String, String> at = new HashMap<>();
        List<Constraint> inForce = new ArrayList<>();
        for (int i = 0; i < instances; i++) {
            Tags workers = Tags.of("job=" + i, "role=worker");
            inForce.add(new Constraint.Cardinality(workers, workers, Group.HOST, 0, 2, true));
            for (int k = 0; k < 4; k++) {
                int s = random.nextInt(sites);
                String id = i + ".2." + k;
                running.add(new Container(id, Tags.of("job=" + i, "role=worker", "component=2"), site(s)));
                at.put(id, host(s, random.nextInt(hosts)));
            }
        }
        SiteConstraints.Hosts hostsOf = new SiteConstraints.Hosts(at, (s, h) -> Map.of());
        long[] overSites = new long[grows];
        long[] onHosts = new long[grows];
        for (int g = 0; g < grows; g++) {
            String job = Integer.toString(instances + g);
            Tags own = Tags.of("job=" + job, "role=worker", "component=2");
            Constraint two = new Constraint.Cardinality(own, Tags.of("job=" + job, "role=worker"), Group.HOST, 0, 2, true);
            SiteConstraints kept = new SiteConstraints(new FlexibleClusterMinimization(), s -> "grid", Map.of(0, own),
                    List.of(two), running, inForce);
            JobNeed one = new JobNeed(job, List.of(new ComponentNeed(0, 1, null, List.of())), true);
            overSites[g] = fastest(repeats, () -> kept.place(one, grid));
            onHosts[g] = fastest(repeats, () -> kept.onHosts(hostsOf).place(one, grid));
        }
        return new Result(sites, hosts, instances, grows, figures(overSites), figures(onHosts));
    }

    private static long fastest(int repeats, Runnable decision) {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < repeats; i++) {
            long t = System.nanoTime();
            decision.run();
            best = Math.min(best, System.nanoTime() - t);
        }
        return best;
    }

    private static Figures figures(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return new Figures(ConstraintsExperiment.Percentile.of(sorted, 0.5) / 1e6,
                ConstraintsExperiment.Percentile.of(sorted, 0.99) / 1e6, sorted[sorted.length - 1] / 1e6);
    }

    public static void print(Result r, PrintStream out) {
        out.printf(Locale.ROOT, "%nThe scheduler's grow decision with constraints (SiteConstraints around Flexible Cluster "
                + "Minimization): %d sites x %d hosts, %,d instances of 4 workers in force (at most 2 per host, hard), "
                + "%d grows of 1 worker%n", r.sites(), r.hosts(), r.instances(), r.grows());
        out.printf(Locale.ROOT, "  %-40s %8s %8s %8s%n", "grow decision ms", "median", "p99", "max");
        line(out, "kept over sites (SGE chooses the host)", r.overSites());
        line(out, "on hosts (the host chosen and pinned)", r.onHosts());
        out.printf(Locale.ROOT, "  on hosts / over sites, median: %.1fx%n", r.onHosts().median() / r.overSites().median());
    }

    private static void line(PrintStream out, String label, Figures f) {
        out.printf(Locale.ROOT, "  %-40s %8.3f %8.3f %8.2f%n", label, f.median(), f.p99(), f.max());
    }

    private static String site(int s) {
        return String.format("site%03d", s);
    }

    private static String host(int s, int h) {
        return String.format("site%03d-n%02d", s, h);
    }
}
