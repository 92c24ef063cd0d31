package koala.cli;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an instance's logs say of its workers: the runner's log ({@code runners/runner-ID.log}:
 * grows with the nodes granted, each worker reporting in "after" so long since the grow was
 * asked, releases, losses, the instance's end) and the master's {@code events.log} (each worker
 * joining the master, the moment it can run an application). From these, over a window: worker
 * node-time allocated (from the grow request to the release, as the simulator counts it), the
 * grows, and each grow's overhead, request to worker joined.
 */
final class TestbedLogs {
    private static final Pattern RUNNER = Pattern.compile(
            "^(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3}) .*? - instance \\d+: (.*)$");
    private static final Pattern GROW = Pattern.compile("^grow \\d+ workers? \\[([^]]*)]");
    private static final Pattern REPORTED = Pattern.compile("^worker (\\S+) reported in on .* after ([0-9.]+) s");
    private static final Pattern RELEASE = Pattern.compile("^release \\[([^]]*)]");
    private static final Pattern LOST = Pattern.compile("^worker (\\S+) lost");
    private static final Pattern JOINED = Pattern.compile("^(\\d{2}:\\d{2}:\\d{2}\\.\\d{3}) worker (\\S+) joined");

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

    /**
     * Reads the runner's log and the master's events; the master's lines carry the time of day
     * only, taken on the day (in {@code zone}) that puts them nearest to {@code near}.
     */
    static Parsed parse(List<String> runnerLog, List<String> masterEvents, Instant near, ZoneId zone) {
        Map<String, Instant[]> spans = new LinkedHashMap<>();
        List<Grow> grows = new ArrayList<>();
        for (String line : runnerLog) {
            Matcher m = RUNNER.matcher(line);
            if (!m.matches()) {
                continue;
            }
            Instant at = LocalDateTime.parse(m.group(1).replace(' ', 'T')).atZone(zone).toInstant();
            runnerEvent(m.group(2), at, spans, grows);
        }
        for (String line : masterEvents) {
            Matcher m = JOINED.matcher(line);
            if (m.find() && spans.containsKey(m.group(2))) {
                spans.get(m.group(2))[1] = onNearestDay(LocalTime.parse(m.group(1)), near, zone);
            }
        }
        List<WorkerSpan> workers = new ArrayList<>();
        spans.forEach((node, t) -> workers.add(new WorkerSpan(node, t[0], t[1], t[2])));
        return new Parsed(grows, workers);
    }

    private static void runnerEvent(String text, Instant at, Map<String, Instant[]> spans, List<Grow> grows) {
        Matcher m;
        if ((m = GROW.matcher(text)).find()) {
            List<String> nodes = names(m.group(1));
            grows.add(new Grow(at, nodes));
            // the grant's time stands for the request until the worker's report-in says when it was asked
            nodes.forEach(n -> spans.put(n, new Instant[] {at, null, null}));
        } else if ((m = REPORTED.matcher(text)).find() && spans.containsKey(m.group(1))) {
            spans.get(m.group(1))[0] = at.minusMillis(Math.round(Double.parseDouble(m.group(2)) * 1000));
        } else if ((m = RELEASE.matcher(text)).find()) {
            names(m.group(1)).stream().filter(spans::containsKey).forEach(n -> released(spans.get(n), at));
        } else if ((m = LOST.matcher(text)).find() && spans.containsKey(m.group(1))) {
            released(spans.get(m.group(1)), at);
        } else if (text.startsWith("instance ends") || text.startsWith("instance failed")) {
            spans.values().forEach(t -> released(t, at));
        }
    }

    private static void released(Instant[] span, Instant at) {
        if (span[2] == null) {
            span[2] = at;
        }
    }

    private static List<String> names(String list) {
        return Arrays.stream(list.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private static Instant onNearestDay(LocalTime time, Instant near, ZoneId zone) {
        LocalDate day = near.atZone(zone).toLocalDate();
        Instant best = null;
        for (LocalDate d : List.of(day.minusDays(1), day, day.plusDays(1))) {
            Instant t = d.atTime(time).atZone(zone).toInstant();
            if (best == null || Duration.between(t, near).abs().compareTo(Duration.between(best, near).abs()) < 0) {
                best = t;
            }
        }
        return best;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
