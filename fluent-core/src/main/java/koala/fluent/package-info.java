/**
 * The decision core of a FLUENT-like component framework, the reference framework KOALA
 * provisions, as pure code: given state and an instant, it returns outcomes as values, each with
 * a reason a user can read. No I/O, no threads, no clock reads — time is always a parameter — so
 * the framework master (real time) and the discrete-event simulator (virtual time) run the very
 * same classes and reach the same decisions.
 *
 * <h2>The framework</h2>
 * A master, the FrameworkManager, keeps the registry of workers, accepts jobs from clients and
 * places their applications; each running application has an Orchestrator on an orchestrator
 * node; on each worker node a DeviceManager runs application components, one worker per node. A
 * {@link koala.fluent.FluentJob} is a batch of {@link koala.fluent.Application}s of two kinds
 * ({@link koala.fluent.AppKind}, after the paper's workload):
 * <ul>
 * <li>RL, the video filter: one component that takes a whole {@link koala.fluent.FluentWorker}; it
 *     starts at once on an idle worker or is rejected, never queued;</li>
 * <li>SWC, streaming word count: reader, 2^n mappers and counter, one slot of a worker each; it
 *     is queued when there is no room and started first come, first served when room appears.</li>
 * </ul>
 *
 * <h2>Decisions</h2>
 * {@link koala.fluent.ApplicationPlacement} places a job, packing partially busy workers before
 * idle ones, into a {@link koala.fluent.PlacementOutcome} of PLACED, QUEUED and REJECTED
 * {@link koala.fluent.AppOutcome}s. {@link koala.fluent.WorkerDemand} computes exactly the workers
 * a job lacks and the workers idle at least t_idle. {@link koala.fluent.FrameworkState} is the
 * master's state machine over events (worker joins or leaves, job submitted, application
 * finished) with its {@link koala.fluent.Metrics}; under OnDemand its
 * {@link koala.fluent.ResizeRequest}s are asked of the runner, under Static and Proactive only
 * reported. Whether a grow is granted is the runner's and the provisioning policy's decision.
 *
 * <h2>In a master or a simulator</h2>
 * <pre>{@code
 * FrameworkState master = new FrameworkState(
 *         new FrameworkSettings(PolicyKind.ONDEMAND, 8, Duration.ofSeconds(180)), now);
 * // a job arrives
 * ResizeRequest up = master.growRequest(job);
 * if (up.ask()) { runner.grow(up.grow()); }   // then wait for the workers, or the refusal
 * log.info(up.reason());
 * // a DeviceManager reports in
 * master.addWorker(nodeId, now).forEach(started -> deploy(started));
 * // the grow settled
 * master.submit(job, now).apps().forEach(outcome -> log.info(outcome.reason()));
 * // an application ends (its endsAt; the simulator schedules a finish event for each started one)
 * master.finish(appId, now).forEach(started -> deploy(started));
 * // every sample period
 * ResizeRequest down = master.releaseRequest(now);
 * if (down.ask()) { runner.shrink(down.release()); }
 * }</pre>
 */
package koala.fluent;