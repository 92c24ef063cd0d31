/**
 * {@code bin/koala bench} and {@code bin/koala experiment} ({@link koala.experiments.Experiments}),
 * apart from the command line users and daemons run (koala-cli), whose pieces they use: the
 * testbed ({@code koala.cli.TestbedCommand}), whom they act for ({@code koala.cli.TestbedUser}), a
 * framework runner's launch ({@code koala.cli.RunnerLaunch}).
 * <ul>
 * <li>Benchmarks: {@code BenchCommand} (sge-latency) with {@code PlacementBenchCommand} and
 *     {@code MetricsBenchCommand} (JMH, {@code koala.bench}), {@code LoadBenchCommand}
 *     ({@code LoadBench}, driving the scheduler through {@code koala.scheduler.InProcessScheduler}),
 *     {@code GrowBenchCommand}, {@code RunnerFailoverBenchCommand},
 *     {@code CliBenchCommand}, {@code MpiBenchCommand} and {@code DaskBenchCommand} on the testbed.</li>
 * <li>Experiments: {@code ExperimentCommand} (the simulator's experiments, {@code koala.sim.experiment}),
 *     the policies on the testbed beside the simulator's prediction ({@code TestbedExperiment},
 *     {@code TestbedSetup}, {@code TestbedRun}, {@code TestbedLogs}, {@code TestbedFigures},
 *     {@code TestbedReport}), grid sharing ({@code TestbedSharing}), co-allocation over clusters
 *     ({@code TestbedCoallocation}) and Dask ({@code DaskExperiment} with {@code DaskOnTestbed}).</li>
 * </ul>
 */
package koala.experiments;
