package koala.experiments;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import koala.cli.Koala;
import koala.placement.PlacementPolicies;
import koala.sim.CpuProfile;
import koala.sim.Generators;
import koala.sim.GrowDelay;
import koala.sim.JobSplit;
import koala.sim.MulticlusterQueue;
import koala.sim.ParallelWorkload;
import koala.sim.ResourceMix;
import koala.sim.ResourceQueue;
import koala.sim.Simulation;
import koala.sim.ConstraintStream;
import koala.sim.experiment.CoallocationSim;
import koala.sim.experiment.ConstraintsExperiment;
import koala.sim.experiment.ResourcesExperiment;
import koala.sim.experiment.Runs;
import koala.sim.experiment.Sensitivity;
import koala.sim.experiment.SharingExperiment;
import koala.sim.experiment.SpeedBenchmark;
import koala.sim.experiment.StartTimeExperiment;
import koala.sim.experiment.Setup;
import koala.sim.experiment.SuspensionExperiment;
import koala.sim.experiment.Table2;
import koala.testbed.TestbedPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code koala experiment}: the paper's experiments in the simulator, which runs the project's own
 * provisioning and framework code in virtual time. Results go to {@code --out} (default
 * {@code results/} in the current directory) as CSV and PNG; tables are printed. {@code testbed}
 * runs the policies on the real SGE testbed beside the simulator's prediction ({@link TestbedExperiment}).
 */
@Command(name = "experiment", mixinStandardHelpOptions = true,
        description = {"The paper's experiments in the simulator (virtual time, the daemons' own policy code). "
                + "Results: CSV and PNG in --out, tables printed."},
        subcommands = {ExperimentCommand.Table2Command.class, ExperimentCommand.SensitivityCommand.class,
                ExperimentCommand.SpeedCommand.class, ExperimentCommand.SharingCommand.class,
                ExperimentCommand.CoallocationSimCommand.class, ExperimentCommand.ConstraintsCommand.class,
                ExperimentCommand.ResourcesCommand.class,
                ExperimentCommand.SuspensionCommand.class, ExperimentCommand.StartTimeCommand.class,
                TestbedExperiment.class,
                TestbedSharing.class, TestbedCoallocation.class, DaskExperiment.class, TestbedSuspension.class})
final class ExperimentCommand {

    /** Options every simulated experiment shares. */
    static final class Common {
        @Option(names = "--out", defaultValue = "results", description = "results folder (default: ${DEFAULT-VALUE}, "
                + "under the current directory)")
        Path out;

        @Option(names = "--seeds", defaultValue = "10", description = "runs per setting, seeds 1..N; mean and spread "
                + "are reported (default: ${DEFAULT-VALUE})")
        int seeds;

        @Option(names = "--hours", defaultValue = "24", description = "simulated hours per run (default: ${DEFAULT-VALUE})")
        int hours;

        @Option(names = "--cpu", defaultValue = "uniform:50:100", description = "RL CPU load each 30 s: uniform:MIN:MAX "
                + "or constant:V, percent (default: ${DEFAULT-VALUE}; the paper does not say)")
        String cpu;

        @Option(names = "--o-grow", defaultValue = "30", description = "O_grow, seconds from grant to worker reporting in "
                + "(default: ${DEFAULT-VALUE}, the paper's)")
        int oGrow;

        Runs runs(PrintStream progress) {
            if (seeds < 1 || hours < 1 || oGrow < 0) {
                throw new IllegalArgumentException("--seeds and --hours must be at least 1, --o-grow at least 0");
            }
            return new Runs(Generators.RlParameters.PAPER.withCpu(CpuProfile.parse(cpu)), Duration.ofHours(hours), seeds,
                    GrowDelay.fixed(Duration.ofSeconds(oGrow)), progress);
        }
    }

