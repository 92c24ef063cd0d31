package koala.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SubmitRequest;
import koala.cli.TestbedCommand;
import koala.cli.TestbedUser;
import koala.common.time.Poll;
import koala.grid.Accounts;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.grid.SiteConfig;
import koala.scheduler.SchedulerDaemon;
import koala.sim.experiment.CoallocationSim;
import koala.testbed.LocalUser;
import koala.testbed.Testbed;
import koala.testbed.TestbedException;
import koala.testbed.TestbedPlan;
import koala.testbed.WanStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * When does co-allocation pay, on the testbed (issue: Sonmez, Mohamed, Epema, IEEE TPDS 2010). Three
 * parts: a communication-heavy MPI program on 8 nodes in one cluster, spread over two by Worst-Fit
 * and placed by Cluster Minimization, at several wide-area delays (the slowdown of the spread one);
 * a job larger than any cluster, through KOALA and as a plain SGE parallel job; and the simulator's
 * queue with the slowdowns just measured.
 */
@Command(name = "coallocation", mixinStandardHelpOptions = true,
        description = {"When does co-allocation pay? On the testbed: an MPI program that exchanges messages all the "
                + "time (a ring of MPI_Sendrecv and an allreduce, mpi4py) on 8 nodes held to one cluster, spread over "
                + "two by worst-fit and placed by cluster-minimization, at each wide-area delay: its runtimes and the "
                + "slowdown of the spread one. Then a job of 20 nodes, more than any cluster has, through KOALA and as "
                + "a plain SGE parallel job. Then the simulator's multicluster queue with the slowdowns measured. "
                + "Needs root (it sets the testbed's delay, and puts it back). About 10 minutes."})
final class TestbedCoallocation implements Callable<Integer> {
    private static final InstantSource CLOCK = InstantSource.system();
    private static final Duration WAIT = Duration.ofMinutes(5);
    /**
     * Each rank sends BYTES to the next and receives from the one before, then all reduce a number;
     * ITERATIONS times between two barriers. Rank 0 writes the time between them, in ms.
     */
    static final String PROGRAM = """
            import sys, time
            from mpi4py import MPI
            world = MPI.COMM_WORLD
            rank, size = world.Get_rank(), world.Get_size()
            iterations, nbytes = int(sys.argv[2]), int(sys.argv[3])
            out, into = bytearray(nbytes), bytearray(nbytes)
            world.Barrier()
            start = time.perf_counter()
            for i in range(iterations):
                world.Sendrecv(out, dest=(rank + 1) % size, recvbuf=into, source=(rank - 1) % size)
                world.allreduce(i)
            world.Barrier()
            took = (time.perf_counter() - start) * 1000
            if rank == 0:
                with open(sys.argv[1], "w") as f:
                    f.write(f"{took:.1f} {size}\\n")
            """;

    @Option(names = "--delays", split = ",", defaultValue = "0,1,5,20", description = "wide-area delays to measure at, "
            + "ms each way (default: ${DEFAULT-VALUE})")
    List<Integer> delays;

    @Option(names = "--runs", defaultValue = "2", description = "runs of each placement at each delay; the median is "
            + "taken (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--iterations", defaultValue = "100", description = "ring exchanges and allreduces of a run "
            + "(default: ${DEFAULT-VALUE})")
    int iterations;

    @Option(names = "--bytes", defaultValue = "65536", description = "bytes each rank sends in a ring step "
            + "(default: ${DEFAULT-VALUE})")
    int bytes;

    @Option(names = "--big", defaultValue = "20", description = "nodes of the job larger than any cluster "
            + "(default: ${DEFAULT-VALUE})")
    int big;

    @Option(names = "--out", defaultValue = "results", description = "results folder (default: ${DEFAULT-VALUE})")
    Path out;

