package koala.scheduler.accounting;

import java.util.Map;

/**
 * Who keeps count of what accounting charges (the metrics): called on the scheduler's loop, and
 * must not block it.
 */
public interface UsageCounts {
    /**
     * {@code owner}'s records of {@code kind} added {@code added}: at a start, what the store kept from
     * before; then each record once the store has it.
     */
    void charged(UsageTotals.Key owner, UsageTotals added);

    /**
     * What each running framework instance has been granted so far, by its id (each round: the
     * record its instance will get, so far); {@link UsageTotals#records()} is 0.
     */
    void running(Map<Long, UsageTotals> instances);

    /** Keeps no count. */
    UsageCounts NONE = new UsageCounts() {
        @Override
        public void charged(UsageTotals.Key owner, UsageTotals added) {
        }

        @Override
        public void running(Map<Long, UsageTotals> instances) {
        }
    };
}