    @Command(name = "table2", mixinStandardHelpOptions = true,
            description = {"The paper's Table 2 (Static 13%%/46%%, OnDemand 13%%/73%%, Proactive 21%%/65%% rejected/"
                    + "utilization on W_rl) beside ours, with the reserve policy, the clairvoyant bound and the "
                    + "sensitivity to what the paper leaves unstated. Writes table2*.csv. About a minute."})
    static final class Table2Command implements Callable<Integer> {
        @Mixin
        Common common = new Common();

        @Override
        public Integer call() {
            new Table2(common.runs(System.out), common.out, System.out).run();
            System.out.println("\nresults in " + common.out.toAbsolutePath());
            return 0;
        }
    }

    @Command(name = "sensitivity", mixinStandardHelpOptions = true,
            description = {"The paper's Figures 5 (OnDemand: grow overhead and idle time vs t_idle = n · O_grow), "
                    + "6 (Proactive: reject rate and idle time vs U_min-U_max) and 7 (allocated vs used over time), "
                    + "and the reject-vs-utilization trade-off of OnDemand and the reserve policy. PNG and CSV. "
                    + "A few minutes."})
    static final class SensitivityCommand implements Callable<Integer> {
        @Mixin
        Common common = new Common();

        @Override
        public Integer call() {
            new Sensitivity(common.runs(System.out), common.out, System.out).run();
            System.out.println("\nresults in " + common.out.toAbsolutePath());
            return 0;
        }
    }

    @Command(name = "sharing", mixinStandardHelpOptions = true,
            description = {"Four framework instances on a grid smaller than their summed peak (two OnDemand W_rl "
                    + "instances with bursts out of phase, one of word counts that queue, one Static), under each "
                    + "arbitration policy (fcfs, static-partition, fair, performance): each instance's figure "
                    + "normalised by its figure alone, the worst/best ratio, utilization, nodes taken back, waits. "
                    + "Writes sharing*.csv and sharing*.png; the last line is the best policy. About 1.5 minutes on "
                    + "2 busy cores, about a minute of CPU (16 simulated days per seed)."})
    static final class SharingCommand implements Callable<Integer> {
        @Mixin
        Common common = new Common();

        @Option(names = "--nodes", defaultValue = "48", description = "nodes of the grid (default: ${DEFAULT-VALUE}; "
                + "the instances' peaks add up to 92)")
        int nodes;

        @Option(names = "--window", defaultValue = "300", description = "stabilization window, seconds (default: "
                + "${DEFAULT-VALUE})")
        int window;

        @Option(names = "--grace", defaultValue = "15", description = "grace period of a shrink request, seconds "
                + "(default: ${DEFAULT-VALUE})")
        int grace;

        @Option(names = "--max-take-back", defaultValue = "10", description = "percent of the capacity taken back per "
                + "round at most (default: ${DEFAULT-VALUE})")
        double maxTakeBack;

        @Option(names = "--max-per-hour", defaultValue = "0", description = "nodes taken back from one instance per "
                + "hour at most; 0 for no such bound (default: ${DEFAULT-VALUE})")
        int maxPerHour;

        @Option(names = "--patience", defaultValue = "0", description = "seconds an instance must have been refused "
                + "below its share before nodes are taken back for it (default: ${DEFAULT-VALUE})")
        int patience;

        @Option(names = "--floor-keeping", defaultValue = "when-needed", description = "how the Static instance's "
                + "runner asks for workers KOALA took back: when-needed (one at a time, when none of its workers is "
                + "idle) or at-once (all of them at every sample, as before) (default: ${DEFAULT-VALUE})")
        String floorKeeping;

