/**
 * Arbitration between framework instances on a full grid, as pure decision code: whom to take
 * nodes from when the grid cannot grant a grow. Like {@code koala.provisioning}, it has no I/O, no
 * threads and no clock reads: the scheduler (real time) and the simulator (virtual time) give it a
 * snapshot, its memory and the time, and get decisions back as values, each with a
 * {@link koala.arbitration.ShareReason} (a kind and a text).
 *
 * <h2>Policies</h2>
 * Chosen by name ({@link koala.arbitration.ShareRule}, {@code scheduler.arbitration.policy}):
 * <pre>
 *   fcfs              grow from the free nodes only; nobody gives back (the grid as it was, a baseline)
 *   static-partition  each instance a fixed part of the capacity ∝ weight, never more (a baseline)
 *   fair              weighted max-min fair shares of nodes by water-filling on demands (DRF: a worker
 *                     larger than a node counts its size in the grid's nodes, {@link koala.arbitration.Tenant#size()})
 *   performance       KOALA-F: nodes move from the instance doing best to the one doing worst by the
 *                     figures they report (a slowdown, 1 = as if alone), not by node counts
 * </pre>
 * Each instance's claim is two provisioning settings, per site and JDF (the site's values cap the
 * JDF's): {@code weight} and {@code minShare}. The capacity shared out is the grid's free nodes plus
 * the worker nodes the instances hold: local SGE users' load lowers it and is never taken back.
 *
 * <h2>Taking back</h2>
 * Gentle and bounded, whatever the policy ({@link koala.arbitration.Arbiter}): an instance above its
 * share gives its idle workers first; then it is asked to give back workers of its choosing
 * within a grace period (15 s), after which KOALA ends the ones still owed; at most a fraction of
 * the capacity (10%, at least one node) is taken back per round period (15 s); never below an
 * instance's minimum share; and a node taken back and granted is not taken again within the
 * stabilization window (300 s). Only a grow the free nodes cannot meet sets it off: nobody gives
 * back nodes nobody asked for, and what a bound stops is refused (the framework asks again when it
 * needs to). {@link koala.arbitration.ArbitrationSettings} holds these for the grid. With
 * {@code queuedDemand} an instance's queued work ({@link koala.arbitration.Tenant#queued()}) counts
 * as demand and is served between its asks, as YARN's pending requests (fcfs ignores it).
 *
 * <h2>Runners that keep a floor</h2>
 * A Static or Proactive runner keeps its initial workers. Under arbitration it should ask for a
 * worker KOALA took back only when it needs one — one at a time, when none of its workers is idle
 * and none is starting — not at once: an idle reserve taken for others and asked for again at the
 * next tick goes back and forth (the simulator's {@code Simulation.FloorKeeping}; see
 * {@code docs/sharing.md}). Workers lost otherwise (a failure, a qdel) are replaced at once.
 *
 * <h2>In the scheduler</h2>
 * <pre>{@code
 * Arbiter arbiter = new Arbiter(ArbitrationSettings.parse(config.section("scheduler.arbitration")));
 * TakeBackBook book = TakeBackBook.EMPTY;          // the arbiter's memory: keep it between calls
 *
 * // on a grow request of instance i for n nodes, every round period, and after ending workers it decided:
 * List<Tenant> tenants = instances.stream().map(x -> Tenant.of(x.id(), x.settings(), x.workerLayer())
 *         .reporting(x.figure()).queuing(x.queuedNodes())).toList();  // i's tenant .asking(n) for a grow request
 * Arbitration a = arbiter.decide(new GridShare(kis.freeNodes(), tenants), book, clock.instant());
 * book = a.book();
 * for (ShareDecision d : a.decisions()) {          // in order: ends, shrink requests, grants, promises, refusals
 *     switch on d: ReleaseIdle / EndWorkers → kill those pilots; AskShrink → runner.askShrink(nodes, deadline);
 *                  Grant → place and claim nodes as a grow; Promised / Refuse → the grow's answer, with d.reason()
 * }
 * }</pre>
 */
package koala.arbitration;
