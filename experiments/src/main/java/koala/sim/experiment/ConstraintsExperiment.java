package koala.sim.experiment;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import koala.constraints.Ask;
import koala.constraints.Audit;
import koala.constraints.ClusterState;
import koala.constraints.Constraint;
import koala.constraints.Container;
import koala.constraints.ConstraintDecision;
import koala.constraints.Node;
import koala.constraints.Placement;
import koala.constraints.Placer;
import koala.constraints.ConstraintReason;
import koala.constraints.Request;
import koala.constraints.Violation;
import koala.sim.ConstraintStream;
import koala.sim.ConstraintStream.Deploy;
import koala.sim.ConstraintStream.Depart;
import koala.sim.ConstraintStream.Event;
import koala.sim.ConstraintStream.Grid;
import koala.sim.ConstraintStream.Grow;
import koala.sim.ConstraintStream.Mix;
import koala.sim.ConstraintStream.Shrink;

/**
 * Placement constraints in the simulator: the same stream of framework instances
 * ({@link ConstraintStream}) placed three ways on the same grid: by {@link Placer} (constraints kept,
 * best fit), and, blind to the constraints, by worst-fit (KOALA's default: the site with the most free
 * slots, its node with the most) and by first-fit (the first node by name with a free slot). Each
 * placement of the blind ones is checked against the constraints in force ({@link Placer#violations})
 * and its breaks counted; every run ends with an {@link Audit} of the final state, which checks it
 * from scratch. The decision time of each grow once the instances are deployed is read here, around
 * the decision alone, with the monotonic clock (the decision code never reads it).
 *
 * <p>A request that waits is not retried: it is counted, and a grow of an instance whose deployment
 * waited is skipped.
 */
public final class ConstraintsExperiment {
    /** How the stream's containers are placed. */
    public enum Policy {
        CONSTRAINED("constrained"), WORST_FIT("worst-fit (blind)"), FIRST_FIT("first-fit (blind)");

        final String label;

        Policy(String label) {
            this.label = label;
        }
    }

    /** What to run. */
    public record Settings(Grid grid, int instances, int events, Mix mix, long seed, int repeats) {
        public static Settings defaults() {
            return new Settings(Grid.DEFAULT, 1000, 20_000, Mix.DEFAULT, 1, 3);
        }

        public Settings {
            if (repeats < 1) {
                throw new IllegalArgumentException("each decision is timed at least once");
            }
            if (instances < 1 || events < 0 || grid.sites() < 1 || grid.nodes() < 1 || grid.slots() < 1
                    || grid.rackSize() < 1 || grid.sitesPerNetwork() < 1) {
                throw new IllegalArgumentException("sites, nodes, slots, rack size, sites per network and instances "
                        + "must be at least 1, events at least 0");
            }
        }
    }

    /** One policy's figures over the stream. */
    public record Figures(Policy policy, int containers, int deploys, int deploysHard, int deploysNoSlot, int grows,
            int growsHard, int growsNoSlot, int growsSkipped, int hardBroken, int softBroken, int auditHard,
            int auditSoft, int running, int nodesUsed, int emptyNodes, long[] growNanos, long[] deployNanos,
            Map<String, Integer> waitReasons) {

        public double growMs(double quantile) {
            return Percentile.of(growNanos, quantile) / 1e6;
        }

        public double deployMs(double quantile) {
            return Percentile.of(deployNanos, quantile) / 1e6;
        }
    }

    public record Result(Settings settings, List<Figures> figures, int[] mixCounts, double wallSeconds) {
    }

    private ConstraintsExperiment() {
    }

    public static Result run(Settings s) {
        long t0 = System.nanoTime();
        List<Event> stream = ConstraintStream.generate(s.instances(), s.events(), s.mix(), s.seed());
        List<Figures> figures = new ArrayList<>();
        for (Policy p : Policy.values()) {
            figures.add(new Run(s, p).run(stream));
        }
        return new Result(s, figures, mixCounts(stream), (System.nanoTime() - t0) / 1e9);
    }

