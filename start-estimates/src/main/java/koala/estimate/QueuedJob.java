package koala.estimate;

import java.time.Duration;
import java.util.Objects;
import koala.placement.JobNeed;
import koala.placement.PlacementPolicy;

/**
 * A job waiting in the placement queue.
 *
 * @param wallTime its wall-time limit; null when it has none
 * @param policy   the placement policy it names (or the grid's default)
 */
public record QueuedJob(String id, String owner, String name, JobNeed need, PlacementPolicy policy, Duration wallTime) {
    public QueuedJob {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(need, "need");
        Objects.requireNonNull(policy, "policy");
    }
}