        @Override
        public Integer call() {
            if (nodes < 1 || window < 0 || grace < 0 || maxPerHour < 0 || patience < 0 || !(maxTakeBack > 0 && maxTakeBack <= 100)) {
                throw new IllegalArgumentException("--nodes must be at least 1, --window and --grace at least 0, "
                        + "--max-take-back above 0 and at most 100");
            }
            Simulation.FloorKeeping floors = switch (floorKeeping.strip().toLowerCase(java.util.Locale.ROOT)) {
                case "when-needed" -> Simulation.FloorKeeping.WHEN_NEEDED;
                case "at-once" -> Simulation.FloorKeeping.AT_ONCE;
                default -> throw new IllegalArgumentException("--floor-keeping is when-needed or at-once, not '"
                        + floorKeeping + "'");
            };
            Runs runs = common.runs(System.out);
            SharingExperiment.Scenario scenario = SharingExperiment.Scenario.standard(nodes, runs.workload()).withFloorKeeping(floors);
            scenario = scenario.withArbitration(scenario.arbitration().withWindow(Duration.ofSeconds(window))
                    .withGrace(Duration.ofSeconds(grace)).withRoundFraction(maxTakeBack / 100).withMaxPerHour(maxPerHour)
                    .withPatience(Duration.ofSeconds(patience)));
            new SharingExperiment(scenario, runs, common.out, System.out).run();
            return 0;
        }
    }

    @Command(name = "coallocation-sim", mixinStandardHelpOptions = true,
            description = {"When does co-allocation pay? (Sonmez, Mohamed, Epema, IEEE TPDS 2010.) Rigid parallel jobs "
                    + "on the testbed's clusters, placed by the scheduler's placement code from one queue: mean wait and "
                    + "response time with every job held to one cluster and with co-allocation allowed, a co-allocated "
                    + "job running f times longer, at each load and slowdown f; and the break-even f per load. Writes "
                    + "coallocation*.csv and coallocation*.png. About 15 s."})
    static final class CoallocationSimCommand implements Callable<Integer> {
        @Option(names = "--out", defaultValue = "results", description = "results folder (default: ${DEFAULT-VALUE}, "
                + "under the current directory)")
        Path out;

        @Option(names = "--loads", split = ",", defaultValue = "0.3,0.4,0.5,0.6,0.7,0.8,0.9", description = "offered "
                + "loads, fractions of the grid's nodes; each sets the arrival rate (default: ${DEFAULT-VALUE})")
        List<Double> loads;

        @Option(names = "--slowdowns", split = ",", defaultValue = "1.0,1.1,1.25,1.5,2.0", description = "wide-area "
                + "slowdowns f: a job on more than one cluster runs f times its runtime (default: ${DEFAULT-VALUE})")
        List<Double> slowdowns;

        @Option(names = "--seed", defaultValue = "1", description = "the workload's seed (default: ${DEFAULT-VALUE})")
        long seed;

        @Option(names = "--jobs", defaultValue = "10000", description = "jobs per run (default: ${DEFAULT-VALUE})")
        int jobs;

        @Option(names = "--clusters", split = ",", description = "nodes of each cluster, fs0, fs1, ... (default: the "
                + "testbed's cells, as 'koala testbed up' makes them: ${DEFAULT-VALUE})")
        List<Integer> clusters = testbedNodes();

        @Option(names = "--sizes", defaultValue = "1,2,4,8,16", description = "job sizes in nodes, equally likely, or "
                + "SIZE:WEIGHT (default: ${DEFAULT-VALUE})")
        String sizes;

        @Option(names = "--runtimes", defaultValue = "exponential:900", description = "exponential:MEAN or "
                + "lognormal:MEAN:SIGMA, seconds (default: ${DEFAULT-VALUE})")
        String runtimes;

        @Option(names = "--policy", defaultValue = "flexible-cluster-minimization", description = "how a job may be "
                + "co-allocated: flexible-cluster-minimization (the job is flexible: split over the fewest clusters, "
                + "emptiest first), or POLICY:C, components of C nodes placed by POLICY, e.g. worst-fit:4 or "
                + "cluster-minimization:4 (default: ${DEFAULT-VALUE})")
        String policy;

        @Option(names = "--queue", defaultValue = "fcfs", description = "fcfs (no job overtakes another) or in-order "
                + "(the scheduler's placement queue: a job that cannot be placed does not block those behind it) "
                + "(default: ${DEFAULT-VALUE})")
        String queue;