    /** Constraints drawn: [hard, soft] for apart-site, apart-rack, per-host, near-own, near-other. */
    static int[] mixCounts(List<Event> stream) {
        int[] c = new int[10];
        for (Event e : stream) {
            if (e instanceof Deploy d) {
                for (Constraint k : d.constraints()) {
                    int kind = switch (k.kind()) {
                        case ANTI_AFFINITY -> k.group().equals(ConstraintStream.RACK) ? 1 : 0;
                        case CARDINALITY -> 2;
                        case AFFINITY -> k.target().values().contains("instance=" + d.instance()) ? 3 : 4;
                    };
                    c[kind * 2 + (k.hard() ? 0 : 1)]++;
                }
            }
        }
        return c;
    }

    /** One policy over the stream, with its own cluster state. */
    private static final class Run {
        private final Settings settings;
        private final Policy policy;
        private final ClusterState state;
        private final Map<String, Deque<String>> workers = new HashMap<>();
        private final Map<String, List<String>> others = new HashMap<>();
        private final long[] growNanos;
        private int grown;
        private final long[] deployNanos;
        private int deployed;
        private int containers;
        private int deploys;
        private int deploysHard;
        private int deploysNoSlot;
        private int grows;
        private int growsHard;
        private int growsNoSlot;
        private int growsSkipped;
        private int hardBroken;
        private int softBroken;
        private final Map<String, Integer> waitReasons = new java.util.TreeMap<>();
        private long lastNanos;

        Run(Settings settings, Policy policy) {
            this.settings = settings;
            this.policy = policy;
            this.state = new ClusterState(settings.grid().build());
            this.growNanos = new long[settings.events()];
            this.deployNanos = new long[settings.instances() + settings.events()];
        }

        Figures run(List<Event> stream) {
            int index = 0;
            for (Event e : stream) {
                boolean measured = index++ >= settings.instances();
                if (e instanceof Deploy d) {
                    deploy(d);
                } else if (e instanceof Grow g) {
                    grow(g, measured);
                } else if (e instanceof Shrink sh) {
                    shrink(sh);
                } else if (e instanceof Depart dp) {
                    depart(dp);
                }
            }
            int auditHard = 0;
            int auditSoft = 0;
            for (Audit.Finding f : Audit.check(state)) {
                if (f.constraint().hard()) {
                    auditHard++;
                } else {
                    auditSoft++;
                }
            }
            int used = 0;
            int empty = 0;
            for (int i = 0; i < state.nodes().size(); i++) {
                int free = state.free(i);
                used += free < state.nodes().get(i).slots() ? 1 : 0;
                empty += free == state.nodes().get(i).slots() ? 1 : 0;
            }
            long[] g = Arrays.copyOf(growNanos, grown);
            long[] d = Arrays.copyOf(deployNanos, deployed);
            Arrays.sort(g);
            Arrays.sort(d);
            return new Figures(policy, containers, deploys, deploysHard, deploysNoSlot, grows, growsHard, growsNoSlot,
                    growsSkipped, hardBroken, softBroken, auditHard, auditSoft, workers.size(), used, empty, g, d, waitReasons);
        }

        private void deploy(Deploy d) {
            List<Ask> asks = new ArrayList<>();
            asks.add(new Ask(d.instance() + "-master", ConstraintStream.tags(d.instance(), "master")));
            asks.add(new Ask(d.instance() + "-orchestrator", ConstraintStream.tags(d.instance(), "orchestrator")));
            for (int w = 0; w < d.workers(); w++) {
                asks.add(worker(d.instance(), w));
            }
            Request r = new Request(d.instance(), asks, d.constraints());
            ConstraintDecision decision = timed(r);
            deployNanos[deployed++] = lastNanos;
            deploys++;
            if (decision instanceof ConstraintDecision.Placed p) {
                commit(r, p, d.instance());
                others.put(d.instance(), List.of(d.instance() + "-master", d.instance() + "-orchestrator"));
                Deque<String> ws = new ArrayDeque<>();
                for (int w = 0; w < d.workers(); w++) {
                    ws.push(d.instance() + "-w" + w);
                }
                workers.put(d.instance(), ws);
            } else if (noSlot((ConstraintDecision.Waiting) decision)) {
                deploysNoSlot++;
            } else {
                deploysHard++;
                tally("deployment", d.instance(), (ConstraintDecision.Waiting) decision);
            }
        }

