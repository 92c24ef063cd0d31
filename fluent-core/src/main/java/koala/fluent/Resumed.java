package koala.fluent;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A suspended SWC runs again: the components suspended on each worker took their slots back there,
 * or moved to other workers (their state carried along); {@code pausedFor} is this suspension's
 * length, by which the application's end moves later. A worker taken back that yields its batch
 * work is told the same way, with nothing paused.
 *
 * @param to     where its components run now
 * @param moved  the workers some of them left, to run elsewhere; empty when all resumed in place
 * @param reason e.g. "swc-4 resumed after 300 s suspended: w2 (6)" or
 *               "swc-4 resumed after 40 s suspended: w3 (2), w5 (6) moved from w2"
 */
public record Resumed(String appId, List<Assignment> to, List<String> moved, Duration pausedFor, String reason) {
    public Resumed {
        Objects.requireNonNull(appId, "appId");
        moved = List.copyOf(moved);
        Objects.requireNonNull(pausedFor, "pausedFor");
        Objects.requireNonNull(reason, "reason");
        to = List.copyOf(to);
        if (to.isEmpty()) {
            throw new IllegalArgumentException(appId + ": a resumed application runs somewhere");
        }
    }
}
