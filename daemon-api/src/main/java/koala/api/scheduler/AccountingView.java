package koala.api.scheduler;

import java.util.List;

/**
 * The answer to {@code GET /accounting}: the records asked for, oldest first, and how many older
 * ones that matched were left out to keep the answer within its limit.
 */
public record AccountingView(List<UsageRecord> records, long leftOut) {
    public AccountingView {
        records = records == null ? List.of() : List.copyOf(records);
    }
}
