package koala.sim.experiment;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import koala.provisioning.PolicyKind;
import koala.sim.CpuProfile;
import koala.sim.RunMetrics;

/**
 * The paper's Table 2 — reject rate and utilization of Static, OnDemand and Proactive on
 * {@code W_rl} — beside ours, with the reserve and pool policies and the clairvoyant bound, and how
 * sensitive ours are to what the paper leaves unstated. Writes {@code table2*.csv}.
 */
public final class Table2 {
    /** The paper's Table 2: reject rate and utilization, percent. */
    public static final Map<PolicyKind, double[]> PAPER = Map.of(PolicyKind.STATIC, new double[] {13, 46},
            PolicyKind.ONDEMAND, new double[] {13, 73}, PolicyKind.PROACTIVE, new double[] {21, 65});
    static final List<PolicyKind> POLICIES = List.of(PolicyKind.STATIC, PolicyKind.ONDEMAND, PolicyKind.PROACTIVE,
            PolicyKind.RESERVE, PolicyKind.POOL);

    private final Runs runs;
    private final Path dir;
    private final PrintStream out;

    public Table2(Runs runs, Path dir, PrintStream out) {
        this.runs = runs;
        this.dir = dir;
        this.out = out;
    }

    /** Every table; returns the main one (the paper's settings). */
    public List<Summary> run() {
        Setup paper = Setup.PAPER;
        out.printf("W_rl: batches every %.0f s on average (rate %.4f/s), %.1f RLs a batch (geometric on 1..%d), RLs of "
                        + "%d s, CPU %s changing every %d s: %.2f workers of offered load; O_grow %d s; %d seeds × %d h%n",
                1 / runs.workload().batchRate(), runs.workload().batchRate(), runs.workload().meanBatch(),
                runs.workload().maxBatch(), runs.workload().rlDuration().toSeconds(), runs.workload().cpu().spec(),
                runs.workload().loadPeriod().toSeconds(), runs.workload().offeredLoad(), runs.delay().mean().toSeconds(),
                runs.seeds(), runs.length().toHours());
        List<Summary> main = table("Table 2, the paper's settings: F_max " + paper.fMax() + ", Static "
                + paper.staticWorkers() + " workers, Proactive " + paper.proactiveInitial() + " initial", "table2", paper);
        table("Table 2 with F_max " + paper.staticWorkers() + " (as many workers as Static may hold)",
                "table2-fmax" + paper.staticWorkers(), paper.withFMax(paper.staticWorkers()));
        sensitivity();
        return main;
    }

    private List<Summary> table(String title, String file, Setup setup) {
        out.println();
        out.println(title);
        List<Summary> rows = new ArrayList<>();
        Map<PolicyKind, List<RunMetrics>> bySeed = new EnumMap<>(PolicyKind.class);
        for (PolicyKind p : POLICIES) {
            bySeed.put(p, runs.timed(p.shortName(), setup.settings(p)));
            rows.add(Summary.of(p.shortName(), bySeed.get(p)));
        }
        rows.add(runs.clairvoyant(setup.fMax()));
        print(rows);
        Charts.csv(dir, file, Summary.CSV_HEADER + ",paper_reject_pct,paper_util_pct", rows.stream().map(s -> s.csv()
                + paper(s.policy()).map(v -> "," + v[0] + "," + v[1]).orElse(",,")).toList());
        bar(file, bySeed);
        return rows;
    }

