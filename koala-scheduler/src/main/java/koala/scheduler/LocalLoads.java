package koala.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import koala.estimate.LocalLoad;

/**
 * What each site's own users (who submit to its resource manager directly) held over the last {@link #WINDOW},
 * in busy cores, a sample every {@link #EVERY} at most: the load a start estimate holds back from KOALA and
 * the spread it draws within. Kept in memory on the scheduler's loop: a restarted scheduler starts afresh.
 */
final class LocalLoads {
    static final Duration WINDOW = Duration.ofHours(3);
    static final Duration EVERY = Duration.ofMinutes(1);

    private record Sample(Instant at, int busy) {
    }

    private final Map<String, ArrayDeque<Sample>> samples = new HashMap<>();

    /** Notes that {@code site}'s local users hold {@code busy} cores at {@code now}. */
    void sample(String site, int busy, Instant now) {
        ArrayDeque<Sample> kept = samples.computeIfAbsent(site, s -> new ArrayDeque<>());
        if (!kept.isEmpty() && now.isBefore(kept.peekLast().at().plus(EVERY))) {
            return;
        }
        kept.addLast(new Sample(now, busy));
        while (kept.peekFirst().at().isBefore(now.minus(WINDOW))) {
            kept.removeFirst();
        }
    }

    /** {@code site}'s load: {@code busyNow}, and the mean and 90th percentile over the samples and now. */
    LocalLoad load(String site, int busyNow) {
        ArrayDeque<Sample> kept = samples.getOrDefault(site, new ArrayDeque<>());
        int[] values = new int[kept.size() + 1];
        int i = 0;
        for (Sample s : kept) {
            values[i++] = s.busy();
        }
        values[i] = busyNow;
        Arrays.sort(values);
        double mean = Arrays.stream(values).average().orElse(0);
        int p90 = values[Math.max(0, (int) Math.ceil(0.9 * values.length) - 1)];
        return new LocalLoad(busyNow, mean, Math.max(mean, p90));
    }
}
