package koala.experiments;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.common.event.EventLine;
import koala.fluent.wire.MasterEventKind;
import koala.runner.EventKind;

/**
 * What an instance's events say of its workers: the runner's (JSON lines in its log,
 * {@code runners/runner-ID.log}: grows with the nodes granted, stamped with the time they were
 * asked for; releases, losses, the instance's end) and the master's ({@code events.log}: each
 * worker joining the master, the moment it can run an application). Both are read as
 * {@link EventLine}s, by kind and field; other lines of the runner's log are skipped. From these,
 * over a window: worker node-time allocated (from the grow request to the release, as the
 * simulator counts it), the grows, and each grow's overhead, request to worker joined.
 */
final class TestbedLogs {
    /** A grow the runner carried out: when it was granted, and the worker nodes it gave. */
    record Grow(Instant at, List<String> nodes) {
    }

    /** One worker: asked for, joined the master (null if never), released (null while held). */
    record WorkerSpan(String node, Instant requested, Instant joined, Instant released) {
        /** Node-time held within [from, to], seconds; held until {@code to} when not released. */
        double heldSeconds(Instant from, Instant to) {
            Instant start = max(requested, from);
            Instant end = min(released == null ? to : released, to);
            return end.isAfter(start) ? Duration.between(start, end).toMillis() / 1000.0 : 0;
        }
    }

    /** Both logs read: the grows, and the workers in the order they were granted. */
    record Parsed(List<Grow> grows, List<WorkerSpan> workers) {
        List<Grow> growsIn(Instant from, Instant to) {
            return grows.stream().filter(g -> !g.at().isBefore(from) && g.at().isBefore(to)).toList();
        }

        /** Worker node-seconds held within [from, to]. */
        double allocatedSeconds(Instant from, Instant to) {
            return workers.stream().mapToDouble(w -> w.heldSeconds(from, to)).sum();
        }

        /**
         * Each worker asked for within [from, to): seconds from the request to joining the master,
         * or to its release or {@code to} if it never joined (it was held that long for nothing).
         */
        List<Double> growTimes(Instant from, Instant to) {
            List<Double> times = new ArrayList<>();
            for (WorkerSpan w : workers) {
                if (w.requested().isBefore(from) || !w.requested().isBefore(to)) {
                    continue;
                }
                Instant usable = w.joined() != null ? w.joined() : w.released() != null ? w.released() : to;
                times.add(Duration.between(w.requested(), min(usable, to)).toMillis() / 1000.0);
            }
            return times;
        }
    }

    private TestbedLogs() {
    }

    /** Reads the runner's log and the master's events. */
    static Parsed parse(List<String> runnerLog, List<String> masterEvents) {
        Map<String, Instant[]> spans = new LinkedHashMap<>();
        List<Grow> grows = new ArrayList<>();
        runnerLog.stream().flatMap(l -> EventLine.parse(l).stream()).forEach(e -> runnerEvent(e, spans, grows));
        for (String line : masterEvents) {
            EventLine.parse(line).filter(e -> e.kind().equals(MasterEventKind.JOINED.name()))
                    .ifPresent(e -> e.string("node").map(spans::get).ifPresent(t -> t[1] = e.time()));
        }
        List<WorkerSpan> workers = new ArrayList<>();
        spans.forEach((node, t) -> workers.add(new WorkerSpan(node, t[0], t[1], t[2])));
        return new Parsed(grows, workers);
    }

    private static void runnerEvent(EventLine e, Map<String, Instant[]> spans, List<Grow> grows) {
        EventKind kind = java.util.Arrays.stream(EventKind.values()).filter(k -> k.name().equals(e.kind())).findFirst()
                .orElse(EventKind.NOTE); // a kind this reader does not know is a note to it
        switch (kind) {
            case GROW -> {
                if (e.string("role").filter("worker"::equals).isPresent()) {
                    grows.add(new Grow(e.time(), e.strings("nodes")));
                    // a grow's time is when it was asked for, not when it was granted
                    e.strings("nodes").forEach(n -> spans.put(n, new Instant[] {e.time(), null, null}));
                }
            }
            case RELEASE -> e.strings("nodes").stream().filter(spans::containsKey).forEach(n -> released(spans.get(n),
                    e.time()));
            case LOST -> e.string("node").map(spans::get).ifPresent(t -> released(t, e.time()));
            case ENDED -> spans.values().forEach(t -> released(t, e.time()));
            default -> { }
        }
    }

    private static void released(Instant[] span, Instant at) {
        if (span[2] == null) {
            span[2] = at;
        }
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
