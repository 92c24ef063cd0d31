/**
 * KOALA's Incremental Claiming Policy as pure rules. SGE has no advance reservation, so KOALA
 * claims a node by getting a pilot job started on it; {@link koala.scheduler.claiming.ClaimRules}
 * looks at a job's {@link koala.scheduler.claiming.NodeClaim}s (each in a
 * {@link koala.scheduler.claiming.NodeState}) and the time, and returns a
 * {@link koala.scheduler.claiming.ClaimVerdict}: start the job, keep waiting, place a late component
 * again, or send the job back to the queue. No I/O and no clock reads: the scheduler's
 * {@code Claimer} carries the verdicts out.
 */
package koala.scheduler.claiming;
