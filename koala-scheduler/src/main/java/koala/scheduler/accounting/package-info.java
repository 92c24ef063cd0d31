/**
 * Accounting: what each job and framework instance used, written once when it ends. The figures
 * come from the spans of its nodes ({@link koala.scheduler.claiming.NodeSpan}: each pilot's hold of
 * its node, with the CPU time its launcher reported) through {@link koala.scheduler.accounting.UsageFigures},
 * and, for an instance, from its runner's worker reports through
 * {@link koala.scheduler.accounting.WorkerMeter}; both are pure. Each node is charged cores, memory
 * and GPUs for its granted seconds ({@link koala.scheduler.accounting.NodeCharge},
 * {@link koala.scheduler.accounting.ResourceSeconds}: Slurm's TRES-seconds), and each owner's records
 * add up to {@link koala.scheduler.accounting.UsageTotals}, kept in the store and told to the
 * {@link koala.scheduler.accounting.UsageCounts} (the metrics). The scheduler's {@code Accounting}
 * makes the {@link koala.api.scheduler.UsageRecord} on its loop and hands it to a
 * {@link koala.scheduler.accounting.UsageSink}: the {@link koala.scheduler.accounting.AccountingWriter},
 * which appends it to the {@link koala.scheduler.accounting.AccountingFile} on a thread of its own,
 * forces it to disk and acknowledges it. {@link koala.scheduler.accounting.AccountingQuery} is what
 * {@code GET /accounting} (and {@code koala acct}) asks of the file.
 */
package koala.scheduler.accounting;
