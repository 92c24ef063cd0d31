/**
 * The FrameworkJobManager (FJM): the registry of every framework instance on the grid, run inside
 * the scheduler. {@link koala.scheduler.fjm.FrameworkRegistry} registers an instance on the allocation its
 * runner holds (name, JDF, provisioning policy — one of {@code PolicyKind}'s names — and effective
 * settings, runner) and records where its master is, refusing what is wrong with
 * a {@link koala.common.failure.Failure} (InvalidField, Conflict, NotFound). Its
 * {@link koala.scheduler.fjm.FrameworkRecord}s survive a restart through a
 * {@link koala.scheduler.fjm.FrameworkStore}, the scheduler's database. Nodes, sites, state and history are the
 * allocation's and are not copied here.
 */
package koala.scheduler.fjm;