    /**
     * The bar for a better policy — a reject rate no higher than Static's, utilization
     * above OnDemand's — checked seed by seed, since the policies ran on the same workloads.
     */
    private void bar(String file, Map<PolicyKind, List<RunMetrics>> bySeed) {
        out.println("  the bar, paired by seed: rejected % − Static's, and CPU utilization % − OnDemand's");
        List<String> csv = new ArrayList<>();
        for (PolicyKind p : List.of(PolicyKind.ONDEMAND, PolicyKind.PROACTIVE, PolicyKind.RESERVE, PolicyKind.POOL)) {
            Paired reject = Paired.of(bySeed.get(p), bySeed.get(PolicyKind.STATIC), RunMetrics::rejectPercent);
            Paired cpu = Paired.of(bySeed.get(p), bySeed.get(PolicyKind.ONDEMAND), RunMetrics::cpuUtilization);
            boolean met = reject.difference().mean() <= 0 && cpu.difference().mean() > 0 && p != PolicyKind.ONDEMAND;
            out.printf("    %-10s rejected %s   CPU util %s   %s%n", p.shortName(), reject.text(),
                    p == PolicyKind.ONDEMAND ? "—" : cpu.text(), p == PolicyKind.ONDEMAND ? "" : met ? "bar met" : "bar not met");
            csv.add(String.format(java.util.Locale.ROOT, "%s,%.3f,%.3f,%d,%.3f,%.3f,%d,%d,%s", p.shortName(),
                    reject.difference().mean(), reject.difference().sd(), reject.higher(), cpu.difference().mean(),
                    cpu.difference().sd(), cpu.higher(), reject.seeds(), met));
        }
        Charts.csv(dir, file + "-bar", "policy,reject_minus_static,sd,seeds_higher,cpu_util_minus_ondemand,sd,"
                + "seeds_higher,seeds,bar_met", csv);
    }

    private void print(List<Summary> rows) {
        out.printf("  %-26s %14s %14s %9s %9s %14s %9s  %s%n", "policy", "rejected %", "CPU util %", "busy %",
                "idle %", "grow o/h node-h", "wait s", "paper: rejected / util");
        for (Summary s : rows) {
            out.printf("  %-26s %14s %14s %9.1f %9.1f %14.2f %9.1f  %s%n", s.policy(), s.reject().text(), s.cpu().text(),
                    s.busy().mean(), s.idle().mean(), s.growOverheadHours().mean(), s.waitSeconds().mean(),
                    paper(s.policy()).map(v -> String.format("%.0f%% / %.0f%%", v[0], v[1])).orElse(""));
        }
    }

    private static java.util.Optional<double[]> paper(String policy) {
        return PolicyKind.byName(policy).map(PAPER::get);
    }

    /** What the paper leaves open, one choice at a time, the rest as in {@link Setup#PAPER}. */
    private void sensitivity() {
        out.println();
        out.println("Sensitivity (mean of the seeds; reject % / CPU utilization %)");
        Runs runs = this.runs.quiet();
        List<String> csv = new ArrayList<>();
        for (CpuProfile cpu : List.of(CpuProfile.parse("constant:100"), CpuProfile.DEFAULT,
                CpuProfile.parse("uniform:20:100"), CpuProfile.parse("constant:50"))) {
            Runs r = runs.withWorkload(runs.workload().withCpu(cpu));
            row(csv, "RL CPU profile", cpu.spec(), POLICIES.stream().map(p -> r.summary(p.shortName(),
                    Setup.PAPER.settings(p))).toList());
        }
        for (int n : List.of(16, 20, 24, 28, 32)) {
            row(csv, "Static workers", String.valueOf(n), List.of(runs.summary("static",
                    Setup.PAPER.withStaticWorkers(n).settings(PolicyKind.STATIC))));
        }
        for (int n : List.of(1, 2, 4, 6)) {
            row(csv, "Proactive initial workers", String.valueOf(n), List.of(runs.summary("proactive",
                    Setup.PAPER.withProactiveInitial(n).settings(PolicyKind.PROACTIVE))));
        }
        for (double rate : List.of(0.5, 0.75, 1.0)) {
            Runs r = runs.withWorkload(runs.workload().withBatchRate(runs.workload().batchRate() * rate));
            Setup s = Setup.PAPER.withFMax(Setup.PAPER.staticWorkers());
            row(csv, "arrival rate (F_max 28)", "x" + rate, POLICIES.stream().map(p -> r.summary(p.shortName(),
                    s.settings(p))).toList());
        }
        Charts.csv(dir, "table2-sensitivity", "choice,value," + Summary.CSV_HEADER, csv);
    }

    private void row(List<String> csv, String choice, String value, List<Summary> rows) {
        StringBuilder line = new StringBuilder(String.format("  %-26s %-16s", choice, value));
        for (Summary s : rows) {
            line.append(String.format("  %s %4.1f / %4.1f", s.policy(), s.reject().mean(), s.cpu().mean()));
            csv.add(choice + "," + value + "," + s.csv());
        }
        out.println(line);
    }
}