        private void grow(Grow g, boolean measured) {
            if (!workers.containsKey(g.instance())) {
                growsSkipped++;
                return;
            }
            List<Ask> asks = new ArrayList<>();
            for (int w = g.first(); w < g.first() + g.workers(); w++) {
                asks.add(worker(g.instance(), w));
            }
            Request r = new Request(g.instance() + "-grow" + g.first(), asks, List.of());
            ConstraintDecision decision = timed(r);
            if (measured) {
                growNanos[grown++] = lastNanos;
            }
            grows++;
            if (decision instanceof ConstraintDecision.Placed p) {
                commit(r, p, g.instance());
                asks.forEach(a -> workers.get(g.instance()).push(a.id()));
            } else if (noSlot((ConstraintDecision.Waiting) decision)) {
                growsNoSlot++;
            } else {
                growsHard++;
                tally("grow", g.instance(), (ConstraintDecision.Waiting) decision);
            }
        }

        private void shrink(Shrink sh) {
            Deque<String> ws = workers.get(sh.instance());
            for (int i = 0; ws != null && i < sh.workers() && !ws.isEmpty(); i++) {
                state.remove(ws.pop());
            }
        }

        private void depart(Depart d) {
            Deque<String> ws = workers.remove(d.instance());
            if (ws != null) {
                ws.forEach(state::remove);
                others.remove(d.instance()).forEach(state::remove);
            }
            state.release(d.instance());
        }

        /**
         * Counts a wait under its first reason's constraint, the instance's own tag written "own" and any
         * other's "other", and whether its target runs anywhere.
         */
        private void tally(String what, String instance, ConstraintDecision.Waiting w) {
            ConstraintReason first = w.reasons().get(0);
            String text = first.constraint() == null ? first.kind().name() : first.constraint().describe()
                    .replace("instance=" + instance + ",", "instance=own,").replaceAll("instance=i[0-9]+,", "instance=other,");
            if (first.text().endsWith("runs anywhere)")) {
                text += ", target running nowhere";
            }
            waitReasons.merge(what + ": " + text, 1, Integer::sum);
        }

        private static Ask worker(String instance, int w) {
            return new Ask(instance + "-w" + w, ConstraintStream.tags(instance, "worker"));
        }

        private static boolean noSlot(ConstraintDecision.Waiting w) {
            return w.reasons().stream().allMatch(r -> r.kind() == ConstraintReason.Kind.NO_FREE_SLOT);
        }

        /**
         * The decision, timed {@code repeats} times on the same state (it is pure, so each gives the same
         * decision) and the fastest kept in {@code lastNanos}: on a shared machine the others are the
         * other processes' preemptions, not the decision's cost.
         */
        private ConstraintDecision timed(Request r) {
            ConstraintDecision d = null;
            long fastest = Long.MAX_VALUE;
            for (int i = 0; i < settings.repeats(); i++) {
                long t = System.nanoTime();
                d = decide(r);
                fastest = Math.min(fastest, System.nanoTime() - t);
            }
            lastNanos = fastest;
            return d;
        }

        private ConstraintDecision decide(Request r) {
            return switch (policy) {
                case CONSTRAINED -> Placer.place(state, r);
                case WORST_FIT, FIRST_FIT -> blind(r);
            };
        }

        /** The blind policies' choice, all or nothing, on a copy of the free slots. */
        private ConstraintDecision blind(Request r) {
            int[] taken = new int[state.nodes().size()];
            List<Placement> placements = new ArrayList<>();
            for (Ask a : r.asks()) {
                int node = policy == Policy.WORST_FIT ? worstFit(taken) : firstFit(taken);
                if (node < 0) {
                    return new ConstraintDecision.Waiting(r.id(), List.of(new ConstraintReason(a.id(), ConstraintReason.Kind.NO_FREE_SLOT, null, 0,
                            "no free slot")));
                }
                taken[node]++;
                placements.add(new Placement(a.id(), state.nodes().get(node).name()));
            }
            return new ConstraintDecision.Placed(r.id(), placements, List.of());
        }

