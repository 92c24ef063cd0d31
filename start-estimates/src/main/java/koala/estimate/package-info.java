/**
 * When will a queued job start: the pure core of KOALA's start estimates.
 *
 * <p>{@link koala.estimate.StartEstimator} takes a {@link koala.estimate.GridSnapshot} (the hosts and what is
 * free on them now, the work running and the nodes it holds, claims in flight, framework instances' likely
 * shrinks, local users' load per site and the placement queue in the order a round tries it) and replays the
 * queue forward in virtual time with each job's own {@link koala.placement.PlacementPolicy}, once with the
 * likely runtimes and a number of times with runtimes drawn from what history says of their spread
 * ({@link koala.estimate.RuntimeGuess}, {@link koala.estimate.RunHistory}). Each queued job gets an
 * {@link koala.estimate.Estimate}: its likely start, an 80% range, the sites placement chose and why it waits,
 * as data. No I/O, no clock reads: {@code now} is part of the snapshot, and the draws are seeded.
 */
package koala.estimate;