    private static final int NODES = 8;
    /**
     * The testbed's nodes share the machine's few cores: a rank that waits for a message gives its
     * core up instead of spinning on it (Open MPI spins by default, as a node of its own would).
     */
    private static final String YIELD = "(environment = (OMPI_MCA_mpi_yield_when_idle 1))";

    /** One way of placing the 8-node program: its name and its JDF. */
    private record Placement(String name, String jdf) {
    }

    /** One run: how long the ranks exchanged, and how many nodes it had on each site. */
    private record Run(double ms, Map<String, Long> split) {
    }

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || iterations < 1 || bytes < 1 || delays.isEmpty() || delays.stream().anyMatch(d -> d < 0)) {
            throw new IllegalArgumentException("--runs, --iterations and --bytes must be at least 1, --delays 0 or more");
        }
        Testbed testbed = TestbedCommand.testbed(System.out);
        TestbedPlan plan = testbed.keepingStandbyHost(TestbedPlan.of(null, List.of(), 1, null));
        testbed.up(plan.withWanDelay(delays.get(0)));
        testbed.installPrograms(); // Open MPI and mpi4py, which the demo's testbed leaves out
        GridConfig grid = GridConfig.load(testbed.gridConfig());
        List<SiteConfig> local = grid.sites().stream().filter(s -> !s.remote()).toList();
        if (local.size() < 2) {
            throw new IllegalStateException("the experiment needs two cells on the grid's network; it has " + local.size());
        }
        SchedulerClient client = TestbedUser.client(grid);
        SchedulerDaemon own = GrowBenchCommand.reachable(client) ? null : SchedulerDaemon.start(grid, KoalaHome.dir());
        List<String> load = new ArrayList<>();
        SiteConfig loaded = null;
        try {
            Path dir = Accounts.directoryOf(local.get(0).agentUser(), "koala-coallocation-"
                    + Long.toHexString(System.nanoTime()));
            Path program = Files.writeString(dir.resolve("ring.py"), PROGRAM);
            SiteConfig a = local.get(0);
            SiteConfig b = local.get(1);
            // worst-fit spreads only over clusters equally idle: local jobs take the larger cell down to the other's size
            loaded = a.nodes() >= b.nodes() ? a : b;
            int others = Math.abs(a.nodes() - b.nodes());
            for (int i = 0; i < others; i++) {
                load.add(LocalUser.qsub(loaded, "local-load-" + i, "/bin/sleep", "3600"));
            }
            awaitOthers(client, loaded.name(), others);
            System.out.printf("%d local jobs on %s: %s and %s have %d idle nodes each%n%n", others, loaded.name(),
                    a.name(), b.name(), Math.min(a.nodes(), b.nodes()));
            List<Placement> placements = List.of(
                    new Placement("one cluster (" + a.name() + ")", jdf(program, dir, "(resourceManagerContact = \""
                            + a.name() + "\")", 1, NODES)),
                    new Placement("worst-fit", jdf(program, dir, "(placement = worst-fit)", NODES / 2, 2)),
                    new Placement("cluster-minimization", jdf(program, dir, "(placement = cluster-minimization)",
                            NODES / 2, 2)));
            Map<Integer, List<Run>[]> measured = new LinkedHashMap<>();
            Map<Integer, String> roundTrips = new LinkedHashMap<>();
            for (int delay : delays) {
                testbed.up(plan.withWanDelay(delay));
                roundTrips.put(delay, roundTrip(testbed.status().wan(), a.name(), b.name()));
                @SuppressWarnings("unchecked")
                List<Run>[] runsOf = new List[] {new ArrayList<>(), new ArrayList<>(), new ArrayList<>()};
                for (int r = 0; r < runs; r++) {
                    for (int p = 0; p < placements.size(); p++) {
                        Run run = run(client, placements.get(p).jdf(), dir.resolve("took-" + delay + "-" + r + "-" + p));
                        runsOf[p].add(run);
                        System.out.printf("  delay %2d ms, run %d, %-30s %9.0f ms  %s%n", delay, r + 1,
                                placements.get(p).name(), run.ms(), run.split());
                    }
                }
                measured.put(delay, runsOf);
            }
            LocalUser.qdel(loaded, load);
            load.clear();
            List<CoallocationSim.Slowdown> slowdowns = table(placements, measured, roundTrips);
            testbed.up(plan);
            bigJob(client, program, dir, a, b);
            simulate(slowdowns);
            return 0;
        } finally {
            if (loaded != null && !load.isEmpty()) {
                LocalUser.qdel(loaded, load);
            }
            if (own != null) {
                own.close();
            }
            testbed.up(plan);
        }
    }

    /** {@code components} components of {@code count} nodes each, the first running mpirun. */
    private String jdf(Path program, Path dir, String where, int components, int count) {
        StringBuilder jdf = new StringBuilder("+");
        for (int c = 0; c < components; c++) {
            jdf.append(String.format("( &%s%s(count = %d)(executable = \"/usr/bin/python3\")"
                            + "(arguments = \"%s\" \"%s\" \"%d\" \"%d\")(stderr = \"%s\")%s )", c == 0 ? "(runner = mpi)" : "",
                    where, count, program, "TOOK", iterations, bytes, dir.resolve("ring.err"), YIELD));
        }
        return jdf.toString();
    }

    private Run run(SchedulerClient client, String jdf, Path took) throws IOException {
        JobView job = client.submit(new SubmitRequest("coallocation", jdf.replace("TOOK", took.toString())));
        JobView ended = awaitEnd(client, job.id());
        if (!"FINISHED".equals(ended.state())) {
            throw new IllegalStateException("job " + job.id() + " ended " + ended.state() + ": " + ended.history());
        }
        double ms = Double.parseDouble(Files.readString(took).trim().split(" ")[0]);
        return new Run(ms, split(ended));
    }

    private static Map<String, Long> split(JobView job) {
        return job.nodes().stream().collect(Collectors.groupingBy(NodeView::site, TreeMap::new, Collectors.counting()));
    }

    /** Prints the runtimes per delay and returns the spread placement's slowdown at each, for the simulator. */
    private List<CoallocationSim.Slowdown> table(List<Placement> placements, Map<Integer, List<Run>[]> measured,
                                                 Map<Integer, String> roundTrips) throws IOException {
        System.out.printf("%nThe 8-node ring (%d x MPI_Sendrecv of %d bytes + allreduce), median of %d runs, ms%n",
                iterations, bytes, runs);
        System.out.printf("  %-8s %-16s %18s %18s %22s %10s%n", "delay", "round trip", placements.get(0).name(),
                "worst-fit", "cluster-minimization", "slowdown");
        List<String> csv = new ArrayList<>(List.of("delay_ms,round_trip,placement,median_ms,split"));
        List<CoallocationSim.Slowdown> slowdowns = new ArrayList<>();
        for (var e : measured.entrySet()) {
            double[] median = new double[placements.size()];
            String[] splits = new String[placements.size()];
            for (int p = 0; p < placements.size(); p++) {
                median[p] = MpiBenchCommand.median(e.getValue()[p].stream().map(Run::ms).toList());
                splits[p] = e.getValue()[p].get(0).split().toString();
                csv.add(e.getKey() + "," + roundTrips.get(e.getKey()) + "," + placements.get(p).name() + ","
                        + String.format("%.0f", median[p]) + ",\"" + splits[p] + "\"");
            }
            double slowdown = median[1] / median[0];
            slowdowns.add(new CoallocationSim.Slowdown(e.getKey() + " ms", Math.max(1.0, slowdown)));
            System.out.printf("  %-8s %-16s %18.0f %18.0f %22.0f %9.2fx%n", e.getKey() + " ms", roundTrips.get(e.getKey()),
                    median[0], median[1], median[2], slowdown);
            System.out.printf("  %-8s %-16s %18s %18s %22s%n", "", "nodes per site", splits[0], splits[1], splits[2]);
        }
        Files.createDirectories(out);
        Files.write(out.resolve("coallocation-testbed.csv"), csv);
        return slowdowns;
    }

    private static String roundTrip(WanStatus wan, String a, String b) {
        return wan.roundTrips().stream().filter(t -> t.label().equals(a + " - " + b) || t.label().equals(b + " - " + a))
                .filter(t -> t.medianMs() != null).findFirst().map(t -> String.format("%.2f ms", t.medianMs()))
                .orElse("?");
    }

    /** Part 2: more nodes than any cluster has, through KOALA (co-allocated) and through SGE alone. */
    private void bigJob(SchedulerClient client, Path program, Path dir, SiteConfig a, SiteConfig b) throws IOException {
        int largest = Math.max(a.nodes(), b.nodes());
        System.out.printf("%nA job of %d nodes; the largest cluster has %d%n", big, largest);
        Path took = dir.resolve("took-big");
        String jdf = "+( &(runner = mpi)(jobType = flexible)(count = " + big + ")(executable = \"/usr/bin/python3\")"
                + "(arguments = \"" + program + "\" \"" + took + "\" \"" + iterations + "\" \"" + bytes + "\")"
                + "(stderr = \"" + dir.resolve("big.err") + "\")" + YIELD + " )";
        String koala;
        try {
            Run run = run(client, jdf, took);
            koala = String.format("ran as one MPI world of %d in %.0f ms, on %s", big, run.ms(), run.split());
        } catch (RuntimeException e) {
            koala = "did not run: " + e.getMessage();
        }
        String sge;
        try {
            LocalUser.run(a, "qsub", "-w", "e", "-b", "y", "-N", "coallocation-big", "-pe", "mpi",
                    Integer.toString(big), "-o", "/dev/null", "-j", "y", "/usr/bin/mpirun", "/usr/bin/python3",
                    program.toString(), took.toString(), Integer.toString(iterations), Integer.toString(bytes));
            sge = "accepted (unexpected)";
        } catch (TestbedException e) {
            sge = "refused: " + e.getMessage().replaceAll("\\s+", " ");
        }
        System.out.printf("  %-36s %s%n", "through KOALA (co-allocated)", koala);
        System.out.printf("  %-36s %s%n", "plain SGE, qsub -w e -pe mpi " + big + " on " + a.name(), sge);
    }

    /** Part 3: the simulator's multicluster queue with the slowdowns measured above. */
    private void simulate(List<CoallocationSim.Slowdown> slowdowns) {
        System.out.printf("%nThe simulator's queue (the scheduler's placement code) with the measured slowdowns%n");
        CoallocationSim.Settings settings = CoallocationSim.Settings.defaults().withSlowdowns(slowdowns);
        CoallocationSim.Result result = CoallocationSim.simulate(settings);
        CoallocationSim.print(result, System.out);
        CoallocationSim.write(result, out);
        System.out.println("\nresults in " + out.toAbsolutePath());
    }

    private static void awaitOthers(SchedulerClient client, String site, int others) {
        if (!new Poll(CLOCK, Duration.ofMillis(500)).until(() -> client.sites().stream()
                .filter(s -> s.site().equals(site)).anyMatch(s -> s.others() == others), WAIT)) {
            throw new IllegalStateException("the scheduler does not see the " + others + " local jobs on " + site);
        }
    }

    private static JobView awaitEnd(SchedulerClient client, long id) {
        JobView[] job = {client.job(id)};
        new Poll(CLOCK, Duration.ofMillis(200)).until(() -> (job[0] = client.job(id)).ended(), WAIT);
        if (!job[0].ended()) {
            client.cancel(id);
            throw new IllegalStateException("job " + id + " has not ended within " + WAIT.toMinutes() + " minutes");
        }
        return job[0];
    }
}
