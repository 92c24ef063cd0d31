package koala.api.scheduler;

import java.time.Instant;
import java.util.List;

/**
 * A job as {@code koala status} shows it.
 *
 * @param owner          the user it belongs to: only they or an admin may cancel or change it (null for a job
 *                       from before jobs had owners)
 * @param waitingBecause why it is not running yet, in words (placement reasons, claims pending)
 * @param placeTries     placement attempts so far
 * @param estimate       when it will likely start, while it waits (null once it runs, or before the first estimate)
 */
public record JobView(long id, String name, String owner, String kind, String state, String policy, String priority,
                      int placeTries, int claimFailures, String waitingBecause, Instant submittedAt,
                      List<NodeView> nodes, List<TransitionView> history, StartEstimateView estimate) {
    public JobView {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
        history = history == null ? List.of() : List.copyOf(history);
    }

    /** A job with no start estimate. */
    public JobView(long id, String name, String owner, String kind, String state, String policy, String priority,
                   int placeTries, int claimFailures, String waitingBecause, Instant submittedAt,
                   List<NodeView> nodes, List<TransitionView> history) {
        this(id, name, owner, kind, state, policy, priority, placeTries, claimFailures, waitingBecause, submittedAt,
                nodes, history, null);
    }

    /** This job with {@code next} as its start estimate. */
    public JobView withEstimate(StartEstimateView next) {
        return new JobView(id, name, owner, kind, state, policy, priority, placeTries, claimFailures, waitingBecause,
                submittedAt, nodes, history, next);
    }

    public boolean ended() {
        return state.equals("FINISHED") || state.equals("FAILED") || state.equals("CANCELLED");
    }
}