        private int firstFit(int[] taken) {
            for (int i = 0; i < taken.length; i++) {
                if (state.free(i) - taken[i] > 0) {
                    return i;
                }
            }
            return -1;
        }

        /** The site with the most free slots, then its node with the most; ties by name (the nodes' order). */
        private int worstFit(int[] taken) {
            List<Node> nodes = state.nodes();
            int bestSiteFree = 0;
            int bestNode = -1;
            int bestNodeFree = 0;
            int i = 0;
            while (i < nodes.size()) {
                String site = nodes.get(i).groupOf(koala.constraints.Group.SITE);
                int siteFree = 0;
                int node = -1;
                int nodeFree = 0;
                for (; i < nodes.size() && nodes.get(i).groupOf(koala.constraints.Group.SITE).equals(site); i++) {
                    int free = state.free(i) - taken[i];
                    siteFree += free;
                    if (free > nodeFree) {
                        node = i;
                        nodeFree = free;
                    }
                }
                if (siteFree > bestSiteFree) {
                    bestSiteFree = siteFree;
                    bestNode = node;
                    bestNodeFree = nodeFree;
                }
            }
            return bestNodeFree > 0 ? bestNode : -1;
        }

        /**
         * Starts the placed containers one by one; for the blind policies each is first checked against
         * the constraints in force and its own request's, and what it breaks counted. The request's
         * constraints go in force under the instance.
         */
        private void commit(Request r, ConstraintDecision.Placed p, String instance) {
            Map<String, Ask> asks = new HashMap<>();
            r.asks().forEach(a -> asks.put(a.id(), a));
            if (policy == Policy.CONSTRAINED) {
                for (Violation v : p.violations()) {
                    if (v.constraint().hard()) {
                        hardBroken++;
                    } else {
                        softBroken++;
                    }
                }
                state.apply(r, p, instance);
                containers += p.placements().size();
                return;
            }
            for (Placement pl : p.placements()) {
                Ask a = asks.get(pl.container());
                for (Violation v : Placer.violations(state, a.id(), a.tags(), pl.node(), r.constraints())) {
                    if (v.constraint().hard()) {
                        hardBroken++;
                    } else {
                        softBroken++;
                    }
                }
                state.add(new Container(a.id(), a.tags(), pl.node()));
                containers++;
            }
            if (!r.constraints().isEmpty()) {
                state.constrain(instance, r.constraints());
            }
        }
    }

    /** The q-quantile of sorted values (nearest rank); 0 for none. */
    static final class Percentile {
        private Percentile() {
        }

        static long of(long[] sorted, double q) {
            if (sorted.length == 0) {
                return 0;
            }
            int rank = (int) Math.ceil(q * sorted.length);
            return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
        }
    }

