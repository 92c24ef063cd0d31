package koala.sim.experiment;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.LongStream;
import koala.arbitration.ArbitrationSettings;
import koala.arbitration.PerformanceWindow;
import koala.arbitration.ShareRule;
import koala.provisioning.PolicyKind;
import koala.provisioning.ProvisioningSettings;
import koala.sim.Generators;
import koala.sim.RunMetrics;
import koala.sim.SimGrid;
import koala.sim.Simulation;
import koala.sim.TenantMetrics;
import koala.sim.Workload;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;

/**
 * Several framework instances on one grid smaller than their summed peak, each arbitration policy
 * in turn ({@link ShareRule}), run by the scheduler's own arbitration code. The scenario
 * ({@link Scenario#standard}): two OnDemand instances on {@code W_rl} in waves whose bursts are out
 * of phase, an OnDemand instance of word counts that queue, and a Static instance on a light
 * {@code W_rl}. Each instance's figure — RLs: {@link PerformanceWindow#stretch} of the share lost
 * (rejected or killed), {@code 1 / (1 − lost)}; SWCs: the mean slowdown — is normalised by the
 * same instance's figure alone on a grid that never refuses it, on the same workload; the
 * <em>ratio</em> of a run is the worst normalised figure over the best. Writes {@code sharing*.csv}
 * and {@code sharing*.png}; the last line printed is the best policy.
 */
public final class SharingExperiment {
    /** The goal: a policy whose worst/best ratio is at most this, at no less utilization than fcfs. */
    public static final double GOAL_RATIO = 1.5;

    /** One framework instance: its name, its provisioning (with weight and minShare) and its workload for a seed. */
    public record Member(String name, ProvisioningSettings settings, boolean queues, WorkloadFor workload) {
    }

    /** A member's workload for a seed. */
    public interface WorkloadFor {
        Workload of(long seed, Duration length);
    }

    /**
     * The grid and its instances.
     *
     * @param nodes        the grid's nodes (one site, no local users)
     * @param floorKeeping how the Static instance's runner asks for the workers KOALA took back
     */
    public record Scenario(int nodes, List<Member> members, ArbitrationSettings arbitration,
            Simulation.FloorKeeping floorKeeping) {
        public Scenario {
            members = List.copyOf(members);
            java.util.Objects.requireNonNull(floorKeeping, "floorKeeping");
        }

        /**
         * The experiment's scenario on a grid of {@code nodes}: rl-a and rl-b — OnDemand, F_max 30, on
         * {@code W_rl} whose arrival rate is 1.6× the paper's for 2 h and 0.4× for the next 2 (the
         * paper's on average, 20.85 workers offered), rl-b half a period later; swc — OnDemand, F_max
         * 20, word counts ({@link Generators#swc}: a batch every 150 s of 2.5 on average, 4–10 slots of
         * 8-slot workers, 600 s at 60% CPU a slot, about 8 workers offered) that queue; static — Static,
         * 12 workers, on {@code W_rl} at 0.3× the paper's rate (6.3 workers offered). Weight 1 and a
         * minimum share of 4 nodes each. The Static runner asks for a worker KOALA took back only when
         * none of its workers is idle ({@link Simulation.FloorKeeping#WHEN_NEEDED}).
         */
        public static Scenario standard(int nodes, Generators.RlParameters rl) {
            Duration wave = Duration.ofHours(4);
            return new Scenario(nodes, List.of(
                    new Member("rl-a", onDemand(30), false, (s, l) -> Generators.rlWaves(rl, wave, 0.6, 0, l, s)),
                    new Member("rl-b", onDemand(30), false, (s, l) -> Generators.rlWaves(rl, wave, 0.6, 0.5, l, s + 1000)),
                    new Member("swc", onDemand(20), true, (s, l) -> Generators.swc(1 / 150.0, Duration.ofSeconds(600),
                            60, l, s + 2000)),
                    new Member("static", staticWorkers(12), false, (s, l) -> Generators.rl(rl.withBatchRate(
                            rl.batchRate() * 0.3), l, s + 3000))), ArbitrationSettings.DEFAULTS,
                    Simulation.FloorKeeping.WHEN_NEEDED);
        }

        private static ProvisioningSettings onDemand(int fMax) {
            return ProvisioningSettings.builtIn(PolicyKind.ONDEMAND).withFMax(fMax).withInitialWorkers(0)
                    .withMinShare(4).toSettings();
        }

        private static ProvisioningSettings staticWorkers(int workers) {
            return ProvisioningSettings.builtIn(PolicyKind.STATIC).withFMax(workers).withInitialWorkers(workers)
                    .withMinShare(4).toSettings();
        }

        public Scenario withArbitration(ArbitrationSettings value) {
            return new Scenario(nodes, members, value, floorKeeping);
        }

        public Scenario withFloorKeeping(Simulation.FloorKeeping value) {
            return new Scenario(nodes, members, arbitration, value);
        }

        int peak() {
            return members.stream().mapToInt(m -> Math.max(m.settings().fMax(), m.settings().initialWorkers())).sum();
        }
    }

