package koala.sim.experiment;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import koala.provisioning.PolicyKind;
import koala.sim.RunMetrics;
import koala.sim.Simulation;
import koala.sim.Workload;
import org.knowm.xchart.XYChart;

/**
 * The paper's Figures 5–7 and one of ours:
 * <ul>
 *   <li>fig5: OnDemand's grow overhead and idle fraction against {@code t_idle = n · O_grow}, n = 1..10;</li>
 *   <li>fig6: Proactive's reject rate and idle fraction against U_min–U_max ranges 10 points wide;</li>
 *   <li>fig7-POLICY: workers allocated, busy and CPU in use over the first hours of one run;</li>
 *   <li>tradeoff: reject rate against CPU utilization for OnDemand's n, the reserve policy's
 *       reserve and the pool policy's pool, Static and Proactive as points: where ours win and lose.</li>
 * </ul>
 * Each as a PNG and a CSV in the results folder.
 */
public final class Sensitivity {
    private final Runs runs;
    private final Path dir;
    private final PrintStream out;

    public Sensitivity(Runs runs, Path dir, PrintStream out) {
        this.runs = runs;
        this.dir = dir;
        this.out = out;
    }

    public void run() {
        figure5();
        figure6();
        figure7(Duration.ofHours(3));
        tradeoff(Setup.PAPER);
        tradeoff(Setup.PAPER.withFMax(Setup.PAPER.staticWorkers()));
    }

