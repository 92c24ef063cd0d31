/**
 * The FrameworkJobManager (FJM) of the paper: the registry of every framework instance deployed
 * through KOALA, run inside the scheduler's process but holding none of its state.
 *
 * <p>{@link koala.fjm.FrameworkRegistry} registers an instance on the allocation its runner holds
 * (name, JDF, provisioning policy — one of {@code PolicyKind}'s names — and effective settings,
 * runner, the runner's state file) and records where its master is, refusing what is wrong with a
 * {@link koala.common.failure.Failure} (InvalidField, Conflict, NotFound). Its
 * {@link koala.fjm.FrameworkRecord}s survive a restart through a {@link koala.fjm.FrameworkStore},
 * which the scheduler's database implements. Nodes, sites, state and history are the allocation's and
 * are not copied here: the scheduler hands them in as a {@link koala.fjm.HeldAllocation} when it asks,
 * and {@link koala.fjm.FrameworkViews} puts the two together into the {@code FrameworkView} that
 * {@code koala frameworks} and the live page read, with the instance's provisioning settings resolved
 * as its runner resolves them.
 *
 * <p>Pure: no network, database, files, threads or clock reads (time comes from the
 * {@code InstantSource} it is given); {@code FjmPurityTest} holds it to that.
 */
package koala.fjm;
