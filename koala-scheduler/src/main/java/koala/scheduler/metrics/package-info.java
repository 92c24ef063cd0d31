/**
 * The scheduler's metrics, for Prometheus ({@code GET /metrics}): what the loop tells as it happens
 * ({@link koala.scheduler.metrics.GridEvents}: claims, grows, shrinks, ended jobs, runner restarts,
 * each round's time), the grid as a round leaves it ({@link koala.scheduler.metrics.GridReading},
 * immutable, handed over at the end of each round), and {@link koala.scheduler.metrics.SchedulerMetrics},
 * which keeps the counts in the Prometheus client's counters and histograms and renders them with
 * the latest reading in OpenMetrics or Prometheus text. As the accounting's
 * {@link koala.scheduler.accounting.UsageCounts} it also counts what ended jobs and instances were
 * charged per owner, and shows each running instance's figures so far ({@code UsageCollector}). A scrape reads only these: it never waits
 * for the loop, and the loop never waits for a scrape. The series and the scrape's authentication:
 * {@code docs/admin-guide.md}, "Monitoring with Prometheus".
 */
package koala.scheduler.metrics;
