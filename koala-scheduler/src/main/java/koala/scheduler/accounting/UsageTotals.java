package koala.scheduler.accounting;

import koala.api.scheduler.UsageRecord;

/**
 * What the usage records of one owner's jobs (or framework instances) add up to: what the scheduler
 * keeps per owner and kind, and what {@code /metrics} counts from. A figure a record does not know
 * (core-seconds on a site whose cores are not configured) adds nothing.
 *
 * @param records         how many records
 * @param memoryGbSeconds in GB of 1024 MiB
 */
public record UsageTotals(long records, double nodeSeconds, double coreSeconds, double memoryGbSeconds,
                          double gpuSeconds) {
    public static final UsageTotals ZERO = new UsageTotals(0, 0, 0, 0, 0);

    /** Whose and of which kind ({@link UsageRecord#JOB} or {@link UsageRecord#INSTANCE}); an owner not known is "". */
    public record Key(String owner, String kind) {
        public Key {
            owner = owner == null ? "" : owner;
        }
    }

    /** One record's figures. */
    public static UsageTotals of(UsageRecord r) {
        return new UsageTotals(1, r.nodeSeconds(), known(r.coreSeconds()), known(r.memoryGbSeconds()),
                known(r.gpuSeconds()));
    }

    public static Key keyOf(UsageRecord r) {
        return new Key(r.owner(), r.kind());
    }

    public UsageTotals plus(UsageTotals o) {
        return new UsageTotals(records + o.records, UsageFigures.seconds(nodeSeconds + o.nodeSeconds),
                UsageFigures.seconds(coreSeconds + o.coreSeconds), UsageFigures.seconds(memoryGbSeconds + o.memoryGbSeconds),
                UsageFigures.seconds(gpuSeconds + o.gpuSeconds));
    }

    private static double known(Double d) {
        return d == null ? 0 : d;
    }
}
