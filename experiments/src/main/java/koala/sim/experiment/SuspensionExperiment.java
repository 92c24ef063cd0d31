package koala.sim.experiment;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.LongStream;
import koala.arbitration.ShareRule;
import koala.provisioning.PolicyKind;
import koala.sim.Generators;
import koala.sim.MixFigures;
import koala.sim.SimGrid;
import koala.sim.Simulation;
import koala.sim.Workload;

/**
 * Neptune-style suspension in the reference framework, simulated: the paper's {@code W_rl} with
 * word counts mixed in ({@link Generators#mixed}), each instance alone on a grid that never refuses
 * it, under Static, OnDemand and Pool, three ways: without suspension (an RL without an idle worker
 * is rejected or grown for: today's master), suspending SWCs for RLs with the suspended SWC resumed
 * in place when its RL ends, and the same with the suspended components moving to free slots
 * elsewhere when there are some. Every way runs the reference framework's own placement
 * ({@link koala.fluent.FrameworkState}) on the same workloads (common random numbers per seed).
 * Figures: RL reject rate, RL start latency (arrival to start, a grow's wait included), SWC
 * completion time (arrival to end, of the SWCs finished), node-hours held.
 *
 * <p>Then the take-back: the {@link SharingExperiment.Scenario#standard} grid under the fair policy, whose
 * instances' masters either lose what runs on a worker KOALA ends (today) or, suspending and
 * moving, let a worker running only batch work yield it to their other workers; the work lost
 * per take-back is counted both ways.
 */
public final class SuspensionExperiment {
    /** The goal: RL rejections at most this share of today's... */
    public static final double GOAL_REJECT_RATIO = 0.5;
    /** ... SWC completion at most this multiple of today's ... */
    public static final double GOAL_COMPLETION_RATIO = 1.2;
    /** ... at the same node-hours: within this ratio. */
    public static final double SAME_NODE_HOURS = 1.05;

    static final List<PolicyKind> POLICIES = List.of(PolicyKind.STATIC, PolicyKind.ONDEMAND, PolicyKind.POOL);

    /**
     * What to run.
     *
     * @param swcBatchRate SWC batches a second (2.5 SWCs a batch on average, 4–10 slots each)
     * @param maxTimes     k: suspensions of one SWC at most
     * @param sharingNodes the take-back grid's nodes; 0 skips the take-back table
     */
    public record Settings(Runs runs, Setup setup, double swcBatchRate, Duration swcDuration, double swcCpu,
            int maxTimes, int sharingNodes) {
        public Settings {
            if (!(swcBatchRate > 0) || swcDuration.isNegative() || swcDuration.isZero() || !(swcCpu > 0 && swcCpu <= 100)
                    || maxTimes < 1 || sharingNodes < 0) {
                throw new IllegalArgumentException("need a positive SWC rate and duration, an SWC CPU in (0, 100], "
                        + "k at least 1 and a grid of 0 or more nodes");
            }
        }

        /** SWC workers offered: rate × 2.5 a batch × 20/3 slots / 8 a worker × duration. */
        public double swcOfferedWorkers() {
            return swcBatchRate * 2.5 * (20.0 / 3) / 8 * swcDuration.toMillis() / 1000.0;
        }
    }

    /** The three ways the master treats an RL without an idle worker. */
    public enum Mode {
        KILL_ONLY("no suspension (today)"), IN_PLACE("suspend, resume in place"), MOVE("suspend, resume or move");

        final String label;

        Mode(String label) {
            this.label = label;
        }

        Simulation.Suspension suspension(int k) {
            return switch (this) {
                case KILL_ONLY -> Simulation.Suspension.NONE;
                case IN_PLACE -> new Simulation.Suspension(k, false);
                case MOVE -> new Simulation.Suspension(k, true);
            };
        }
    }

    /** One policy and mode over the seeds. */
    public record Row(PolicyKind policy, Mode mode, List<MixFigures> runs) {
        Stat stat(java.util.function.ToDoubleFunction<MixFigures> f) {
            return Stat.of(runs, f);
        }

        double mean(java.util.function.ToDoubleFunction<MixFigures> f) {
            return stat(f).mean();
        }
    }

    /** The take-back scenario's figures, summed over its instances, per seed, one mode. */
    public record TakeBack(Mode mode, List<MixFigures> totals) {
    }

    public record Result(Settings settings, List<Row> rows, List<TakeBack> takeBacks, double wallSeconds) {
    }

    private SuspensionExperiment() {
    }

