/**
 * The JMH benchmark of the placement path ({@code bin/koala bench placement}):
 * {@link koala.bench.PlacementBenchmark} places the next job of a synthetic queue on a synthetic grid
 * ({@link koala.bench.PlacementWorkload}) with each policy at 10, 100 and 1,000 sites;
 * {@link koala.bench.PlacementBench} runs it ({@link koala.bench.BenchSettings}, one line of progress
 * per case with {@code ProgressFormat}) and {@link koala.bench.PlacementReport} prints
 * the {@link koala.bench.PlacementFigures} against the target.
 */
package koala.bench;
