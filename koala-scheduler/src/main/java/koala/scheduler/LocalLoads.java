package koala.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import koala.estimate.LocalLoad;

/**
 * What each site's own users (who submit to its resource manager directly) held over the last {@link #WINDOW},
 * in busy cores, a sample every {@link #EVERY} at most, and how long their jobs held cores (the turnover): the load
 * a start estimate holds back from KOALA, the spread it draws within, and how soon it moves to its level. Kept in
 * memory on the scheduler's loop: a restarted scheduler starts afresh.
 *
 * <p>A job's hold is timed from the first look that saw it running to the first that did not, so only the jobs
 * seen to start count (the ones running at the first look started at an unknown time); the turnover is known once
 * {@value #ENDED_FOR_TURNOVER} of them ended within the window.
 */
final class LocalLoads {
    static final Duration WINDOW = Duration.ofHours(3);
    static final Duration EVERY = Duration.ofMinutes(1);
    static final int ENDED_FOR_TURNOVER = 3;
    /** The last ended jobs kept per site: the turnover's mean needs no more. */
    private static final int ENDED_KEPT = 500;

    private record Sample(Instant at, int busy) {
    }

    private record Ended(Instant at, long heldMs) {
    }

    /** One site's watch over its local jobs. */
    private static final class Watch {
        final ArrayDeque<Sample> samples = new ArrayDeque<>();
        final ArrayDeque<Ended> ended = new ArrayDeque<>();
        /** Running local jobs by id, with when they were first seen; null ones were running at the first look. */
        final Map<String, Instant> running = new HashMap<>();
        boolean looked;
    }

    private final Map<String, Watch> watches = new HashMap<>();

    /** Notes that {@code site}'s local users hold {@code busy} cores at {@code now}, in the jobs {@code running}. */
    void look(String site, int busy, Set<String> running, Instant now) {
        Watch w = watches.computeIfAbsent(site, s -> new Watch());
        timeHolds(w, running, now);
        if (w.samples.isEmpty() || !now.isBefore(w.samples.peekLast().at().plus(EVERY))) {
            w.samples.addLast(new Sample(now, busy));
        }
        while (w.samples.peekFirst().at().isBefore(now.minus(WINDOW))) {
            w.samples.removeFirst();
        }
        while (!w.ended.isEmpty() && (w.ended.peekFirst().at().isBefore(now.minus(WINDOW)) || w.ended.size() > ENDED_KEPT)) {
            w.ended.removeFirst();
        }
    }

    private static void timeHolds(Watch w, Set<String> running, Instant now) {
        for (Iterator<Map.Entry<String, Instant>> it = w.running.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Instant> job = it.next();
            if (!running.contains(job.getKey())) {
                if (job.getValue() != null) {
                    w.ended.addLast(new Ended(now, Duration.between(job.getValue(), now).toMillis()));
                }
                it.remove();
            }
        }
        for (String id : running) {
            if (!w.running.containsKey(id)) {
                w.running.put(id, w.looked ? now : null);
            }
        }
        w.looked = true;
    }

    /**
     * {@code site}'s load: {@code busyNow}, the mean and 90th percentile over the samples and now, and the mean hold
     * of the jobs seen to start and end (none while fewer than {@value #ENDED_FOR_TURNOVER} did).
     */
    LocalLoad load(String site, int busyNow) {
        Watch w = watches.getOrDefault(site, new Watch());
        int[] values = new int[w.samples.size() + 1];
        int i = 0;
        for (Sample s : w.samples) {
            values[i++] = s.busy();
        }
        values[i] = busyNow;
        Arrays.sort(values);
        double mean = Arrays.stream(values).average().orElse(0);
        int p90 = values[Math.max(0, (int) Math.ceil(0.9 * values.length) - 1)];
        return new LocalLoad(busyNow, mean, Math.max(mean, p90), turnover(w));
    }

    private static Duration turnover(Watch w) {
        if (w.ended.size() < ENDED_FOR_TURNOVER) {
            return null;
        }
        long mean = Math.round(w.ended.stream().mapToLong(Ended::heldMs).average().orElseThrow());
        return Duration.ofMillis(Math.max(1, mean));
    }
}