    public static Result run(Settings s, PrintStream progress) {
        long t0 = System.nanoTime();
        List<Row> rows = new ArrayList<>();
        for (PolicyKind p : POLICIES) {
            for (Mode m : Mode.values()) {
                long t = System.nanoTime();
                List<MixFigures> runs = LongStream.rangeClosed(1, s.runs().seeds()).parallel()
                        .mapToObj(seed -> Simulation.mixed(workload(s, seed), s.setup().settings(p),
                                m.suspension(s.maxTimes()), s.runs().delay(), seed)).toList();
                rows.add(new Row(p, m, runs));
                progress.printf("  %-10s %-26s %d × %d h in %.1f s%n", p.shortName(), m.label, s.runs().seeds(),
                        s.runs().length().toHours(), (System.nanoTime() - t) / 1e9);
            }
        }
        List<TakeBack> takeBacks = new ArrayList<>();
        if (s.sharingNodes() > 0) {
            for (Mode m : List.of(Mode.KILL_ONLY, Mode.MOVE)) {
                long t = System.nanoTime();
                takeBacks.add(new TakeBack(m, LongStream.rangeClosed(1, s.runs().seeds()).parallel()
                        .mapToObj(seed -> shared(s, m, seed)).toList()));
                progress.printf("  take-back  %-26s %d × %d h in %.1f s%n", m.label, s.runs().seeds(),
                        s.runs().length().toHours(), (System.nanoTime() - t) / 1e9);
            }
        }
        return new Result(s, rows, takeBacks, (System.nanoTime() - t0) / 1e9);
    }

    static Workload workload(Settings s, long seed) {
        return Generators.mixed(s.runs().workload(), s.swcBatchRate(), s.swcDuration(), s.swcCpu(), s.runs().length(),
                seed);
    }

    /** The sharing scenario under the fair policy, one seed: the instances' take-back figures summed. */
    private static MixFigures shared(Settings s, Mode mode, long seed) {
        SharingExperiment.Scenario scenario = SharingExperiment.Scenario.standard(s.sharingNodes(), s.runs().workload());
        Simulation sim = new Simulation(new SimGrid(List.of(scenario.nodes()), SimGrid.Background.NONE, seed), seed)
                .floorKeeping(scenario.floorKeeping()).suspension(mode.suspension(s.maxTimes()))
                .arbitrated(scenario.arbitration().withRule(ShareRule.FAIR));
        for (SharingExperiment.Member m : scenario.members()) {
            sim.instance(m.name(), m.workload().of(seed, s.runs().length()),
                    m.settings(), s.runs().delay(), "fs0");
        }
        List<MixFigures> all = sim.runMixed(Workload.START.plus(s.runs().length()));
        long[] sum = new long[8];
        double hours = 0;
        for (MixFigures f : all) {
            long[] v = {f.rls(), f.rlRejected(), f.swcsFinished(), f.takenBack(), f.killed(), f.yielded(),
                f.yieldedSlots(), f.lostSwcSlots()};
            for (int i = 0; i < v.length; i++) {
                sum[i] += v[i];
            }
            hours += f.nodeHours();
        }
        return new MixFigures(sum[0], sum[1], 0, sum[2], 0, 0, hours, 0, 0, 0, sum[3], sum[4], sum[5], sum[6], sum[7]);
    }

    public static void print(Result r, PrintStream out) {
        Settings s = r.settings();
        out.printf("W_rl (%.2f workers offered) + W_swc: a batch of 2.5 SWCs every %.0f s on average, 4-10 slots, %d s "
                        + "at %.0f%% a slot (%.2f workers offered); 8-slot workers; k = %d; %d seeds × %d h%n",
                s.runs().workload().offeredLoad(), 1 / s.swcBatchRate(), s.swcDuration().toSeconds(), s.swcCpu(),
                s.swcOfferedWorkers(), s.maxTimes(), s.runs().seeds(), s.runs().length().toHours());
        out.printf("%n  %-10s %-26s %13s %13s %15s %11s %13s %11s %9s%n", "policy", "RLs without an idle worker",
                "RL rejected %", "RL start s", "SWC complete s", "SWC unfin.", "node-hours", "suspended", "moved");
        for (Row row : r.rows()) {
            out.printf("  %-10s %-26s %13s %13s %15s %11.1f %13s %11.0f %9.0f%n", row.policy().shortName(),
                    row.mode().label, row.stat(MixFigures::rlRejectPercent).text(),
                    row.stat(MixFigures::rlStartSeconds).text(), row.stat(MixFigures::swcCompletionSeconds).text(),
                    row.mean(MixFigures::swcsUnfinished), row.stat(MixFigures::nodeHours).text(),
                    row.mean(MixFigures::suspensions), row.mean(MixFigures::moved));
        }
        out.printf("%n  the goal: RL rejections <= %.1fx today's, SWC completion <= %.1fx today's, node-hours within "
                + "%.2fx%n", GOAL_REJECT_RATIO, GOAL_COMPLETION_RATIO, SAME_NODE_HOURS);
        for (Row row : r.rows()) {
            if (row.mode() == Mode.KILL_ONLY) {
                continue;
            }
            Row base = baseline(r, row.policy());
            Goal g = goal(row, base);
            out.printf("    %-10s %-26s rejected %5.2fx  completion %5.2fx  node-hours %5.2fx  %s%n",
                    row.policy().shortName(), row.mode().label, g.reject(), g.completion(), g.nodeHours(),
                    g.met() ? "goal met" : "goal not met");
        }
        if (!r.takeBacks().isEmpty()) {
            out.printf("%n  take-backs on the sharing scenario (%d nodes, fair policy), summed over its 4 instances, "
                    + "mean of the seeds%n", s.sharingNodes());
            out.printf("  %-26s %11s %10s %9s %16s %16s %16s %13s%n", "on a worker KOALA ends", "taken back",
                    "yielded", "killed", "SWC slots lost", "SWC slots moved", "lost/take-back", "RL rejected");
            for (TakeBack t : r.takeBacks()) {
                double taken = Stat.of(t.totals(), MixFigures::takenBack).mean();
                double lost = Stat.of(t.totals(), MixFigures::lostSwcSlots).mean();
                out.printf("  %-26s %11.1f %10.1f %9.1f %16.1f %16.1f %16.3f %13.1f%n",
                        t.mode() == Mode.KILL_ONLY ? "lose what runs (today)" : "batch work yields (moves)", taken,
                        Stat.of(t.totals(), MixFigures::yielded).mean(), Stat.of(t.totals(), MixFigures::killed).mean(),
                        lost, Stat.of(t.totals(), MixFigures::yieldedSlots).mean(), taken == 0 ? 0 : lost / taken,
                        Stat.of(t.totals(), MixFigures::rlRejected).mean());
            }
        }
        out.printf("%n  %.1f s of wall time%n", r.wallSeconds());
    }

