package koala.scheduler.storage;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import koala.scheduler.accounting.UsageTotals;
import koala.scheduler.accounting.WorkerTally;

/**
 * What accounting keeps until its file has it: the usage records of ended jobs, and instances' worker
 * tallies; and, for good, what the records of each owner add up to.
 */
public interface AccountingStore {
    /**
     * The usage record (JSON) of a job that ended, kept here until the accounting file has it: what a
     * restarted scheduler writes again if the file does not. A null record marks a job that is ending,
     * before its end is saved: a scheduler killed before its record was made makes it after the restart.
     */
    void saveUsageRecord(long job, String record);

    /** The accounting file has job {@code job}'s record since {@code at}. */
    void usageRecordWritten(long job, Instant at);

    /**
     * The usage records kept here that the accounting file may not have yet, by job, in job order; a
     * job marked as ending has a null record.
     */
    Map<Long, String> unwrittenUsageRecords();

    /** What an instance's workers did so far, kept now and then so that a restart loses little of it. */
    void saveWorkerTally(long job, WorkerTally tally);

    Optional<WorkerTally> workerTally(long job);

    /**
     * Adds one record's figures to its owner's totals of its kind. Kept for good (the retention forgets
     * the records, not the totals), so that counts per owner go on across a restart.
     */
    void addUsage(UsageTotals.Key owner, UsageTotals added);

    /** Every owner's totals, by owner and kind. */
    Map<UsageTotals.Key, UsageTotals> usageTotals();
}
