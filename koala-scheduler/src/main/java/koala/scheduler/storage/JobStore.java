package koala.scheduler.storage;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Jobs (allocations among them) as {@link JobRecord}s, and their ids. */
public interface JobStore {
    long nextJobId();

    /**
     * Saves a job as it is {@code at}; a job saved ended for the first time ended then. What a job is
     * (its name, JDF, kind, policy, priority, owner, submission) is kept as it was first saved; later
     * saves change what changes in its life: its state, tries, claim failures and reason.
     */
    void saveJob(JobRecord job, Instant at);

    /** Every job, oldest first. */
    List<JobRecord> jobs();

    /** One job, live or ended, as stored; empty if it never was or has been forgotten. */
    Optional<JobRecord> job(long id);

    /** Jobs that have not ended, and those that ended after {@code endedAfter}, oldest first. */
    List<JobRecord> jobsSince(Instant endedAfter);
}
