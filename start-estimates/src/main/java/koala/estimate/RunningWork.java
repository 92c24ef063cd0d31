package koala.estimate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A job that runs now and the resources it holds until it ends.
 *
 * @param id       the job's id, as reasons name it
 * @param owner    its user, with {@code name} the key of its history
 * @param name     the job's name (its JDF's, or its executable's)
 * @param started  when it started
 * @param wallTime its wall-time limit, after which it is killed; null when it has none
 */
public record RunningWork(String id, String owner, String name, Instant started, Duration wallTime, List<Hold> holds) {
    public RunningWork {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(started, "started");
        holds = List.copyOf(holds);
    }
}
