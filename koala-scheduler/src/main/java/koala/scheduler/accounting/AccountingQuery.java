package koala.scheduler.accounting;

import java.time.Instant;
import koala.api.scheduler.UsageRecord;

/**
 * Which usage records a reader asked for; a null filter takes any.
 *
 * @param owner    whose records
 * @param since    those that ended at or after it
 * @param instance that framework instance's
 * @param limit    at most this many, the newest that match
 */
public record AccountingQuery(String owner, Instant since, Long instance, int limit) {
    public static final int DEFAULT_LIMIT = 10_000;
    /** An answer of this many records (some 2 KB each at most) stays well within a client's 64 MB. */
    public static final int MAX_LIMIT = 20_000;

    public boolean matches(UsageRecord r) {
        return (owner == null || owner.equals(r.owner()))
                && (since == null || (r.endedAt() != null && !r.endedAt().isBefore(since)))
                && (instance == null || (instance == r.id() && UsageRecord.INSTANCE.equals(r.kind())));
    }
}