    /**
     * A policy with the scenario's bounds, or with other bounds, counting queued work or not, with the
     * scenario's floor keeping or another.
     *
     * @param label        "fair", or "fair <=6/h" for fair with at most 6 nodes taken from one instance an hour
     * @param token        the same for the last line, "fair+maxPerHour=6"
     * @param floorKeeping the Static runner's floor keeping; null for the scenario's
     */
    public record Variant(String label, String token, ShareRule rule,
            java.util.function.UnaryOperator<ArbitrationSettings> bounds, Simulation.FloorKeeping floorKeeping) {
        static Variant of(ShareRule rule) {
            return new Variant(rule.shortName(), rule.shortName(), rule, s -> s, null);
        }

        static Variant perHour(ShareRule rule, int nodes) {
            return of(rule).perHour(nodes);
        }

        static Variant patience(ShareRule rule, int seconds) {
            return of(rule).patience(seconds);
        }

        /** With at most {@code nodes} taken from one instance an hour. */
        Variant perHour(int nodes) {
            return new Variant(label + " <=" + nodes + "/h", token + "+maxPerHour=" + nodes, rule,
                    s -> bounds.apply(s).withMaxPerHour(nodes), floorKeeping);
        }

        /** With a patience of {@code seconds}. */
        Variant patience(int seconds) {
            return new Variant(label + " patience " + seconds + "s", token + "+patience=" + seconds + "s", rule,
                    s -> bounds.apply(s).withPatience(Duration.ofSeconds(seconds)), floorKeeping);
        }

        /** Counting the instances' queued work as demand. */
        Variant queued() {
            return new Variant(label + " queued", token + "+queuedDemand", rule,
                    s -> bounds.apply(s).withQueuedDemand(true), floorKeeping);
        }

        /** With the Static runner keeping its floor {@code how}. */
        Variant floors(Simulation.FloorKeeping how) {
            String name = how.name().toLowerCase(Locale.ROOT).replace('_', '-');
            return new Variant(label + " floors " + name, token + "+floors=" + name, rule, bounds, how);
        }

        ArbitrationSettings settings(ArbitrationSettings base) {
            return bounds.apply(base.withRule(rule));
        }

        Simulation.FloorKeeping floorKeeping(Scenario scenario) {
            return floorKeeping == null ? scenario.floorKeeping() : floorKeeping;
        }
    }

    /**
     * The four policies with the scenario's bounds; then fair and performance with other bounds on
     * taking back, fair counting queued work as demand, and fair with the Static runner asking for
     * its workers back at once, as before.
     */
    static final List<Variant> VARIANTS = List.of(Variant.of(ShareRule.FCFS), Variant.of(ShareRule.STATIC_PARTITION),
            Variant.of(ShareRule.FAIR), Variant.of(ShareRule.PERFORMANCE), Variant.patience(ShareRule.FAIR, 120),
            Variant.perHour(ShareRule.FAIR, 6), Variant.perHour(ShareRule.FAIR, 4),
            Variant.patience(ShareRule.FAIR, 60).perHour(6), Variant.perHour(ShareRule.FAIR, 6).queued(),
            Variant.perHour(ShareRule.PERFORMANCE, 6), Variant.of(ShareRule.FAIR).floors(Simulation.FloorKeeping.AT_ONCE),
            Variant.perHour(ShareRule.FAIR, 6).floors(Simulation.FloorKeeping.AT_ONCE));
    /** How many of {@link #VARIANTS} are the policies as the scenario bounds them. */
    static final int POLICIES = ShareRule.values().length;
    /** "A few" nodes taken back from one instance an hour: at most this many (one every ten minutes). */
    public static final double GOAL_PER_HOUR = 6;

