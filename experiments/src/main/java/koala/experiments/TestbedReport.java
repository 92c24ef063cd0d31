package koala.experiments;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import koala.provisioning.PolicyKind;
import koala.sim.RunMetrics;
import koala.sim.experiment.Charts;
import org.knowm.xchart.XYChart;

/**
 * The testbed experiment's results: per policy each figure real, simulated and their absolute
 * difference (printed, and {@code testbed.csv}), how far they agree overall, the allocated and
 * busy workers over time real and simulated ({@code testbed-series.csv}, {@code testbed-POLICY.png}).
 */
final class TestbedReport {
    /** A figure of a run, its name and how it prints. */
    record Figure(String name, String unit, ToDoubleFunction<RunMetrics> of) {
    }

    static final List<Figure> FIGURES = List.of(
            new Figure("rejected", "%", RunMetrics::rejectPercent),
            new Figure("node-busy utilization", "%", RunMetrics::busyUtilization),
            new Figure("CPU utilization", "% of a core", RunMetrics::cpuUtilization),
            new Figure("idle", "% of node-time", RunMetrics::idleFraction),
            new Figure("grow overhead", "node-s", m -> m.growOverheadHours() * 3600),
            new Figure("grows", "", m -> m.grows()),
            new Figure("allocated", "node-min", m -> m.allocatedHours() * 60),
            new Figure("wait per application", "s", RunMetrics::meanWaitSeconds),
            new Figure("workers allocated, mean", "diff: mean gap", m -> 0));

    private final Path dir;
    private final PrintStream out;

    TestbedReport(Path dir, PrintStream out) {
        this.dir = dir;
        this.out = out;
    }

    void write(Map<PolicyKind, TestbedRun.Result> real, Map<PolicyKind, RunMetrics> sim, double oGrow, List<Double> grows) {
        List<String> csv = new ArrayList<>();
        List<String> series = new ArrayList<>();
        out.printf("%nReal (testbed) vs simulated, same workload, O_grow %.2f s%n", oGrow);
        out.printf("  %-10s %-38s %10s %10s %10s%n", "policy", "figure", "real", "simulated", "|diff|");
        double[] worst = new double[FIGURES.size()];
        for (Map.Entry<PolicyKind, TestbedRun.Result> e : real.entrySet()) {
            RunMetrics r = e.getValue().figures().metrics();
            RunMetrics s = sim.get(e.getKey());
            for (int i = 0; i < FIGURES.size(); i++) {
                Figure f = FIGURES.get(i);
                double a = i == FIGURES.size() - 1 ? meanAllocated(r) : f.of().applyAsDouble(r);
                double b = i == FIGURES.size() - 1 ? meanAllocated(s) : f.of().applyAsDouble(s);
                double d = i == FIGURES.size() - 1 ? seriesGap(r.series(), s.series()) : Math.abs(a - b);
                worst[i] = Math.max(worst[i], d);
                String label = f.name() + (f.unit().isEmpty() ? "" : " (" + f.unit() + ")");
                out.printf(Locale.ROOT, "  %-10s %-38s %10.1f %10.1f %10.1f%n", e.getKey(), label, a, b, d);
                csv.add(String.format(Locale.ROOT, "%s,%s,%s,%.3f,%.3f,%.3f", e.getKey(), f.name(), f.unit(), a, b, d));
            }
            series.addAll(rows(e.getKey(), "real", r.series()));
            series.addAll(rows(e.getKey(), "simulated", s.series()));
            chart(e.getKey(), r, s);
        }
        out.println("\nHow far they agree (largest absolute difference over the policies):");
        for (int i = 0; i < FIGURES.size(); i++) {
            out.printf(Locale.ROOT, "  %-30s %6.1f %s%n", FIGURES.get(i).name(), worst[i], i == FIGURES.size() - 1
                    ? "workers (mean over the run of |allocated real - allocated simulated|)" : FIGURES.get(i).unit());
        }
        csv.add(String.format(Locale.ROOT, "all,O_grow measured (median of %d grown workers),s,%.3f,%.3f,0",
                grows.size(), oGrow, oGrow));
        Charts.csv(dir, "testbed", "policy,figure,unit,real,simulated,abs_diff", csv);
        Charts.csv(dir, "testbed-series", "policy,source,seconds,allocated,busy", series);
    }

    /** Printed after each real run. */
    static String line(String what, RunMetrics m) {
        return String.format(Locale.ROOT, "%s: %d applications, %.1f%% rejected, node-busy %.1f%%, CPU %.2f%% of a "
                        + "core, idle %.1f%%, %d grows, grow overhead %.0f node-s, %.1f node-min allocated", what,
                m.applications(), m.rejectPercent(), m.busyUtilization(), m.cpuUtilization(), m.idleFraction(),
                m.grows(), m.growOverheadHours() * 3600, m.allocatedHours() * 60);
    }

    /** Mean workers allocated over the run (time-weighted over its samples). */
    static double meanAllocated(RunMetrics m) {
        return m.series().stream().mapToInt(RunMetrics.Point::allocated).average().orElse(0);
    }

    /**
     * The mean absolute difference of allocated workers: at each real sample, the simulated
     * count of the latest simulated sample not after it.
     */
    static double seriesGap(List<RunMetrics.Point> real, List<RunMetrics.Point> sim) {
        if (real.isEmpty() || sim.isEmpty()) {
            return 0;
        }
        double sum = 0;
        int j = 0;
        for (RunMetrics.Point p : real) {
            while (j + 1 < sim.size() && sim.get(j + 1).seconds() <= p.seconds()) {
                j++;
            }
            sum += Math.abs(p.allocated() - sim.get(j).allocated());
        }
        return sum / real.size();
    }

    static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static List<String> rows(PolicyKind p, String source, List<RunMetrics.Point> points) {
        return points.stream().map(x -> String.format(Locale.ROOT, "%s,%s,%.1f,%d,%d", p, source, x.seconds(),
                x.allocated(), x.busy())).toList();
    }

    private void chart(PolicyKind p, RunMetrics real, RunMetrics sim) {
        XYChart chart = Charts.chart(p + " on the testbed vs the simulator: workers over time", "seconds", "workers");
        add(chart, "allocated, real", real.series(), true);
        add(chart, "busy, real", real.series(), false);
        add(chart, "allocated, simulated", sim.series(), true);
        add(chart, "busy, simulated", sim.series(), false);
        Charts.png(chart, dir, "testbed-" + p.shortName());
    }

    private static void add(XYChart chart, String name, List<RunMetrics.Point> points, boolean allocated) {
        if (points.isEmpty()) {
            return;
        }
        List<Double> x = points.stream().map(RunMetrics.Point::seconds).toList();
        List<Double> y = points.stream().map(q -> (double) (allocated ? q.allocated() : q.busy())).toList();
        Charts.Line line = Charts.Line.of(name, x, y);
        Charts.add(chart, new Charts.Line(name, line.x(), line.y(), null, false));
    }
}
