package koala.bench;

import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import koala.placement.PlacementPolicies;
import koala.placement.WorstFit;

/**
 * The placement benchmark's figures as the table {@code bin/koala bench placement} prints: decisions
 * per second of each policy at {@value PlacementFigures#REFERENCE_SITES} sites, the time of one
 * decision at each grid size with its growth from the smallest grid to the largest, and whether
 * Worst-Fit meets its target.
 */
public final class PlacementReport {
    /** Worst-Fit decisions per second one core must make at {@value PlacementFigures#REFERENCE_SITES} sites. */
    public static final double TARGET_PER_SECOND = 20_000;
    /** Worst-Fit decisions per second by resources one core must make at {@value PlacementFigures#REFERENCE_SITES} sites of 50 hosts. */
    public static final double RESOURCE_TARGET_PER_SECOND = 50_000;

    private PlacementReport() {
    }

    public static String table(PlacementFigures figures) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%nPlacement decisions, one thread: %,d queued jobs (non-fixed, semi-fixed, fixed, "
                        + "flexible) against sites of %d nodes%n", PlacementBenchmark.QUEUE,
                PlacementWorkload.NODES_PER_SITE));
        out.append(String.format("JMH, 1 fork, %s (%s)%n", figures.settings().describe(), figures.settings().label()));
        out.append(String.format("decisions/s: median of the measurement iterations; JMH's mean and 99.9%% error "
                + "beside it%n%n"));
        throughput(figures, out);
        out.append('\n');
        growth(figures, out);
        if (figures.scores().stream().anyMatch(PlacementFigures.Score::byResources)) {
            out.append('\n');
            byResources(figures, out);
        }
        out.append('\n').append(target(figures)).append('\n');
        if (figures.scores().stream().anyMatch(PlacementFigures.Score::byResources)) {
            out.append(resourceTarget(figures)).append('\n');
        }
        out.append(machine(figures.machine())).append('\n');
        return out.toString();
    }

    /** "Machine: 2 cores, load average 0.4 before the run, 1.1 after." and a warning when crowded. */
    static String machine(PlacementFigures.Machine m) {
        if (m.loadBefore() < 0 || m.loadAfter() < 0) {
            return String.format("Machine: %d cores, load average unknown.", m.cores());
        }
        String line = String.format("Machine: %d cores, load average %.1f before the run, %.1f after.", m.cores(),
                m.loadBefore(), m.loadAfter());
        return m.crowded() ? line + " Other processes wanted more than the cores: the figures are low and "
                + "uneven; run again on a quiet machine." : line;
    }

    private static void throughput(PlacementFigures figures, StringBuilder out) {
        int sites = PlacementFigures.REFERENCE_SITES;
        out.append(String.format("%-32s %13s %27s %7s%n", "At " + sites + " sites", "decisions/s",
                "JMH mean ± 99.9%", "placed"));
        for (String policy : PlacementPolicies.names()) {
            Optional<PlacementFigures.Score> s = figures.score(policy, sites);
            Double placed = figures.placed().get(policy);
            out.append(String.format("  %-30s %13s %27s %7s%n", policy,
                    s.map(x -> String.format("%,.0f", x.perSecond())).orElse("-"),
                    s.map(x -> String.format("%,.0f ± %,.0f", x.mean(), x.error())).orElse(""),
                    placed == null ? "-" : String.format("%.0f%%", placed * 100)));
        }
    }

    /**
     * Decisions per second by resources at the reference grid, and how they compare with the same
     * policy by nodes in the same run: the cost of counting nodes of a request over every host.
     */
    private static void byResources(PlacementFigures figures, StringBuilder out) {
        int sites = PlacementFigures.REFERENCE_SITES;
        out.append(String.format("%-32s %13s %27s %7s %9s%n", "By resources, " + sites + " sites x "
                        + ResourceWorkload.HOSTS_PER_SITE + " hosts", "decisions/s", "JMH mean ± 99.9%", "placed", "vs nodes"));
        for (String policy : PlacementPolicies.names()) {
            Optional<PlacementFigures.Score> s = figures.resourceScore(policy);
            Optional<PlacementFigures.Score> nodes = figures.score(policy, sites);
            Double placed = figures.placedByResources().get(policy);
            out.append(String.format("  %-30s %13s %27s %7s %9s%n", policy,
                    s.map(x -> String.format("%,.0f", x.perSecond())).orElse("-"),
                    s.map(x -> String.format("%,.0f ± %,.0f", x.mean(), x.error())).orElse(""),
                    placed == null ? "-" : String.format("%.0f%%", placed * 100),
                    s.isPresent() && nodes.isPresent()
                            ? String.format("%.2fx", s.get().perSecond() / nodes.get().perSecond()) : "-"));
        }
    }

    /** "Target by resources: ... met (…/s, 2.1x the target)" or "NOT met". */
    static String resourceTarget(PlacementFigures figures) {
        String goal = String.format("Target: >= %,.0f Worst-Fit decisions/s by resources on one core at %d sites of %d hosts: ",
                RESOURCE_TARGET_PER_SECOND, PlacementFigures.REFERENCE_SITES, ResourceWorkload.HOSTS_PER_SITE);
        return figures.resourceScore(WorstFit.NAME)
                .map(s -> goal + String.format("%s (%,.0f/s, %.1fx the target)",
                        s.perSecond() >= RESOURCE_TARGET_PER_SECOND ? "met" : "NOT met", s.perSecond(),
                        s.perSecond() / RESOURCE_TARGET_PER_SECOND))
                .orElse(goal + "not measured");
    }

    private static void growth(PlacementFigures figures, StringBuilder out) {
        List<Integer> sizes = List.copyOf(new TreeSet<>(figures.scores().stream().filter(s -> !s.byResources())
                .map(PlacementFigures.Score::sites).toList()));
        if (sizes.isEmpty()) {
            return;
        }
        int smallest = sizes.get(0);
        int largest = sizes.get(sizes.size() - 1);
        out.append(String.format("%-32s", "Time per decision"));
        sizes.forEach(n -> out.append(String.format(" %11s", n + " sites")));
        out.append(String.format(" %12s%n", largest + " vs " + smallest));
        for (String policy : PlacementPolicies.names()) {
            out.append(String.format("  %-30s", policy));
            sizes.forEach(n -> out.append(String.format(" %11s",
                    figures.score(policy, n).map(s -> micros(s.micros())).orElse("-"))));
            Optional<PlacementFigures.Score> small = figures.score(policy, smallest);
            Optional<PlacementFigures.Score> large = figures.score(policy, largest);
            String ratio = small.isPresent() && large.isPresent()
                    ? String.format("%.1fx", large.get().micros() / small.get().micros()) : "-";
            out.append(String.format(" %12s%n", ratio));
        }
    }

    /** "Target: ... met (…/s, 61.7x the target)" or "NOT met". */
    static String target(PlacementFigures figures) {
        int sites = PlacementFigures.REFERENCE_SITES;
        String goal = String.format("Target: >= %,.0f Worst-Fit decisions/s on one core at %d sites: ",
                TARGET_PER_SECOND, sites);
        return figures.score(WorstFit.NAME, sites)
                .map(s -> goal + String.format("%s (%,.0f/s, %.1fx the target)",
                        s.perSecond() >= TARGET_PER_SECOND ? "met" : "NOT met", s.perSecond(),
                        s.perSecond() / TARGET_PER_SECOND))
                .orElse(goal + "not measured");
    }

    /** A time in microseconds with three significant digits or so: "0.452 us", "12.3 us", "812 us". */
    static String micros(double us) {
        if (us < 1) {
            return String.format("%.3f us", us);
        }
        if (us < 10) {
            return String.format("%.2f us", us);
        }
        return us < 100 ? String.format("%.1f us", us) : String.format("%,.0f us", us);
    }
}