        @Option(names = "--max-slowdown", defaultValue = "4", description = "upper end of the break-even search "
                + "(default: ${DEFAULT-VALUE})")
        double maxSlowdown;

        /** The testbed's default cells, fs0 16, fs1 8, fs2 8, read from the testbed's own plan. */
        static List<Integer> testbedNodes() {
            return TestbedPlan.of(null, List.of(), 1, null).cells().stream().map(koala.testbed.CellPlan::nodes).toList();
        }

        CoallocationSim.Settings settings() {
            List<MulticlusterQueue.Cluster> grid = new java.util.ArrayList<>();
            for (int i = 0; i < clusters.size(); i++) {
                grid.add(new MulticlusterQueue.Cluster("fs" + i, clusters.get(i)));
            }
            MulticlusterQueue.Discipline discipline = switch (queue.strip().toLowerCase(java.util.Locale.ROOT)) {
                case "fcfs" -> MulticlusterQueue.Discipline.FCFS;
                case "in-order" -> MulticlusterQueue.Discipline.IN_ORDER;
                default -> throw new IllegalArgumentException("--queue is fcfs or in-order, not '" + queue + "'");
            };
            return new CoallocationSim.Settings(grid, loads, slowdowns.stream().map(CoallocationSim.Slowdown::of).toList(),
                    seed, jobs, new ParallelWorkload(ParallelWorkload.Sizes.parse(sizes),
                    ParallelWorkload.Runtimes.parse(runtimes)), JobSplit.parse(policy), discipline, maxSlowdown);
        }

        @Override
        public Integer call() {
            CoallocationSim.Result result = CoallocationSim.simulate(settings());
            CoallocationSim.print(result, System.out);
            CoallocationSim.write(result, out);
            System.out.println("\nresults in " + out.toAbsolutePath());
            return 0;
        }
    }

    @Command(name = "constraints", mixinStandardHelpOptions = true,
            description = {"Placement constraints (Medea's affinity, anti-affinity and cardinality over hosts, racks and "
                    + "sites, hard or soft): a seeded stream of framework instances (master, orchestrator, workers; grows, "
                    + "shrinks, churn) on a grid of 100 sites × 50 nodes, placed by the constraints placer and, blind to "
                    + "the constraints, by worst-fit and first-fit: constraints broken, requests waiting, nodes left "
                    + "empty, decision time per grow. Writes constraints.csv. About a minute on 2 busy cores."})
    static final class ConstraintsCommand implements Callable<Integer> {
        @Option(names = "--out", defaultValue = "results", description = "results folder (default: ${DEFAULT-VALUE}, "
                + "under the current directory)")
        Path out;

        @Option(names = "--sites", defaultValue = "100", description = "sites (default: ${DEFAULT-VALUE})")
        int sites;

        @Option(names = "--nodes", defaultValue = "50", description = "nodes per site (default: ${DEFAULT-VALUE})")
        int nodes;

        @Option(names = "--slots", defaultValue = "4", description = "containers a node holds (default: ${DEFAULT-VALUE})")
        int slots;

        @Option(names = "--rack", defaultValue = "10", description = "nodes per rack (default: ${DEFAULT-VALUE})")
        int rack;

        @Option(names = "--instances", defaultValue = "1000", description = "framework instances deployed first, and "
                + "kept running by churn (default: ${DEFAULT-VALUE})")
        int instances;

        @Option(names = "--events", defaultValue = "20000", description = "grows, shrinks and churn after the "
                + "deployments (default: ${DEFAULT-VALUE})")
        int events;

        @Option(names = "--hard", defaultValue = "0.5", description = "chance that a drawn constraint is hard "
                + "(default: ${DEFAULT-VALUE})")
        double hard;

        @Option(names = "--seed", defaultValue = "1", description = "the stream's seed (default: ${DEFAULT-VALUE})")
        long seed;

        @Option(names = "--repeats", defaultValue = "3", description = "times each decision is timed on the same "
                + "state, the fastest kept (default: ${DEFAULT-VALUE})")
        int repeats;