    /** One seed: each member alone, then the shared grid under each policy. */
    record SeedRun(long seed, List<TenantMetrics> alone, List<Simulation.Shared> shared) {
    }

    private final Scenario scenario;
    private final Runs runs;
    private final Path dir;
    private final PrintStream out;
    private final List<Variant> rules = VARIANTS;

    public SharingExperiment(Scenario scenario, Runs runs, Path dir, PrintStream out) {
        this.scenario = scenario;
        this.runs = runs;
        this.dir = dir;
        this.out = out;
    }

    /** Runs every seed and policy, prints the tables, writes the files; returns the best policy's row. */
    public Row run() {
        out.printf("A grid of %d nodes shared by %d framework instances whose peaks add up to %d; %s; the Static runner "
                + "asks for workers taken back %s; %d seeds × %d h, O_grow %d s%n", scenario.nodes(),
                scenario.members().size(), scenario.peak(),
                scenario.arbitration().withRule(ShareRule.FAIR).describe().replace("policy fair, ", ""),
                scenario.floorKeeping() == Simulation.FloorKeeping.WHEN_NEEDED
                        ? "one at a time when none of its workers is idle" : "all at once at every sample",
                runs.seeds(), runs.length().toHours(), runs.delay().mean().toSeconds());
        long t0 = System.nanoTime();
        List<SeedRun> seeds = LongStream.rangeClosed(1, runs.seeds()).parallel().mapToObj(this::seed).toList();
        runs.progress().printf("  %d seeds × (%d alone + %d shared runs) in %.1f s%n", runs.seeds(),
                scenario.members().size(), rules.size(), (System.nanoTime() - t0) / 1e9);
        List<Row> rows = new ArrayList<>();
        for (int p = 0; p < rules.size(); p++) {
            rows.add(row(p, seeds));
        }
        printAlone(seeds);
        printRows("Per policy (mean ± sd over the seeds): worst / best normalised figure, useful utilization of the "
                + "grid, node-time held, nodes taken back per hour (all, and from the instance that gave most), "
                + "applications killed, wait for a grow; what was taken: idle workers ended, workers asked for, "
                + "workers ended after the grace", rows.subList(0, POLICIES));
        printRows("Other bounds on taking back (fair and performance): patience (refused below its share this long "
                + "first), at most N nodes from one instance an hour; queued: the instances' queued work counted as "
                + "demand; floors at-once: the Static runner asking for every worker taken back at every sample, "
                + "as before", rows.subList(POLICIES, rows.size()));
        printInstances(rows);
        write(rows, seeds);
        out.println();
        out.println("results in " + dir.toAbsolutePath());
        return verdict(rows, seeds);
    }

    private SeedRun seed(long seed) {
        List<Workload> workloads = scenario.members().stream().map(m -> m.workload().of(seed, runs.length())).toList();
        List<TenantMetrics> alone = new ArrayList<>();
        for (int i = 0; i < workloads.size(); i++) {
            ProvisioningSettings s = scenario.members().get(i).settings();
            SimGrid big = SimGrid.single(Math.max(s.fMax(), s.initialWorkers()) + 10);
            alone.add(new Simulation(big, seed).instance(scenario.members().get(i).name(), workloads.get(i), s,
                    runs.delay(), "fs0").runShared(end()).tenants().get(0).withoutSeries());
        }
        List<Simulation.Shared> shared = new ArrayList<>();
        for (Variant v : rules) {
            Simulation sim = new Simulation(new SimGrid(List.of(scenario.nodes()), SimGrid.Background.NONE, seed), seed)
                    .floorKeeping(v.floorKeeping(scenario)).arbitrated(v.settings(scenario.arbitration()));
            for (int i = 0; i < workloads.size(); i++) {
                Member m = scenario.members().get(i);
                sim.instance(m.name(), workloads.get(i), m.settings(), runs.delay(), "fs0");
            }
            Simulation.Shared run = sim.runShared(end());
            shared.add(seed == 1 ? run : strip(run));
        }
        return new SeedRun(seed, alone, shared);
    }

    private java.time.Instant end() {
        return Workload.START.plus(runs.length());
    }

    private static Simulation.Shared strip(Simulation.Shared s) {
        return new Simulation.Shared(s.tenants().stream().map(TenantMetrics::withoutSeries).toList(), s.nodes(),
                s.hours(), s.takenBack(), s.ended(), s.askedToShrink(), s.idleTaken(), s.grantedTakenBack(),
                s.grantedShort());
    }

