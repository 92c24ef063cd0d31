package koala.scheduler.accounting;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;
import koala.api.scheduler.UsageRecord;
import koala.scheduler.claiming.NodeSpan;

/**
 * The figures of a usage record, from the spans of a job's nodes (each pilot's hold of its node).
 * A span still open when its job ended (a crash between the end and the release) counts up to the
 * job's end. Seconds are kept to the millisecond, shares to four decimals.
 *
 * <p>Example: a job of two nodes on fs0 (4 cores each), both arrived at 10:00:00, their commands
 * started at 10:00:10 and ended at 10:01:30: nodes 2, peak 2, node-seconds 2 × 90 = 180, busy
 * 2 × 80 = 160 (share 0.8889), core-seconds 180 × 4 = 720 ({@link ResourceSeconds}); with 360 CPU
 * seconds reported, a CPU efficiency of 360 / 720 = 0.5. No I/O, no clock: the end is given.
 */
public final class UsageFigures {
    private UsageFigures() {
    }

    /** Distinct nodes that were granted (a node placed again counts once). */
    public static int nodes(List<NodeSpan> spans) {
        return (int) spans.stream().map(NodeSpan::node).distinct().count();
    }

    /** The most spans open at once; a node that ends the moment another arrives is not counted with it. */
    public static int peak(List<NodeSpan> spans, Instant end) {
        record Edge(Instant at, int change) {
        }
        List<Edge> edges = new ArrayList<>();
        for (NodeSpan s : spans) {
            edges.add(new Edge(s.arrivedAt(), 1));
            edges.add(new Edge(s.endedAt() != null ? s.endedAt() : end, -1));
        }
        edges.sort(Comparator.comparing(Edge::at).thenComparingInt(Edge::change)); // ends first
        int open = 0;
        int peak = 0;
        for (Edge e : edges) {
            open += e.change();
            peak = Math.max(peak, open);
        }
        return peak;
    }

    public static List<String> sites(List<NodeSpan> spans) {
        return spans.stream().map(NodeSpan::site).distinct().sorted().toList();
    }

    public static double nodeSeconds(List<NodeSpan> spans, Instant end) {
        return seconds(spans.stream().mapToDouble(s -> s.heldSeconds(end)).sum());
    }

    /** Node-seconds the nodes' commands ran. */
    public static double busySeconds(List<NodeSpan> spans, Instant end) {
        return seconds(spans.stream().mapToDouble(s -> s.busySeconds(end)).sum());
    }

    /**
     * The CPU time the launchers reported, when every node whose command started reported it; null
     * (unknown) when one did not, or when no command started.
     */
    public static Double cpuSeconds(List<NodeSpan> spans) {
        List<NodeSpan> ran = spans.stream().filter(s -> s.startedAt() != null).toList();
        if (ran.isEmpty() || ran.stream().anyMatch(s -> s.cpuSeconds() == null)) {
            return null;
        }
        return seconds(ran.stream().mapToDouble(NodeSpan::cpuSeconds).sum());
    }

    /** Nodes and node-seconds per role; {@code role} names a component's role. */
    public static Map<String, UsageRecord.RoleUsage> roles(List<NodeSpan> spans, IntFunction<String> role, Instant end) {
        Map<String, List<NodeSpan>> byRole = new TreeMap<>();
        spans.forEach(s -> byRole.computeIfAbsent(role.apply(s.component()), r -> new ArrayList<>()).add(s));
        Map<String, UsageRecord.RoleUsage> roles = new TreeMap<>();
        byRole.forEach((r, of) -> roles.put(r, new UsageRecord.RoleUsage(nodes(of), nodeSeconds(of, end))));
        return roles;
    }

    /** {@code part} over {@code whole}; null when either is unknown or nothing was granted. */
    public static Double share(Double part, Double whole) {
        return part == null || whole == null || whole <= 0 ? null : Math.round(part / whole * 10_000) / 10_000.0;
    }

    /** Seconds to the millisecond. */
    public static double seconds(double s) {
        return Math.round(s * 1000) / 1000.0;
    }
}