        @Option(names = "--grow-timings", defaultValue = "200", description = "grows of the scheduler's own path timed "
                + "over sites and on hosts after the simulation (default: ${DEFAULT-VALUE})")
        int growTimings;

        ConstraintsExperiment.Settings settings() {
            if (!(hard >= 0 && hard <= 1)) {
                throw new IllegalArgumentException("--hard is a chance between 0 and 1, not " + hard);
            }
            ConstraintStream.Mix d = ConstraintStream.Mix.DEFAULT;
            return new ConstraintsExperiment.Settings(new ConstraintStream.Grid(sites, nodes, slots, rack,
                    ConstraintStream.Grid.DEFAULT.sitesPerNetwork()), instances, events,
                    new ConstraintStream.Mix(d.apart(), d.apartRack(), d.perHost(), d.nearOwn(), d.nearOther(), hard),
                    seed, repeats);
        }

        @Override
        public Integer call() {
            ConstraintsExperiment.Settings settings = settings();
            // timed first, in a heap the simulation has not filled yet
            koala.sim.experiment.SchedulerGrowTiming.Result timing = koala.sim.experiment.SchedulerGrowTiming.run(sites,
                    nodes, instances, growTimings, repeats, seed);
            ConstraintsExperiment.Result result = ConstraintsExperiment.run(settings);
            ConstraintsExperiment.print(result, System.out);
            ConstraintsExperiment.write(result, out);
            koala.sim.experiment.SchedulerGrowTiming.print(timing, System.out);
            System.out.println("\nresults in " + out.toAbsolutePath());
            return 0;
        }
    }

    @Command(name = "resources", mixinStandardHelpOptions = true,
            description = {"Placement by resources against node-granular placement: a seeded mix of small, memory-heavy, "
                    + "GPU and co-allocated MPI jobs on the testbed's unequal hosts (fs0 4-core/8G and 16-core/64G/2-GPU "
                    + "hosts, fs1 8-core/16G; times --scale), placed by the scheduler's policies with a node as one SGE slot, "
                    + "as one whole host, and by resources: jobs per hour, waits, cores/memory/GPUs used, jobs placed where "
                    + "they did not fit and jobs that never ran, and the jobs-per-hour ratio (goal: at least 1.3x). Writes "
                    + "resources.csv. Exit 1 when resource-aware placement put a node where it does not fit. About 10 s."})
    static final class ResourcesCommand implements Callable<Integer> {
        @Option(names = "--out", defaultValue = "results", description = "results folder (default: ${DEFAULT-VALUE}, "
                + "under the current directory)")
        Path out;

        @Option(names = "--loads", split = ",", defaultValue = "0.5,0.7,0.9", description = "offered loads, fractions of "
                + "the grid in the resource the mix asks most of; 0 submits every job at once (default: ${DEFAULT-VALUE})")
        List<Double> loads;

        @Option(names = "--jobs", defaultValue = "4000", description = "jobs per run (default: ${DEFAULT-VALUE})")
        int jobs;

        @Option(names = "--seed", defaultValue = "1", description = "the workload's and SGE's seed (default: "
                + "${DEFAULT-VALUE})")
        long seed;

        @Option(names = "--scale", defaultValue = "4", description = "the grid is the testbed's shape (fs0 12 + 4 hosts, "
                + "fs1 8) times this (default: ${DEFAULT-VALUE})")
        int scale;

        @Option(names = "--policy", defaultValue = "worst-fit", description = "the placement policy (default: "
                + "${DEFAULT-VALUE})")
        String policy;

        @Option(names = "--fail-after", defaultValue = "300", description = "seconds a job placed where it does not fit "
                + "runs before it fails (default: ${DEFAULT-VALUE})")
        int failAfter;

        @Option(names = "--tries", defaultValue = "3", description = "times in all a user submits a job that keeps "
                + "failing so (default: ${DEFAULT-VALUE})")
        int tries;

