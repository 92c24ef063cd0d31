package koala.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How long each step of a scheduler's start took, from the moment it leads (at once for a scheduler alone on its
 * store; after the lease for a standby taking over) to serving: what an admin reads to see where a take-over's
 * seconds went.
 */
final class StartSteps {
    private record Step(String name, long nanos) {
    }

    private final long started = System.nanoTime();
    private long last = started;
    private final List<Step> steps = new ArrayList<>();

    /** The step that ended now. */
    void done(String name) {
        long now = System.nanoTime();
        steps.add(new Step(name, now - last));
        last = now;
    }

    /** "2.41 s from leading to serving: site agents 0.82 s, ..." */
    String describe() {
        List<String> parts = steps.stream().map(s -> s.name() + " " + seconds(s.nanos())).toList();
        return seconds(last - started) + " from leading to serving: " + String.join(", ", parts);
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
    }
}