    /** Today's row of the same policy. */
    static Row baseline(Result r, PolicyKind p) {
        return r.rows().stream().filter(x -> x.policy() == p && x.mode() == Mode.KILL_ONLY).findFirst().orElseThrow();
    }

    /** A mode's figures against today's, as ratios of the means; a baseline of 0 rejections is met by 0 only. */
    record Goal(double reject, double completion, double nodeHours, boolean met) {
    }

    static Goal goal(Row row, Row base) {
        double rej = ratio(row.mean(MixFigures::rlRejectPercent), base.mean(MixFigures::rlRejectPercent));
        double comp = ratio(row.mean(MixFigures::swcCompletionSeconds), base.mean(MixFigures::swcCompletionSeconds));
        double hours = ratio(row.mean(MixFigures::nodeHours), base.mean(MixFigures::nodeHours));
        return new Goal(rej, comp, hours, rej <= GOAL_REJECT_RATIO && comp <= GOAL_COMPLETION_RATIO
                && hours <= SAME_NODE_HOURS);
    }

    private static double ratio(double a, double b) {
        return b == 0 ? (a == 0 ? 0 : Double.POSITIVE_INFINITY) : a / b;
    }

    /** Writes suspension.csv (a row per policy, mode and seed) and suspension-takeback.csv. */
    public static List<Path> write(Result r, Path dir) {
        List<String> rows = new ArrayList<>();
        for (Row row : r.rows()) {
            for (int i = 0; i < row.runs().size(); i++) {
                MixFigures f = row.runs().get(i);
                rows.add(String.format(Locale.ROOT, "%s,%s,%d,%d,%d,%.3f,%.3f,%d,%d,%.3f,%.4f,%d,%d,%d",
                        row.policy().shortName(), row.mode().name().toLowerCase(Locale.ROOT), i + 1, f.rls(),
                        f.rlRejected(), f.rlRejectPercent(), f.rlStartSeconds(), f.swcsFinished(), f.swcsUnfinished(),
                        f.swcCompletionSeconds(), f.nodeHours(), f.suspensions(), f.resumed(), f.moved()));
            }
        }
        List<Path> files = new ArrayList<>();
        files.add(Charts.csv(dir, "suspension", "policy,mode,seed,rls,rl_rejected,rl_reject_pct,rl_start_s,"
                + "swcs_finished,swcs_unfinished,swc_completion_s,node_hours,suspensions,resumed,moved", rows));
        if (!r.takeBacks().isEmpty()) {
            List<String> tb = new ArrayList<>();
            for (TakeBack t : r.takeBacks()) {
                for (int i = 0; i < t.totals().size(); i++) {
                    MixFigures f = t.totals().get(i);
                    tb.add(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%d", t.mode().name().toLowerCase(Locale.ROOT),
                            i + 1, f.takenBack(), f.yielded(), f.killed(), f.lostSwcSlots(), f.yieldedSlots(),
                            f.rlRejected()));
                }
            }
            files.add(Charts.csv(dir, "suspension-takeback", "mode,seed,taken_back,yielded,killed,swc_slots_lost,"
                    + "swc_slots_moved,rl_rejected", tb));
        }
        return files;
    }
}
