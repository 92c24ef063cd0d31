package koala.fluent;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A suspended SWC runs again: its components lent on {@code from} took their slots back there, or
 * moved to {@code to} (their state carried along); {@code pausedFor} is this suspension's length,
 * by which the application's end moves later.
 *
 * @param to     where the components that were suspended run now: {@code from}'s slots, or other workers'
 * @param reason e.g. "swc-4 resumed on w2 after 300 s suspended" or "swc-4 moved from w2 to w5 (6) after 40 s suspended"
 */
public record Resumed(String appId, String from, List<Assignment> to, boolean moved, Duration pausedFor,
        String reason) {
    public Resumed {
        Objects.requireNonNull(appId, "appId");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(pausedFor, "pausedFor");
        Objects.requireNonNull(reason, "reason");
        to = List.copyOf(to);
        if (to.isEmpty()) {
            throw new IllegalArgumentException(appId + ": a resumed application runs somewhere");
        }
    }
}
