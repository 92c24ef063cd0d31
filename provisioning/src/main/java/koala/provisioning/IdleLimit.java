package koala.provisioning;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * t_idle in force for one decision, and the release-timer rule shared by workers and orchestrator
 * nodes: something idle (a worker) or empty (an orchestrator node) since {@code since} may be given
 * back at {@code now} when {@code now − since >= t_idle}. Exactly t_idle is enough: with t_idle
 * 180 s a worker idle 179 s stays and one idle 180 s goes. Candidates are taken longest idle first
 * (earliest {@code since}), ties by id in {@link NaturalOrder}.
 *
 * @param text "t_idle 180 s", or "t_idle 180 s (6 × O_grow 30 s)" when t_idle follows O_grow
 */
record IdleLimit(Duration value, String text) {

    /** One thing that has been idle, or empty, since {@code since}. */
    record Idle(String id, Instant since) {
        Duration at(Instant now) {
            return since.isAfter(now) ? Duration.ZERO : Duration.between(since, now);
        }
    }

    static IdleLimit of(IdleTime tIdle, Duration growOverhead) {
        Duration value = tIdle.after(growOverhead);
        String text = "t_idle " + Texts.seconds(value);
        if (tIdle instanceof IdleTime.Factor factor) {
            text += " (" + Texts.number(factor.n()) + " × O_grow " + Texts.seconds(growOverhead) + ")";
        }
        return new IdleLimit(value, text);
    }

    boolean reached(Idle idle, Instant now) {
        return idle.at(now).compareTo(value) >= 0;
    }

    /** Those that reached t_idle, longest idle first, ties by id. */
    List<Idle> reachedLongestFirst(List<Idle> candidates, Instant now) {
        return candidates.stream().filter(c -> reached(c, now))
                .sorted(Comparator.comparing(Idle::since).thenComparing(Idle::id, NaturalOrder.IDS))
                .toList();
    }

    /** "idle since 10:02:01, 179 s < t_idle 180 s", for one that has not reached it. */
    String notReached(Idle idle, String word, Instant now) {
        return word + " since " + Texts.clock(idle.since()) + ", " + Texts.seconds(idle.at(now)) + " < " + text;
    }

    /**
     * Why these may go: "idle since 10:02:00, 240 s >= t_idle 180 s" when they have been idle
     * since the same instant, else "w3 idle since 10:02:00, 240 s; w7, w9 idle since 10:02:40,
     * 200 s; each >= t_idle 180 s".
     */
    String describe(List<Idle> released, String word, Instant now) {
        Map<Instant, List<String>> bySince = new LinkedHashMap<>();
        released.forEach(r -> bySince.computeIfAbsent(r.since(), s -> new ArrayList<>()).add(r.id()));
        if (bySince.size() == 1) {
            Instant since = released.get(0).since();
            return since(word, since, now) + " >= " + text;
        }
        return bySince.entrySet().stream()
                .map(e -> Texts.list(e.getValue()) + " " + since(word, e.getKey(), now))
                .collect(Collectors.joining("; ")) + "; each >= " + text;
    }

    private static String since(String word, Instant since, Instant now) {
        return word + " since " + Texts.clock(since) + ", " + Texts.seconds(new Idle("", since).at(now));
    }

    static Optional<Idle> idle(Worker worker) {
        return worker.busy() ? Optional.empty() : Optional.of(new Idle(worker.id(), worker.idleSince()));
    }
}