    private void figure5() {
        out.println("Figure 5: OnDemand, t_idle = n · O_grow");
        List<Double> n = new ArrayList<>();
        List<Summary> rows = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            n.add((double) i);
            rows.add(runs.summary("ondemand n=" + i, Setup.PAPER.onDemand(i)));
        }
        XYChart chart = Charts.chart("OnDemand: grow overhead and idle time vs t_idle (W_rl, " + runs.seeds()
                + " seeds × " + runs.length().toHours() + " h)", "n in t_idle = n · O_grow", "grow overhead (node-hours)");
        Charts.add(chart, line("grow overhead (node-hours, left)", n, rows, s -> s.growOverheadHours()));
        Charts.add(chart, line("idle fraction (% of allocated, right)", n, rows, s -> s.idle()));
        chart.getSeriesMap().get("idle fraction (% of allocated, right)").setYAxisGroup(1);
        chart.setYAxisGroupTitle(1, "idle fraction (%)");
        write("fig5", chart, "n", n, rows);
    }

    private void figure6() {
        out.println("Figure 6: Proactive, U_min–U_max");
        List<Double> x = new ArrayList<>();
        List<Summary> rows = new ArrayList<>();
        for (int uMin = 10; uMin <= 80; uMin += 10) {
            x.add((double) uMin);
            rows.add(runs.summary("proactive " + uMin + "-" + (uMin + 10), Setup.PAPER.proactive(uMin, uMin + 10)));
        }
        XYChart chart = Charts.chart("Proactive: reject rate and idle time vs U_min–U_max (U_max = U_min + 10)",
                "U_min (%)", "percent");
        Charts.add(chart, line("reject rate (% of applications)", x, rows, Summary::reject));
        Charts.add(chart, line("idle fraction (% of allocated)", x, rows, Summary::idle));
        write("fig6", chart, "u_min", x, rows);
    }

    private void figure7(Duration window) {
        out.println("Figure 7: allocated and used workers over time, seed 1, first " + window.toHours() + " h");
        Workload w = runs.workload(1);
        List<String> csv = new ArrayList<>();
        for (PolicyKind p : Table2.POLICIES) {
            RunMetrics m = Simulation.one(w, Setup.PAPER.settings(p), runs.delay(), 1);
            List<RunMetrics.Point> points = m.series().stream().filter(pt -> pt.seconds() <= window.toSeconds()).toList();
            List<Double> t = points.stream().map(pt -> pt.seconds() / 3600).toList();
            XYChart chart = Charts.chart(p.shortName() + ": workers allocated and used (W_rl, seed 1)", "hours",
                    "workers");
            Charts.add(chart, series("allocated", t, points.stream().map(pt -> (double) pt.allocated()).toList()));
            Charts.add(chart, series("busy", t, points.stream().map(pt -> (double) pt.busy()).toList()));
            Charts.add(chart, series("CPU in use (nodes)", t, points.stream().map(RunMetrics.Point::cpuUsed).toList()));
            Charts.png(chart, dir, "fig7-" + p.shortName());
            points.forEach(pt -> csv.add(p.shortName() + "," + pt.seconds() + "," + pt.allocated() + "," + pt.busy()
                    + "," + String.format(java.util.Locale.ROOT, "%.3f", pt.cpuUsed())));
        }
        Charts.csv(dir, "fig7", "policy,seconds,allocated,busy,cpu_used_nodes", csv);
    }

    /** Reject rate against CPU utilization: OnDemand's n = 1..10, the reserve policy's 0..100%, the pool's 2..14. */
    private void tradeoff(Setup setup) {
        out.println("Trade-off, F_max " + setup.fMax() + ": OnDemand's t_idle against the reserve and the pool");
        List<Summary> onDemand = new ArrayList<>();
        for (double n : List.of(1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0)) {
            onDemand.add(runs.summary("ondemand n=" + (int) n, setup.onDemand(n)));
        }
        List<Summary> reserve = new ArrayList<>();
        for (double p : List.of(0.0, 25.0, 50.0, 75.0, 100.0)) {
            reserve.add(runs.summary("reserve " + (int) p + "%", setup.withReservePercent(p).settings(PolicyKind.RESERVE)));
        }
        List<Summary> pool = new ArrayList<>();
        for (int workers : List.of(2, 4, 6, 8, 10, 12, 14)) {
            pool.add(runs.summary("pool " + workers, setup.pool(workers)));
        }
        Summary fixed = runs.summary("static", setup.settings(PolicyKind.STATIC));
        Summary proactive = runs.summary("proactive", setup.settings(PolicyKind.PROACTIVE));
        XYChart chart = Charts.chart("Reject rate vs CPU utilization, F_max " + setup.fMax() + " (up and left is better)",
                "applications rejected (%)", "CPU utilization (%)");
        Charts.add(chart, curve("OnDemand, n = 1 (top) .. 10", onDemand));
        Charts.add(chart, curve("reserve, 0% (top) .. 100%", reserve));
        Charts.add(chart, curve("pool, 2 (top) .. 14 idle workers", pool));
        Charts.add(chart, curve("static (" + setup.staticWorkers() + " workers)", List.of(fixed)));
        Charts.add(chart, curve("proactive", List.of(proactive)));
        String name = "tradeoff-fmax" + setup.fMax();
        Charts.png(chart, dir, name);
        List<String> rows = new ArrayList<>();
        onDemand.forEach(s -> rows.add(s.csv()));
        reserve.forEach(s -> rows.add(s.csv()));
        pool.forEach(s -> rows.add(s.csv()));
        rows.add(fixed.csv());
        rows.add(proactive.csv());
        Charts.csv(dir, name, Summary.CSV_HEADER, rows);
    }

    private static Charts.Line curve(String name, List<Summary> rows) {
        return new Charts.Line(name, rows.stream().mapToDouble(s -> s.reject().mean()).toArray(),
                rows.stream().mapToDouble(s -> s.cpu().mean()).toArray(), null, true);
    }

    private static Charts.Line line(String name, List<Double> x, List<Summary> rows,
                                    java.util.function.Function<Summary, Stat> figure) {
        return new Charts.Line(name, Charts.unbox(x), rows.stream().mapToDouble(s -> figure.apply(s).mean()).toArray(),
                rows.stream().mapToDouble(s -> figure.apply(s).sd()).toArray(), true);
    }

    private static Charts.Line series(String name, List<Double> x, List<Double> y) {
        return new Charts.Line(name, Charts.unbox(x), Charts.unbox(y), null, false);
    }

    private void write(String name, XYChart chart, String xName, List<Double> x, List<Summary> rows) {
        Charts.png(chart, dir, name);
        List<String> csv = new ArrayList<>();
        for (int i = 0; i < x.size(); i++) {
            csv.add(x.get(i) + "," + rows.get(i).csv());
        }
        Charts.csv(dir, name, xName + "," + Summary.CSV_HEADER, csv);
    }
}
