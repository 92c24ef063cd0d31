package koala.scheduler.accounting;

import java.util.List;
import koala.api.scheduler.UsageRecord;

/** Where usage records go as jobs end: the accounting file's writer, off the scheduler's loop. */
public interface UsageSink {
    /** A record of a job that has just ended: written once. */
    void append(UsageRecord record);

    /**
     * Records kept from before a restart (or a failed write), each written unless the file has a
     * record of its id already: the file may have it, the acknowledgement lost with the process.
     */
    void replay(List<UsageRecord> records);

    /** Writes nothing: the records stay kept in the store until a sink takes them. */
    UsageSink NOWHERE = new UsageSink() {
        @Override
        public void append(UsageRecord record) {
        }

        @Override
        public void replay(List<UsageRecord> records) {
        }
    };
}
