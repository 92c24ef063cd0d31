/**
 * The JMH benchmark of the placement path ({@code bin/koala bench placement}):
 * {@link koala.bench.PlacementBenchmark} places the next job of a synthetic queue on a synthetic grid
 * ({@link koala.bench.PlacementWorkload}) with each policy at 10, 100 and 1,000 sites;
 * {@link koala.bench.PlacementBench} runs it ({@link koala.bench.BenchSettings}, one line of progress
 * per case with {@code ProgressFormat}) and {@link koala.bench.PlacementReport} prints
 * the {@link koala.bench.PlacementFigures} against the target.
 *
 * <p>The JMH benchmark of the scheduler's {@code GET /metrics} ({@code bin/koala bench metrics}):
 * {@link koala.bench.ScrapeBenchmark} renders one scrape of a grid the scheduler's own code holds
 * ({@link koala.bench.MetricsBenchGrid}, through {@code koala.scheduler.InProcessScheduler}: 1,000 jobs,
 * 100 framework instances) and times the
 * reading the scheduler's loop makes each round; {@link koala.bench.ScrapeBench} runs it and prints
 * the time per scrape against the 50 ms target.
 */
package koala.bench;
