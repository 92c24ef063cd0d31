package koala.runner;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What the runner does when its instance's master dies: start it again — on its own node when the
 * node is still there (its launcher restarts the command), on a new node when it is gone — instead
 * of ending the instance. A master that keeps dying is given up: after {@code max} restarts in a
 * row, each died within {@code stable} of its start, the instance fails with that reason. A master
 * that ran at least {@code stable} has proven itself: the count starts again. Pure: time is a
 * parameter; not thread-safe, the runner calls it under its lock.
 *
 * <p>With max 3 and stable 60 s: dies at 10:00:00 (restart 1 of 3), reports in at 10:00:01, dies at
 * 10:00:30 (restart 2 of 3), reports in at 10:00:31, dies at 10:00:40 (restart 3 of 3), reports in
 * at 10:00:41 and dies at 10:01:00: given up, "the master died 4 times, each within 60 s of its
 * start". Had it died at 10:01:41 instead (60 s after its start), that was restart 1 of 3 again.
 */
final class MasterRestarts {
    /** Restart (the {@code attempt}-th in a row) or give up, with the reason to log. */
    record Decision(boolean restart, int attempt, String reason) {
    }

    private final int max;
    private final Duration stable;
    private int tries;
    private Instant started;

    MasterRestarts(int max, Duration stable) {
        if (max < 0) {
            throw new IllegalArgumentException("restarts " + max + " is negative");
        }
        this.max = max;
        this.stable = Objects.requireNonNull(stable, "stable");
    }

    /** The master reported in at {@code now}: its run counts from here. */
    void reportedIn(Instant now) {
        started = now;
    }

    /** The master died at {@code now} because {@code why}; {@code onNode} says where it would start again. */
    Decision died(Instant now, String why, boolean onNode) {
        if (started != null && !now.isBefore(started.plus(stable))) {
            tries = 0;
        }
        started = null;
        if (tries >= max) {
            return new Decision(false, tries, "its master was lost (" + why + ") and could not be restarted: it died "
                    + (tries + 1) + " times, each within " + stable.toSeconds() + " s of its start");
        }
        tries++;
        return new Decision(true, tries, "master lost (" + why + "); restarting it " + (onNode ? "on its node"
                : "on a new node") + " (restart " + tries + " of " + max + ")");
    }

    /** A restart that never came up (no node for it, or it did not report in) counts as a death at {@code now}. */
    Decision failedToStart(Instant now, String why) {
        return died(now, why, false);
    }
}
