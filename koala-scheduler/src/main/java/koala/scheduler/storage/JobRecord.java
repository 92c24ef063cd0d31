package koala.scheduler.storage;

import java.time.Instant;
import koala.scheduler.state.JobState;

/**
 * A job as it is stored: enough to rebuild it after a restart (the JDF text is parsed again).
 *
 * @param waitingBecause the latest reason it is not running, as the user reads it
 */
public record JobRecord(long id, String name, String source, String jdf, String kind, JobState state, String policy,
                        String priority, int placeTries, int claimFailures, String waitingBecause, Instant submittedAt) {

    public JobRecord withState(JobState next) {
        return new JobRecord(id, name, source, jdf, kind, next, policy, priority, placeTries, claimFailures,
                waitingBecause, submittedAt);
    }

    public JobRecord waiting(String reason) {
        return new JobRecord(id, name, source, jdf, kind, state, policy, priority, placeTries, claimFailures, reason,
                submittedAt);
    }

    public JobRecord triedOnce(String reason) {
        return new JobRecord(id, name, source, jdf, kind, state, policy, priority, placeTries + 1, claimFailures, reason,
                submittedAt);
    }

    public JobRecord claimFailed() {
        return new JobRecord(id, name, source, jdf, kind, state, policy, priority, placeTries, claimFailures + 1,
                waitingBecause, submittedAt);
    }

    public JobRecord claimsReset() {
        return new JobRecord(id, name, source, jdf, kind, state, policy, priority, placeTries, 0, waitingBecause,
                submittedAt);
    }
}
