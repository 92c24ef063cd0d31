/**
 * The framework runner: one process per framework instance ({@link koala.runner.RunnerMain}), the
 * paper's Schedd and Deployd around the {@code provisioning} module's decisions.
 *
 * <p>{@link koala.runner.FrameworkRunner} runs the initial phase: {@code Schedd} opens the instance's
 * allocation at the scheduler and registers it with the FrameworkJobManager; {@code Deployd} deploys
 * the master, then the orchestrator nodes and the initial workers, each a pilot whose node launcher
 * starts the role's command and reports in. Then {@code Resizer} carries out what the provisioning
 * policies decide — on the framework's grow, shrink and orchestrator requests and on each sample —
 * over the book of entities ({@code Entities}, {@code Entity}); lost entities are given back and,
 * where the policy keeps its initial workers, replaced. {@code RunnerApi} serves the grow/shrink RPC
 * (each call with the instance's token) and the launchers' hellos and heartbeats;
 * {@code SiteSettings} re-reads the site's provisioning defaults so an admin's edit reaches a running
 * instance; {@code Events} keeps the decisions with their reasons; {@code SchedulerSilence} gives up
 * when the scheduler is gone for good. The runner's state is durable ({@code RunnerState} in a
 * {@code StateFile}, written on every change that matters): a runner started again with
 * {@code --adopt} takes the instance over on the same address and token, with the grow it had in
 * flight asked again under its request id. The node launcher itself is {@code koala.node}; the RPC's
 * client and messages are {@code koala.common.runner}.
 */
package koala.runner;