    /** The figure of one instance: RLs the stretch of the share lost, SWCs the mean slowdown. */
    private double figure(int member, TenantMetrics t) {
        return scenario.members().get(member).queues() ? t.meanSlowdown()
                : PerformanceWindow.stretch(t.lostPercent() / 100);
    }

    /** One policy's figures over the seeds. */
    public record Row(Variant rule, Stat ratio, Stat utilization, Stat held, Stat takenBackPerHour,
            Stat mostTakenFromOnePerHour, Stat killed, Stat waitSeconds, List<Stat> normalised, List<Stat> figures,
            List<Stat> lostPercent, List<Stat> slowdown, List<Stat> takenPerHour, List<Stat> waits,
            List<Double> ratios, List<Double> utilizations, Stat idlePerHour, Stat askedPerHour, Stat endedPerHour) {
    }

    private Row row(int p, List<SeedRun> seeds) {
        int n = scenario.members().size();
        List<Double> ratios = new ArrayList<>();
        List<Double> util = new ArrayList<>();
        List<double[]> norm = new ArrayList<>();
        for (SeedRun s : seeds) {
            double[] v = new double[n];
            for (int i = 0; i < n; i++) {
                v[i] = figure(i, s.shared().get(p).tenants().get(i)) / figure(i, s.alone().get(i));
            }
            norm.add(v);
            ratios.add(Arrays.stream(v).max().orElse(1) / Arrays.stream(v).min().orElse(1));
            util.add(s.shared().get(p).utilization());
        }
        List<Simulation.Shared> runsOf = seeds.stream().map(s -> s.shared().get(p)).toList();
        return new Row(rules.get(p), Stat.of(ratios, d -> d), Stat.of(util, d -> d), Stat.of(runsOf, Simulation.Shared::held),
                Stat.of(runsOf, r -> r.takenBack() / r.hours()),
                Stat.of(runsOf, r -> r.tenants().stream().mapToLong(TenantMetrics::takenBack).max().orElse(0) / r.hours()),
                Stat.of(runsOf, r -> r.tenants().stream().mapToLong(TenantMetrics::killed).sum()),
                Stat.of(runsOf, SharingExperiment::meanWait),
                perMember(n, i -> Stat.of(norm, v -> v[i])),
                perMember(n, i -> Stat.of(runsOf, r -> figure(i, r.tenants().get(i)))),
                perMember(n, i -> Stat.of(runsOf, r -> r.tenants().get(i).lostPercent())),
                perMember(n, i -> Stat.of(runsOf, r -> r.tenants().get(i).meanSlowdown())),
                perMember(n, i -> Stat.of(runsOf, r -> r.tenants().get(i).takenBack() / r.hours())),
                perMember(n, i -> Stat.of(runsOf, r -> r.tenants().get(i).run().meanWaitSeconds())), ratios, util,
                Stat.of(runsOf, r -> r.idleTaken() / r.hours()), Stat.of(runsOf, r -> r.askedToShrink() / r.hours()),
                Stat.of(runsOf, r -> r.ended() / r.hours()));
    }

