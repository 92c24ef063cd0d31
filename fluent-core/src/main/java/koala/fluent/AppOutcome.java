package koala.fluent;

import java.util.List;
import java.util.Objects;

/**
 * What became of one application: placed on these workers, queued, or rejected, with a reason a
 * user can read, e.g. "rl-3 rejected: needs 1 idle worker, 0 free".
 *
 * @param assignments where it runs when placed; empty otherwise
 * @param suspended   an RL placed on a busy worker: the SWCs suspended there for it; empty otherwise
 */
public record AppOutcome(Application app, Verdict verdict, List<Assignment> assignments, String reason,
        List<Suspended> suspended) {

    public enum Verdict {
        /** Started at once. */
        PLACED,
        /** An SWC without room: it waits in the master's queue. */
        QUEUED,
        /** An RL without an idle worker: it is dropped. */
        REJECTED
    }

    public AppOutcome(Application app, Verdict verdict, List<Assignment> assignments, String reason) {
        this(app, verdict, assignments, reason, List.of());
    }

    public AppOutcome {
        suspended = suspended == null ? List.of() : List.copyOf(suspended);
        if (!suspended.isEmpty() && (verdict != Verdict.PLACED || !app.isRl())) {
            throw new IllegalArgumentException(app.id() + ": only a placed RL suspends anything");
        }
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(reason, "reason");
        assignments = List.copyOf(assignments);
        if ((verdict == Verdict.PLACED) == assignments.isEmpty()) {
            throw new IllegalArgumentException(app.id() + ": a placed application has assignments, no other does");
        }
    }

    static AppOutcome placed(Application app, List<Assignment> assignments, String reason) {
        return new AppOutcome(app, Verdict.PLACED, assignments, reason);
    }

    static AppOutcome queued(Application app, String reason) {
        return new AppOutcome(app, Verdict.QUEUED, List.of(), reason);
    }

    static AppOutcome rejected(Application app, String reason) {
        return new AppOutcome(app, Verdict.REJECTED, List.of(), reason);
    }
}
