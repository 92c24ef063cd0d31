/**
 * The experiments of {@code bin/koala experiment}, on the simulator of {@code koala.sim}: the paper's
 * Table 2 ({@link koala.sim.experiment.Table2}), Figures 5–7 and the trade-off figure
 * ({@link koala.sim.experiment.Sensitivity}), grid sharing ({@link koala.sim.experiment.SharingExperiment}), when
 * co-allocation pays ({@link koala.sim.experiment.CoallocationSim}), placement constraints against
 * constraint-blind placement ({@link koala.sim.experiment.ConstraintsExperiment}), placement by resources against
 * node-granular placement ({@link koala.sim.experiment.ResourcesExperiment}), and the simulator's speed targets
 * ({@link koala.sim.experiment.SpeedBenchmark}). Each setting runs over seeds 1..n on the same
 * workloads for every policy ({@link koala.sim.experiment.Runs}, {@link koala.sim.experiment.Setup}),
 * reported as mean ± spread ({@link koala.sim.experiment.Stat}, {@link koala.sim.experiment.Summary})
 * and, between two policies, seed by seed ({@link koala.sim.experiment.Paired}); results are written
 * as CSV and PNG ({@link koala.sim.experiment.Charts}, with XChart). Unlike {@code koala.sim} (the module
 * {@code simulator}), this package, in the module {@code experiments}, writes
 * files and reads the wall clock (to time the simulator).
 */
package koala.sim.experiment;