        ResourcesExperiment.Settings settings() {
            if (failAfter < 0) {
                throw new IllegalArgumentException("--fail-after is 0 seconds or more, not " + failAfter);
            }
            return new ResourcesExperiment.Settings(scale, loads, jobs, seed,
                    ResourceMix.DEFAULT, PlacementPolicies.byName(policy),
                    Duration.ofSeconds(failAfter), tries);
        }

        @Override
        public Integer call() {
            ResourcesExperiment.Settings settings = settings();
            ResourcesExperiment.Result result = ResourcesExperiment.simulate(settings,
                    System.out);
            System.out.println();
            ResourcesExperiment.print(result, System.out);
            ResourcesExperiment.write(result, out);
            System.out.println("\nresults in " + out.toAbsolutePath());
            boolean misfit = result.rows().stream().anyMatch(r -> r.of(ResourceQueue.Mode.RESOURCE_AWARE)
                    .misfitPlacements() > 0);
            return misfit ? Koala.FAILURE : 0;
        }
    }

    @Command(name = "suspension", mixinStandardHelpOptions = true,
            description = {"Neptune-style suspension in the reference framework: the paper's W_rl with word counts mixed "
                    + "in, under Static, OnDemand and Pool, without suspension (today: an RL without an idle worker is "
                    + "rejected or grown for), suspending SWCs for RLs and resuming them in place, and also moving them "
                    + "to free slots: RL reject rate, RL start latency, SWC completion time, node-hours, and the goal "
                    + "(rejections <= 0.5x, completion <= 1.2x at the same node-hours). Then take-backs on the sharing "
                    + "scenario: work lost per take-back, today's and with batch work yielding. Writes "
                    + "suspension.csv and suspension-takeback.csv. About a minute on 2 busy cores with the defaults."})
    static final class SuspensionCommand implements Callable<Integer> {
        @Option(names = "--out", defaultValue = "results", description = "results folder (default: ${DEFAULT-VALUE}, "
                + "under the current directory)")
        Path out;

        @Option(names = "--seeds", defaultValue = "4", description = "runs per setting, seeds 1..N (default: "
                + "${DEFAULT-VALUE}; 10 for the record)")
        int seeds;

        @Option(names = "--hours", defaultValue = "12", description = "simulated hours per run (default: "
                + "${DEFAULT-VALUE}; 24 for the record)")
        int hours;

        @Option(names = "--cpu", defaultValue = "uniform:50:100", description = "RL CPU load each 30 s (default: "
                + "${DEFAULT-VALUE})")
        String cpu;

        @Option(names = "--o-grow", defaultValue = "30", description = "O_grow, seconds (default: ${DEFAULT-VALUE})")
        int oGrow;

        @Option(names = "--swc-every", defaultValue = "300", description = "mean seconds between SWC batches of 2.5 "
                + "(default: ${DEFAULT-VALUE})")
        double swcEvery;

        @Option(names = "--swc-duration", defaultValue = "600", description = "seconds an SWC runs (default: "
                + "${DEFAULT-VALUE})")
        int swcDuration;

        @Option(names = "--swc-cpu", defaultValue = "60", description = "CPU of an SWC component, percent of its slot "
                + "(default: ${DEFAULT-VALUE})")
        double swcCpu;

        @Option(names = "-k", defaultValue = "3", description = "times one SWC may be suspended at most (default: "
                + "${DEFAULT-VALUE})")
        int k;

        @Option(names = "--sharing-nodes", defaultValue = "48", description = "nodes of the take-back scenario's grid; "
                + "0 skips it (default: ${DEFAULT-VALUE})")
        int sharingNodes;

