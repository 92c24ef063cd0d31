package koala.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import koala.api.scheduler.JobView;
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
import koala.testbed.LocalUser;
import koala.testbed.Testbed;
import koala.testbed.TestbedPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "mpi", mixinStandardHelpOptions = true,
        description = {"MPI start-up on the testbed: the median time from submit to MPI_Init done on every rank (an "
                + "mpi4py program gathers each rank's time just after MPI_Init; the latest is the world's start) for "
                + "N ranks on one cell through KOALA, the same as a plain SGE parallel job (qsub -pe mpi N, Open MPI "
                + "starting its daemons with qrsh -inherit), and N/2 + N/2 ranks over two cells through KOALA, "
                + "alternating in one run. Targets: KOALA within 1.5x plain SGE on one cell; the two-cell start no "
                + "slower than KOALA's one-cell start plus 0.5 s. With --site naming a Slurm site: N ranks there through "
                + "KOALA against a plain 'sbatch -n N' whose mpirun starts its daemons with srun, and N/2 there + N/2 on "
                + "an SGE cell through KOALA."})
final class MpiBenchCommand implements Callable<Integer> {
    private static final Duration WAIT = Duration.ofSeconds(180);
    private static final InstantSource CLOCK = InstantSource.system();
    /** MPI_Init done, then each rank's time gathered on rank 0, which writes the latest. */
    static final String PROGRAM = """
            import sys, time
            from mpi4py import MPI
            done = time.time_ns()
            world = MPI.COMM_WORLD
            times = world.gather(done, root=0)
            if world.Get_rank() == 0:
                with open(sys.argv[1], "w") as out:
                    out.write(f"{max(times)} {world.Get_size()}\\n")
            """;

    @Option(names = "--runs", defaultValue = "7", description = "measured runs of each (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--warmup", defaultValue = "1", description = "runs of each left out (default: ${DEFAULT-VALUE})")
    int warmup;

    @Option(names = "--ranks", defaultValue = "8", description = "ranks, one per node (default: ${DEFAULT-VALUE})")
    int ranks;

    @Option(names = "--site", paramLabel = "SITE",
            description = "the cell the one-cell runs use, and whose own plain submit they are measured beside: 'qsub -pe "
                    + "mpi' on an SGE site, 'sbatch -n' on a Slurm one (bring a Slurm cell up first: testbed up --slurm; "
                    + "its 2 hosts of 2 cores take --ranks 4); default: the grid's first local site")
    String site;

    /** One way of starting the world: its name, and one run of it (milliseconds from submit to every rank's MPI_Init). */
    private record Way(String name, RunOnce once) {
    }

