/**
 * A discrete-event simulator that runs the project's own decision code in virtual time: the
 * provisioning policies ({@code koala.provisioning.WorkerPolicy#of}), the reference framework's
 * master ({@code koala.fluent.FrameworkState}) and the scheduler's grow placement
 * ({@code koala.placement.FlexibleClusterMinimization}). It owns only what the daemons get from the
 * world: events and the clock ({@link koala.sim.EventQueue}), SGE sites with local users' load and
 * a grant delay ({@link koala.sim.SimGrid}, {@link koala.sim.GrowDelay}), workloads
 * ({@link koala.sim.Generators}, {@link koala.sim.WorkloadFile}), the runner's book of workers
 * ({@link koala.sim.RunnerBook}, on the runner's own {@code WorkerReport}) and the metrics
 * ({@link koala.sim.RunMetrics}, with {@link koala.sim.Clairvoyant} as the bound). Instances may
 * share a grid through the scheduler's arbitration code ({@code koala.arbitration.Arbiter}, carried
 * out by {@link koala.sim.GridArbiter}; {@link koala.sim.Simulation#arbitrated}).
 *
 * <pre>{@code
 * Workload w = Generators.rl(Generators.RlParameters.PAPER, Duration.ofHours(24), seed);
 * RunMetrics m = Simulation.one(w, ProvisioningSettings.defaults(PolicyKind.ONDEMAND, 0), GrowDelay.PAPER, seed);
 * }</pre>
 * Rigid parallel jobs on a multicluster grid, held to one cluster or co-allocated by the scheduler's
 * placement policies, run from one placement queue in {@link koala.sim.MulticlusterQueue}, on
 * workloads of {@link koala.sim.ParallelWorkload}. Jobs that ask for cores, memory and GPUs on unequal
 * hosts ({@link koala.sim.ResourceJob}, mixed by {@link koala.sim.ResourceMix}) run in
 * {@link koala.sim.ResourceQueue}, placed by resources or node-granular (a node one slot or one whole host).
 * The experiments of {@code bin/koala experiment} are in {@code koala.sim.experiment}, in the module
 * {@code experiments}.
 */
package koala.sim;