        @Override
        public Integer call() {
            if (seeds < 1 || hours < 1 || oGrow < 0 || !(swcEvery > 0) || swcDuration < 1) {
                throw new IllegalArgumentException("--seeds, --hours and --swc-duration must be at least 1, --o-grow at "
                        + "least 0, --swc-every positive");
            }
            Runs runs = new Runs(Generators.RlParameters.PAPER.withCpu(CpuProfile.parse(cpu)), Duration.ofHours(hours),
                    seeds, GrowDelay.fixed(Duration.ofSeconds(oGrow)), System.out);
            SuspensionExperiment.Settings settings = new SuspensionExperiment.Settings(runs, Setup.PAPER, 1 / swcEvery,
                    Duration.ofSeconds(swcDuration), swcCpu, k, sharingNodes);
            SuspensionExperiment.Result result = SuspensionExperiment.run(settings, System.out);
            System.out.println();
            SuspensionExperiment.print(result, System.out);
            SuspensionExperiment.write(result, out);
            System.out.println("\nresults in " + out.toAbsolutePath());
            return 0;
        }
    }

    @Command(name = "speed", mixinStandardHelpOptions = true,
            description = {"Targets: 24 simulated hours of W_rl for Static, OnDemand and Proactive in under 5 s; a grid "
                    + "of 100 sites × 1,000 nodes with 100 framework instances at over 1,000× real time."})
    static final class SpeedCommand implements Callable<Integer> {
        @Option(names = "--grid-hours", defaultValue = "24", description = "simulated hours of the grid run "
                + "(default: ${DEFAULT-VALUE})")
        int gridHours;

        @Override
        public Integer call() {
            if (gridHours < 1) {
                throw new IllegalArgumentException("--grid-hours must be at least 1");
            }
            boolean met = new SpeedBenchmark(System.out).run(Duration.ofHours(gridHours));
            System.out.printf("  machine: %d cores, load average %.1f%n", Runtime.getRuntime().availableProcessors(),
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            return met ? 0 : Koala.FAILURE;
        }
    }

    @Command(name = "start-time", mixinStandardHelpOptions = true,
            description = {"When will it start: a workload with wrong wall times, users who resubmit the same jobs and "
                    + "local users on every site, replayed with the scheduler's placement code at several loads; at every "
                    + "submission the start estimate is asked and compared with the start that happened: per load and "
                    + "class of wait, the median and 90th-percentile error of the predicted wait and the share of starts "
                    + "inside the stated 80%% range, beside the naive estimate and the estimate from wall times. "
                    + "Goal (waits over 10 min): median error <= 25%%, >= 70%% inside the range. Writes start-time.csv and, per job, "
                    + "start-time-jobs.csv."})
    static final class StartTimeCommand implements Callable<Integer> {
        @Option(names = "--out", defaultValue = "results", description = "results folder (default: ${DEFAULT-VALUE})")
        Path out;

        @Option(names = "--loads", split = ",", defaultValue = "0.5,0.7,0.9", description = "offered loads, KOALA's and "
                + "local users' together, fractions of the grid's cores (default: ${DEFAULT-VALUE})")
        List<Double> loads;

        @Option(names = "--jobs", defaultValue = "5000", description = "KOALA jobs per load (default: ${DEFAULT-VALUE}; at "
                + "0.5 few wait over 10 minutes: 20-50 of 5000)")
        int jobs;

        @Option(names = "--seed", defaultValue = "1", description = "the workload's seed (default: ${DEFAULT-VALUE})")
        long seed;

        @Option(names = "--samples", defaultValue = "15", description = "sampled runs per estimate (default: "
                + "${DEFAULT-VALUE})")
        int samples;

        @Option(names = "--ablations", description = "also the estimator without calibration, without future submissions, "
                + "without local load and without history")
        boolean ablations;

        @Override
        public Integer call() {
            StartTimeExperiment.Settings settings = new StartTimeExperiment.Settings(loads, jobs, seed, samples, ablations);
            List<StartTimeExperiment.Measured> measured = new java.util.ArrayList<>();
            List<StartTimeExperiment.Row> rows = StartTimeExperiment.simulate(settings, System.out, measured);
            System.out.println();
            StartTimeExperiment.print(rows, System.out);
            StartTimeExperiment.write(rows, out);
            StartTimeExperiment.writeJobs(measured, out);
            System.out.println("\nresults in " + out.toAbsolutePath());
            return 0;
        }
    }
}
