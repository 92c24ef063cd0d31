package koala.scheduler;

/**
 * A scheduler's parts, as its daemon wires them and its API calls them: each one concern, each reached on
 * the scheduler's loop thread only.
 *
 * @param scheduler   jobs from users, the placement round, the transitions
 * @param allocations what framework runners hold: opened, grown, shrunk, closed
 * @param frameworks  the FrameworkJobManager's registry of framework instances
 * @param nodes       the nodes' calls: arrive, fetch their task, exit
 * @param owners      who may change what
 * @param accounting  usage records of the jobs and instances that end
 * @param recovery    what a start after a crash reloads and adopts
 */
record SchedulerParts(Scheduler scheduler, Allocations allocations, Frameworks frameworks, NodeDesk nodes,
                      Owners owners, Accounting accounting, Recovery recovery) {
}