    @FunctionalInterface
    private interface RunOnce {
        double run(Path stamp) throws Exception;
    }

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || warmup < 0 || ranks < 2 || ranks % 2 != 0) {
            throw new IllegalArgumentException("--runs must be at least 1, --warmup at least 0, --ranks even and at "
                    + "least 2");
        }
        Testbed testbed = TestbedCommand.testbed(System.out);
        // the Slurm cell an earlier 'testbed up --slurm' made is kept
        testbed.up(testbed.keepingStandbyHost(TestbedPlan.of(null, List.of(), 1, null).withSlurmCellOf(testbed.plan())));
        testbed.installPrograms(); // Open MPI and mpi4py, which the demo's testbed leaves out
        GridConfig grid = GridConfig.load(testbed.gridConfig());
        List<SiteConfig> local = grid.sites().stream().filter(s -> !s.remote()).toList();
        if (site != null && local.stream().noneMatch(s -> s.name().equals(site))) {
            throw new IllegalArgumentException("--site " + site + ": no such local site in " + grid.file() + " (sites: "
                    + local.stream().map(SiteConfig::name).toList() + ")");
        }
        SiteConfig one = site == null ? local.get(0) : grid.site(site);
        SiteConfig two = local.stream().filter(s -> s != one && s.slurm().isEmpty()).findFirst().orElseThrow(() ->
                new IllegalStateException("the benchmark needs a second local cell that runs SGE; the grid has "
                        + local.stream().map(SiteConfig::name).toList()));
        boolean slurm = one.slurm().isPresent();
        SchedulerClient client = TestbedUser.client(grid);
        SchedulerDaemon own = GrowBenchCommand.reachable(client) ? null : SchedulerDaemon.start(grid, KoalaHome.dir());
        try {
            int room = client.sites().stream().filter(s -> s.site().equals(one.name())).mapToInt(s -> s.total()).sum();
            if (room > 0 && ranks > room) {
                throw new IllegalArgumentException("--ranks " + ranks + ": " + one.name() + " has " + room + " nodes");
            }
            Path dir = Accounts.directoryOf(one.agentUser(), "koala-bench-mpi-" + Long.toHexString(System.nanoTime()));
            Path program = Files.writeString(dir.resolve("init.py"), PROGRAM);
            List<Way> ways = List.of(
                    new Way("KOALA, " + ranks + " on " + one.name(), stamp -> koala(client, jdf(program, stamp,
                            Map.of(one.name(), ranks)), stamp)),
                    slurm ? new Way("plain Slurm, sbatch -n " + ranks + " on " + one.name(), stamp -> slurm(one, program,
                            stamp))
                            : new Way("plain SGE, qsub -pe mpi " + ranks + " on " + one.name(), stamp -> sge(one, program,
                            stamp)),
                    new Way("KOALA, " + ranks / 2 + " on " + one.name() + " + " + ranks / 2 + " on " + two.name(),
                            stamp -> koala(client, jdf(program, stamp, Map.of(one.name(), ranks / 2, two.name(),
                                    ranks / 2)), stamp)));
            List<List<Double>> samples = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            for (int i = 0; i < warmup + runs; i++) {
                StringBuilder line = new StringBuilder(String.format("  run %2d%s", i + 1, i < warmup ? " (warm-up)" : ""));
                for (int w = 0; w < ways.size(); w++) {
                    double ms = ways.get(w).once().run(dir.resolve("stamp-" + i + "-" + w));
                    if (i >= warmup) {
                        samples.get(w).add(ms);
                    }
                    line.append(String.format("   %.0f ms", ms));
                }
                System.out.println(line);
            }
            double k1 = median(samples.get(0));
            double plain = median(samples.get(1));
            double k2 = median(samples.get(2));
            System.out.printf("%nmpi start-up, submit -> MPI_Init done on all %d ranks, median of %d runs%n", ranks, runs);
            for (int w = 0; w < ways.size(); w++) {
                System.out.printf("  %-44s %8.0f ms%n", ways.get(w).name(), median(samples.get(w)));
            }
            System.out.printf("  ratio KOALA / plain %-5s on one cell        %8.2fx  target <= 1.50x: %s%n",
                    slurm ? "Slurm" : "SGE", k1 / plain, k1 / plain <= 1.5 ? "met" : "NOT met");
            System.out.printf("  two cells - one cell through KOALA          %+8.0f ms  target <= +500 ms: %s%n", k2 - k1,
                    k2 - k1 <= 500 ? "met" : "NOT met");
            return 0;
        } finally {
            if (own != null) {
                own.close();
            }
        }
    }

    /** An MPI job with {@code count} nodes on each site, in order: the first component runs mpirun. */
    static String jdf(Path program, Path stamp, Map<String, Integer> count) {
        StringBuilder jdf = new StringBuilder("+");
        boolean first = true;
        for (var site : new java.util.TreeMap<>(count).entrySet()) {
            jdf.append(String.format("( &%s(resourceManagerContact = \"%s\")(count = %d)(executable = \"/usr/bin/python3\")"
                    + "(arguments = \"%s\" \"%s\") )", first ? "(runner = mpi)" : "", site.getKey(), site.getValue(),
                    program, stamp));
            first = false;
        }
        return jdf.toString();
    }

    private static double koala(SchedulerClient client, String jdf, Path stamp) throws IOException {
        Instant submitted = CLOCK.instant();
        JobView job = client.submit(new SubmitRequest("bench-mpi", jdf));
        double ms = started(submitted, stamp);
        JobView ended = awaitEnd(client, job.id());
        if (!"FINISHED".equals(ended.state())) {
            throw new IllegalStateException("KOALA job " + job.id() + " ended " + ended.state() + ": " + ended.history());
        }
        return ms;
    }

    /** A plain SGE parallel job: mpirun reads SGE's host list and starts its daemons with qrsh -inherit. */
    private double sge(SiteConfig site, Path program, Path stamp) throws IOException {
        Instant submitted = CLOCK.instant();
        LocalUser.run(site, "qsub", "-sync", "y", "-b", "y", "-N", "bench-mpi-sge", "-pe", "mpi",
                Integer.toString(ranks), "-o", "/dev/null", "-j", "y", "/usr/bin/mpirun", "--map-by", "node",
                "--mca", "btl", "tcp,self", "/usr/bin/python3", program.toString(), stamp.toString());
        return started(submitted, stamp);
    }

    /**
     * A plain Slurm job of {@code ranks} tasks: mpirun reads Slurm's allocation and starts its daemons on the other
     * hosts with srun, as Open MPI does inside an allocation.
     */
    private double slurm(SiteConfig site, Path program, Path stamp) throws IOException {
        Instant submitted = CLOCK.instant();
        LocalUser.run(site, "sbatch", "--wait", "--parsable", "-J", "bench-mpi-slurm", "-n", Integer.toString(ranks),
                "-o", "/dev/null", "--wrap", "/usr/bin/mpirun --map-by node --mca btl tcp,self /usr/bin/python3 "
                        + program + " " + stamp);
        return started(submitted, stamp);
    }

    /** Milliseconds from {@code submitted} to the latest rank's MPI_Init, as the program wrote it. */
    private static double started(Instant submitted, Path stamp) throws IOException {
        if (!new Poll(CLOCK, Duration.ofMillis(100)).until(() -> Files.exists(stamp) && size(stamp) > 0, WAIT)) {
            throw new IllegalStateException("no rank 0 wrote " + stamp + " within " + WAIT.toSeconds() + " s");
        }
        long nanos = Long.parseLong(Files.readString(stamp).trim().split(" ")[0]);
        return Duration.between(submitted, Instant.ofEpochSecond(0, nanos)).toNanos() / 1e6;
    }

    private static JobView awaitEnd(SchedulerClient client, long id) {
        JobView[] job = {client.job(id)};
        new Poll(CLOCK, Duration.ofMillis(200)).until(() -> (job[0] = client.job(id)).ended(), WAIT);
        return job[0];
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
