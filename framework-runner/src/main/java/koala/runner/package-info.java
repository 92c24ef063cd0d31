/**
 * The framework runner: one process per framework instance ({@link koala.runner.RunnerMain}), the
 * paper's Schedd and Deployd around the {@code provisioning} module's decisions.
 *
 * <p>{@link koala.runner.FrameworkRunner} wires the runner's pieces to one loop thread
 * ({@code RunnerLoop}) that owns all their state, as the scheduler's loop owns the scheduler's: the
 * launchers' hellos and heartbeats, the framework's calls and the tick each second are queued onto
 * it, and nothing on it waits on the network. The scheduler is reached through {@code Schedd} (an
 * interface; {@code HttpSchedd} is its HTTP API) only off the loop: {@code SchedulerCalls} makes each
 * call on a lane of its own (grows; everything else), within its time-out, and hands the outcome back
 * to the loop as an event. {@code RunnerApi} never locks the runner: it posts each call to the loop
 * and waits for the answer within a bound; a grow waits for its grant, and only that request waits.
 *
 * <p>The pieces, along the domain: {@code InitialDeployment} runs the initial phase ({@code Schedd}
 * opens the allocation and registers the instance with the FrameworkJobManager; {@code Deployd}
 * deploys the master, then the orchestrator nodes and the initial workers, each a pilot whose node
 * launcher starts the role's command and reports in). {@code Launchers} hears the launchers' hellos,
 * heartbeats and exits. {@code Resizer} carries out what the provisioning policies decide — on the
 * framework's grow, shrink and orchestrator requests and on each sample — over the book of entities
 * ({@code Entities}, {@code Entity}); a decision that may grow is taken once the grows before it are
 * answered. {@code Grows} asks for nodes one grow at a time, kept durably while in flight;
 * {@code Releases} gives nodes back. {@code Reconciler} keeps the book true to the scheduler's
 * allocation (lost nodes, grants of the grid's arbitration, an ended allocation) and finds silent
 * entities; {@code MasterKeeper} restarts a master that dies; {@code GridShare} reports to the
 * grid's arbitration and gives back what it asks; {@code Lifecycle} is the instance's states as a
 * transition table. {@code SiteSettings} re-reads the site's provisioning defaults so an admin's edit
 * reaches a running instance; {@code Events} keeps the decisions with their reasons;
 * {@code Ticks} runs the round of each tick; {@code SchedulerSilence} gives up when the scheduler is gone for good; {@code InstanceSecrets}
 * holds the token and the nodes' keys, checked by the API off the loop. The runner's state is durable
 * ({@code RunnerState} in a {@code RunnerStateFile}, written after each piece of work that changed it): a
 * runner started again with {@code --adopt} takes the instance over on the same address and token,
 * with the grow it had in flight asked again under its request id. The node launcher itself is
 * {@code koala.node}; the RPC's client and messages are {@code koala.api.runner}.
 */
package koala.runner;