    private static List<Stat> perMember(int n, java.util.function.IntFunction<Stat> stat) {
        List<Stat> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(stat.apply(i));
        }
        return out;
    }

    /** Mean wait of an application for its grow, over every instance's applications. */
    private static double meanWait(Simulation.Shared r) {
        double sum = 0;
        long apps = 0;
        for (TenantMetrics t : r.tenants()) {
            sum += t.run().meanWaitSeconds() * t.run().applications();
            apps += t.run().applications();
        }
        return apps == 0 ? 0 : sum / apps;
    }

    private void printAlone(List<SeedRun> seeds) {
        out.println();
        out.println("Each instance alone on a grid that never refuses it (the figures the shared runs are normalised by):");
        for (int i = 0; i < scenario.members().size(); i++) {
            Member m = scenario.members().get(i);
            int k = i;
            Stat f = Stat.of(seeds, s -> figure(k, s.alone().get(k)));
            Stat held = Stat.of(seeds, s -> s.alone().get(k).run().allocatedHours() / runs.length().toHours());
            out.printf("  %-7s %-9s F_max %2d  %s  workers held on average %5.1f%n", m.name(), m.settings().policy(),
                    m.settings().fMax(), m.queues() ? String.format("mean slowdown %s", Stat.of(seeds, s -> s.alone()
                            .get(k).meanSlowdown()).text2()) : String.format("lost %s%% (figure %s)", Stat.of(seeds,
                            s -> s.alone().get(k).lostPercent()).text(), f.text2()), held.mean());
        }
    }

    private void printRows(String title, List<Row> rows) {
        out.println();
        out.println(title);
        out.printf("  %-30s %13s %13s %8s %14s %10s %9s %8s%n", "policy", "ratio", "utilization %", "held %",
                "taken back /h", "most /h", "killed", "wait s");
        for (Row r : rows) {
            out.printf("  %-30s %13s %13s %8.1f %14s %10.1f %9.0f %8.1f   idle %.1f/h asked %.1f/h ended %.1f/h%n",
                    r.rule().label(), r.ratio().text2(),
                    r.utilization().text(), r.held().mean(), r.takenBackPerHour().text(),
                    r.mostTakenFromOnePerHour().mean(), r.killed().mean(), r.waitSeconds().mean(), r.idlePerHour().mean(),
                    r.askedPerHour().mean(), r.endedPerHour().mean());
        }
    }

    private void printInstances(List<Row> rows) {
        out.println();
        out.println("Per instance: figure normalised by its figure alone (RLs: 1 / (1 − lost), SWCs: mean slowdown); "
                + "lost % or slowdown; taken back per hour; wait s");
        StringBuilder head = new StringBuilder(String.format("  %-30s", "policy"));
        scenario.members().forEach(m -> head.append(String.format(" | %-32s", m.name())));
        out.println(head);
        for (Row r : rows) {
            StringBuilder line = new StringBuilder(String.format("  %-30s", r.rule().label()));
            for (int i = 0; i < scenario.members().size(); i++) {
                String own = scenario.members().get(i).queues() ? "sd " + String.format("%.2f", r.slowdown().get(i).mean())
                        : String.format("%4.1f%%", r.lostPercent().get(i).mean());
                line.append(String.format(" | %11s %9s %4.1f/h %4.0fs", r.normalised().get(i).text2(), own,
                        r.takenPerHour().get(i).mean(), r.waits().get(i).mean()));
            }
            out.println(line);
        }
    }

    /** The goal checked, with paired differences from fcfs; the best policy's row. */
    private Row verdict(List<Row> rows, List<SeedRun> seeds) {
        Row fcfs = rows.get(0);
        out.println();
        out.printf("Goal: worst/best ratio <= %.1f, utilization no lower than fcfs's (paired by seed), at most %.0f nodes "
                + "taken back from one instance per hour%n", GOAL_RATIO, GOAL_PER_HOUR);
        Row best = null;
        Row lowest = fcfs;
        for (Row r : rows) {
            Stat du = Stat.of(java.util.stream.IntStream.range(0, seeds.size()).boxed().toList(),
                    k -> r.utilizations().get(k) - fcfs.utilizations().get(k));
            boolean ratio = r.ratio().mean() <= GOAL_RATIO;
            boolean util = du.mean() >= 0;
            boolean gentle = r.mostTakenFromOnePerHour().mean() <= GOAL_PER_HOUR;
            out.printf("  %-30s ratio %s %s  utilization %+.2f ± %.2f points %s  most from one instance %4.1f/h %s  %s%n",
                    r.rule().label(), r.ratio().text2(), ratio ? "ok " : "NOT", du.mean(), du.sd(), util ? "ok " : "NOT",
                    r.mostTakenFromOnePerHour().mean(), gentle ? "ok " : "NOT",
                    ratio && util && gentle ? "goal met" : "goal not met");
            if (ratio && util && gentle && (best == null || r.ratio().mean() < best.ratio().mean())) {
                best = r;
            }
            if (util && r.ratio().mean() < lowest.ratio().mean()) {
                lowest = r;
            }
        }
        if (best == null) {
            out.println("  no policy meets the goal; below, the lowest ratio at no less utilization than fcfs");
            best = lowest;
        }
        out.printf(Locale.ROOT, "best: %s ratio %.2f utilization %.1f%% (fcfs: ratio %.2f utilization %.1f%%)%n",
                best.rule().token(), best.ratio().mean(), best.utilization().mean(),
                fcfs.ratio().mean(), fcfs.utilization().mean());
        return best;
    }

    private void write(List<Row> rows, List<SeedRun> seeds) {
        List<String> csv = new ArrayList<>();
        for (Row r : rows) {
            csv.add(String.format(Locale.ROOT, "%s,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s", r.rule().label(), seeds.size(),
                    r.ratio().csv(), r.utilization().csv(), r.held().csv(), r.takenBackPerHour().csv(),
                    r.mostTakenFromOnePerHour().csv(), r.killed().csv(), r.waitSeconds().csv(), r.idlePerHour().csv(),
                    r.askedPerHour().csv(), r.endedPerHour().csv()));
        }
        Charts.csv(dir, "sharing", "policy,seeds,ratio,ratio_sd,utilization_pct,utilization_sd,held_pct,held_sd,"
                + "taken_back_per_h,taken_back_sd,most_from_one_per_h,most_sd,killed,killed_sd,wait_s,wait_sd,"
                + "idle_taken_per_h,idle_sd,asked_per_h,asked_sd,ended_per_h,ended_sd", csv);
        List<String> inst = new ArrayList<>();
        for (Row r : rows) {
            for (int i = 0; i < scenario.members().size(); i++) {
                inst.add(String.format(Locale.ROOT, "%s,%s,%s,%s,%s,%s,%s,%s", r.rule().label(), scenario.members().get(i).name(),
                        r.normalised().get(i).csv(), r.figures().get(i).csv(), r.lostPercent().get(i).csv(),
                        r.slowdown().get(i).csv(), r.takenPerHour().get(i).csv(), r.waits().get(i).csv()));
            }
        }
        Charts.csv(dir, "sharing-instances", "policy,instance,normalised,normalised_sd,figure,figure_sd,lost_pct,"
                + "lost_sd,slowdown,slowdown_sd,taken_back_per_h,taken_back_sd,wait_s,wait_sd", inst);
        List<String> bySeed = new ArrayList<>();
        for (Row r : rows) {
            for (int k = 0; k < seeds.size(); k++) {
                bySeed.add(String.format(Locale.ROOT, "%s,%d,%.4f,%.4f", r.rule().label(), seeds.get(k).seed(), r.ratios().get(k),
                        r.utilizations().get(k)));
            }
        }
        Charts.csv(dir, "sharing-seeds", "policy,seed,ratio,utilization_pct", bySeed);
        chart(rows);
        series(seeds.get(0));
    }

    private void chart(List<Row> rows) {
        CategoryChart chart = new CategoryChartBuilder().width(1600).height(650)
                .title("Each instance's figure normalised by its figure alone (1 = as if alone; " + runs.seeds()
                        + " seeds × " + runs.length().toHours() + " h)").xAxisTitle("policy")
                .yAxisTitle("normalised figure (lower is better)").build();
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(org.knowm.xchart.style.Styler.LegendLayout.Horizontal);
        chart.getStyler().setXAxisLabelRotation(20);
        List<String> names = rows.stream().map(r -> r.rule().label()).toList();
        for (int i = 0; i < scenario.members().size(); i++) {
            int k = i;
            chart.addSeries(scenario.members().get(i).name(), names,
                    rows.stream().map(r -> (Number) r.normalised().get(k).mean()).toList(),
                    rows.stream().map(r -> (Number) r.normalised().get(k).sd()).toList());
        }
        Charts.png(chart, dir, "sharing");
    }

    /** Worker nodes held by each instance over the first 8 hours of seed 1, one chart per policy. */
    private void series(SeedRun first) {
        for (int p = 0; p < POLICIES; p++) {
            XYChart chart = Charts.chart(rules.get(p).label() + ": worker nodes held on a grid of " + scenario.nodes()
                    + " (seed 1)", "hours", "nodes");
            for (int i = 0; i < scenario.members().size(); i++) {
                List<RunMetrics.Point> pts = first.shared().get(p).tenants().get(i).run().series().stream()
                        .filter(pt -> pt.seconds() <= 8 * 3600).toList();
                Charts.add(chart, new Charts.Line(scenario.members().get(i).name(),
                        pts.stream().mapToDouble(pt -> pt.seconds() / 3600).toArray(),
                        pts.stream().mapToDouble(RunMetrics.Point::allocated).toArray(), null, false));
            }
            Charts.png(chart, dir, "sharing-series-" + rules.get(p).rule().shortName());
        }
    }
}
