package koala.estimate;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Nodes KOALA holds for a job whose pilots have not started yet: they are busy, and the job counts as
 * starting now (its runtime counts from now).
 *
 * @param wallTime the job's wall-time limit; null when it has none
 */
public record Claim(String jobId, String owner, String name, Duration wallTime, List<Hold> holds) {
    public Claim {
        Objects.requireNonNull(jobId, "jobId");
        holds = List.copyOf(holds);
    }
}
