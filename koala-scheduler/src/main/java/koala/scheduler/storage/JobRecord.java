package koala.scheduler.storage;

import java.time.Instant;
import koala.scheduler.state.JobState;

/**
 * A job as it is stored: enough to rebuild it after a restart (the JDF text is parsed again).
 *
 * @param waitingBecause the latest reason it is not running, as the user reads it
 * @param owner          the user who submitted it (or opened the allocation); null for a job stored before
 *                       jobs had owners, which only an admin may change
 */
public record JobRecord(long id, String name, String source, String jdf, String kind, JobState state, String policy,
                        String priority, int placeTries, int claimFailures, String waitingBecause, Instant submittedAt,
                        String owner) {

    public JobRecord withState(JobState next) {
        return new JobRecord(id, name, source, jdf, kind, next, policy, priority, placeTries, claimFailures,
                waitingBecause, submittedAt, owner);
    }

    public JobRecord waiting(String reason) {
        return new JobRecord(id, name, source, jdf, kind, state, policy, priority, placeTries, claimFailures, reason,
                submittedAt, owner);
    }

    public JobRecord triedOnce(String reason) {
        return new JobRecord(id, name, source, jdf, kind, state, policy, priority, placeTries + 1, claimFailures, reason,
                submittedAt, owner);
    }

    public JobRecord claimFailed() {
        return new JobRecord(id, name, source, jdf, kind, state, policy, priority, placeTries, claimFailures + 1,
                waitingBecause, submittedAt, owner);
    }

    public JobRecord claimsReset() {
        return new JobRecord(id, name, source, jdf, kind, state, policy, priority, placeTries, 0, waitingBecause,
                submittedAt, owner);
    }
}