    public static void print(Result r, PrintStream out) {
        Settings s = r.settings();
        Grid g = s.grid();
        out.printf(Locale.ROOT, "Placement constraints in the simulator: %d sites × %d nodes × %d slots (%,d slots), racks of "
                        + "%d nodes, networks of %d sites; %,d framework instances deployed, then %,d events (grow 45%%, "
                        + "shrink 40%%, churn 15%%); seed %d; each decision timed %d× on the same state, the fastest "
                        + "kept%n", g.sites(), g.nodes(), g.slots(), g.totalSlots(), g.rackSize(), g.sitesPerNetwork(),
                s.instances(), s.events(), s.seed(), s.repeats());
        int[] m = r.mixCounts();
        out.printf(Locale.ROOT, "constraints drawn (hard/soft): master-orchestrator apart over site %d/%d, over rack %d/%d; "
                        + "<= 2 workers per host %d/%d; workers near own master (site) %d/%d; near another instance's "
                        + "master (site) %d/%d%n%n", m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9]);
        List<Figures> f = r.figures();
        row(out, "", f, x -> x.policy().label);
        row(out, "containers placed", f, x -> String.format(Locale.ROOT, "%,d", x.containers()));
        row(out, "deployments placed / waiting (hard) / (no slot)", f, x -> (x.deploys() - x.deploysHard()
                - x.deploysNoSlot()) + " / " + x.deploysHard() + " / " + x.deploysNoSlot());
        row(out, "grows placed / waiting (hard) / (no slot)", f, x -> (x.grows() - x.growsHard() - x.growsNoSlot())
                + " / " + x.growsHard() + " / " + x.growsNoSlot());
        row(out, "grows skipped (instance not deployed)", f, x -> String.valueOf(x.growsSkipped()));
        row(out, "hard constraints broken at placement", f, x -> String.valueOf(x.hardBroken()));
        row(out, "soft constraints broken at placement", f, x -> String.valueOf(x.softBroken()));
        row(out, "final state audit: hard / soft broken", f, x -> x.auditHard() + " / " + x.auditSoft());
        row(out, "instances running at the end", f, x -> String.valueOf(x.running()));
        row(out, "nodes in use / empty", f, x -> String.format(Locale.ROOT, "%,d / %,d", x.nodesUsed(), x.emptyNodes()));
        row(out, "grow decision ms: median / p99 / max", f, x -> String.format(Locale.ROOT, "%.3f / %.3f / %.2f",
                x.growMs(0.5), x.growMs(0.99), x.growMs(1.0)));
        row(out, "deploy decision ms: median / p99", f, x -> String.format(Locale.ROOT, "%.3f / %.3f", x.deployMs(0.5),
                x.deployMs(0.99)));
        Figures c = f.get(0);
        if (!c.waitReasons().isEmpty()) {
            out.println("\n  constrained, requests waiting on a hard constraint, by the first one named:");
            c.waitReasons().entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                    .forEach(e -> out.printf(Locale.ROOT, "    %5d  %s%n", e.getValue(), e.getKey()));
        }
        boolean met = c.hardBroken() == 0 && c.auditHard() == 0 && c.growMs(0.5) <= 5 && c.growMs(0.99) <= 50;
        out.printf(Locale.ROOT, "%nconstrained, %,d grows timed at about %,d running instances: median %.3f ms (target <= 5), "
                        + "p99 %.3f ms (target <= 50); hard constraints broken %d (must be 0): %s%n", c.growNanos().length,
                s.instances(), c.growMs(0.5), c.growMs(0.99), c.hardBroken() + c.auditHard(), met ? "met" : "NOT met");
        out.printf(Locale.ROOT, "wall time %.1f s (three policies)%n", r.wallSeconds());
    }

    private static void row(PrintStream out, String name, List<Figures> f, java.util.function.Function<Figures, String> v) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %-48s", name));
        for (Figures x : f) {
            line.append(String.format(Locale.ROOT, "  %24s", v.apply(x)));
        }
        out.println(line);
    }

    /** {@code constraints.csv}: one row per policy. */
    public static Path write(Result r, Path dir) {
        List<String> rows = new ArrayList<>();
        for (Figures x : r.figures()) {
            rows.add(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f",
                    x.policy().name().toLowerCase(Locale.ROOT).replace('_', '-'), x.containers(), x.deploys(),
                    x.deploysHard(), x.deploysNoSlot(), x.grows(), x.growsHard(), x.growsNoSlot(), x.growsSkipped(),
                    x.hardBroken(), x.softBroken(), x.auditHard(), x.auditSoft(), x.running(), x.nodesUsed(),
                    x.emptyNodes(), x.growMs(0.5), x.growMs(0.99), x.growMs(1.0), x.deployMs(0.5), x.deployMs(0.99)));
        }
        return Charts.csv(dir, "constraints", "policy,containers,deploys,deploys_waiting_hard,deploys_waiting_no_slot,grows,"
                + "grows_waiting_hard,grows_waiting_no_slot,grows_skipped,hard_broken,soft_broken,audit_hard,audit_soft,"
                + "instances_running,nodes_used,nodes_empty,grow_ms_median,grow_ms_p99,grow_ms_max,deploy_ms_median,"
                + "deploy_ms_p99", rows);
    }
}
