/**
 * The KOALA scheduler: the grid model, the placement queue, claiming, the job lifecycle,
 * allocations for framework runners and the FrameworkJobManager, all on one loop thread.
 *
 * <p>{@link koala.scheduler.SchedulerDaemon} wires the process ({@link koala.scheduler.SchedulerMain}
 * runs it): the store ({@code koala.scheduler.storage}), one site agent per site
 * ({@code SiteAgents}, kept alive; remote ones through {@code koala.scheduler.remote}), the
 * information service ({@code koala.scheduler.kis}), the loop ({@code SchedulerLoop}) and the API
 * ({@code koala.scheduler.api}). {@code Scheduler} holds the state and the decisions: a submitted job
 * waits in the {@code PlacementQueue}; each round it is placed over the grid as {@code GridViews}
 * builds it (snapshots less KOALA's own books) by a policy of the {@code placement} module; a placed
 * job's nodes are claimed with pilot jobs ({@code Pilots}, {@code Claimer} on the rules of
 * {@code koala.scheduler.claiming}) and the job's life follows the table of
 * {@code koala.scheduler.state}. {@code NodeDesk} answers the node launchers, {@code ComponentLaunch}
 * says what a node runs, {@code PilotWatch} notices lost pilots, {@code Recovery} rebuilds the state
 * after a crash, {@code Allocations} serves framework runners (an allocation's life; its grows,
 * {@code Grows}, placed by the allocation's own policy as {@code JobPolicies} chooses a job's, on the rules
 * of {@code GrowPlacement}, refused with a {@code GrowRefusal}; its request ids, {@code AllocationRequestIds};
 * its input checked, {@code AllocationInput}), {@code Sharing} shares a full grid between
 * their instances (the {@code koala.arbitration} arbiter of the arbitration module, on every worker
 * grow and every round) and {@code Frameworks} wires in the FrameworkJobManager (module
 * {@code framework-job-manager}, {@code koala.fjm}), handing it each instance's allocation as the
 * book has it; {@code RunnerSupervisor}, off the loop,
 * starts a dead framework runner again as its instance's owner ({@code RunnerProcesses}) or fails
 * its instance with the reason. {@code Accounting} makes a usage record of each job and instance
 * that ends, for the accounting file ({@code koala.scheduler.accounting}). {@link koala.scheduler.config.SchedulerSettings}
 * reads the {@code scheduler.*} keys, {@code FileCatalog} the file catalog for Close-to-Files,
 * {@code Reconfiguration} the file again on {@code SIGHUP} (deciding with {@code koala.scheduler.config}),
 * {@code SiteReport} what {@code koala sites} shows. The loop tells {@code koala.scheduler.metrics}
 * what happens and, at the end of each round, how the grid stands ({@code GridReader}), for
 * {@code GET /metrics}. {@code SchedulerParts} are the parts the daemon wires and the API calls
 * ({@code LoopOperations}, each call on the loop). {@link koala.scheduler.InProcessScheduler} is the seam
 * benchmarks and experiments drive a scheduler through, in their own process, with no agents, SGE or HTTP.
 */
package koala.scheduler;
