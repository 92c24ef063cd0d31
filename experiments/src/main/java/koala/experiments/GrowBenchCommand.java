package koala.experiments;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import koala.api.runner.RunnerClient;
import koala.api.runner.RunnerMessages;
import koala.api.scheduler.SchedulerClient;
import koala.cli.TestbedCommand;
import koala.cli.TestbedUser;
import koala.common.time.Poll;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.http.ApiException;
import koala.jdf.ClusterCatalog;
import koala.jdf.JdfParser;
import koala.provisioning.PolicyKind;
import koala.runner.RunnerMain;
import koala.scheduler.SchedulerDaemon;
import koala.testbed.Testbed;
import koala.testbed.TestbedPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "grow", mixinStandardHelpOptions = true,
        description = {"O_grow on the testbed: the median time from a framework's grow RPC to the new worker's entity "
                + "reporting in to its runner, beside the median submit-to-running latency of plain 'qsub -sync y' "
                + "measured alternately in the same run; and the initial deployment time of an OnDemand instance "
                + "(master + orchestrator) and of a Static one (plus 4 workers). Paper (DAS-4): O_grow 30 s; initial "
                + "deployment 11 s OnDemand, 45 s otherwise. Target: O_grow within 1.3x plain qsub."})
final class GrowBenchCommand implements Callable<Integer> {
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final InstantSource CLOCK = InstantSource.system();

    @Option(names = "--runs", defaultValue = "15", description = "measured grows and qsubs (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--warmup", defaultValue = "2", description = "runs of each left out (default: ${DEFAULT-VALUE})")
    int warmup;

    @Option(names = "--site", paramLabel = "SITE",
            description = "grow the workers on this site and measure its own plain submit beside them: 'qsub -sync y' on "
                    + "an SGE site, 'sbatch --wait' on a Slurm one (bring a Slurm cell up first: testbed up --slurm); "
                    + "default: wherever placement puts them, beside qsub on the grid's first site")
    String site;

    @Option(names = "--wan-delay", paramLabel = "MS", defaultValue = "" + TestbedPlan.DEFAULT_WAN_DELAY_MS,
            description = "the testbed's wide-area delay between cells during the run, in ms each way; the testbed's "
                    + "own delay is put back afterwards (default: ${DEFAULT-VALUE})")
    int wanDelayMs;

    @Override
    public Integer call() throws Exception {
        if (runs < 1 || warmup < 0) {
            throw new IllegalArgumentException("--runs must be at least 1 and --warmup at least 0");
        }
        Testbed testbed = TestbedCommand.testbed(System.out);
        // the Slurm cell an earlier 'testbed up --slurm' made is kept
        TestbedPlan plan = TestbedPlan.of(null, List.of(), 1, null).withSlurmCellOf(testbed.plan());
        int before = testbed.plan().map(TestbedPlan::wanDelayMs).orElse(plan.wanDelayMs());
        testbed.up(testbed.keepingStandbyHost(plan.withWanDelay(wanDelayMs)));
        GridConfig grid = GridConfig.load(testbed.gridConfig());
        if (site != null && grid.sites().stream().noneMatch(s -> s.name().equals(site))) {
            throw new IllegalArgumentException("--site " + site + ": no such site in " + grid.file() + " (sites: "
                    + grid.sites().stream().map(koala.grid.SiteConfig::name).toList() + ")");
        }
        PlainSubmit plain = PlainSubmit.of(grid, site);
        SchedulerClient client = TestbedUser.client(grid);
        SchedulerDaemon own = reachable(client) ? null : SchedulerDaemon.start(grid, KoalaHome.dir());
        try {
            System.out.printf("wide-area delay between cells: %d ms each way%n", wanDelayMs);
            Duration onDemand = initialDeployment(grid, client, "ondemand", 0);
            Duration fixed = initialDeployment(grid, client, "static", 4);
            List<GrowStages> grows = new ArrayList<>();
            List<Double> qsubs = new ArrayList<>();
            measure(grid, client, grows, qsubs, plain);
            double g = median(grows.stream().map(GrowStages::total).toList());
            double q = median(qsubs);
            double koala = median(grows.stream().map(GrowStages::koala).toList());
            System.out.printf("%ngrow benchmark, median of %d runs (each stage's own median)%n", runs);
            System.out.printf("  O_grow (grow RPC -> worker reported in)   %8.0f ms   (paper, DAS-4: 30000 ms)%n", g);
            stage("runner -> scheduler -> agent -> DRMAA submit", grows, GrowStages::submit, "KOALA");
            stage(plain.manager() + " dispatch (submitted -> pilot JVM started)", grows, GrowStages::dispatch,
                    plain.manager());
            stage("pilot JVM start (process -> main)", grows, GrowStages::jvm, "JVM");
            stage("launcher: hello to the scheduler, its task, entity started", grows, GrowStages::launcher, "KOALA");
            stage("  main -> the scheduler's answer to its arrival", grows, GrowStages::arrive, "");
            stage("  arrival -> its task", grows, GrowStages::task, "");
            stage("  its task -> entity process started", grows, GrowStages::spawn, "");
            stage("entity started -> its report to the runner", grows, GrowStages::report, "KOALA");
            System.out.printf("  KOALA's own share (all but %s dispatch and the JVM start)  %6.0f ms   target <= 100 ms: %s%n",
                    plain.manager(), koala, koala <= 100 ? "met" : "NOT met");
            System.out.printf("  plain %-22s submit -> running %7.0f ms   (same run, alternating)%n", plain.name() + ",", q);
            System.out.printf("  ratio O_grow / %-26s %8.2fx  target <= 1.30x: %s%n", plain.command(), g / q,
                    g / q <= 1.3 ? "met" : "NOT met");
            System.out.printf("  initial deployment, ondemand (2 nodes)     %8.0f ms   (paper: 11 s)%n",
                    (double) onDemand.toMillis());
            System.out.printf("  initial deployment, static (6 nodes)       %8.0f ms   (paper: 45 s)%n",
                    (double) fixed.toMillis());
            return 0;
        } finally {
            if (own != null) {
                own.close();
            }
            if (wanDelayMs != before) {
                testbed.up(testbed.keepingStandbyHost(plan.withWanDelay(before)));
            }
        }
    }

    private Duration initialDeployment(GridConfig grid, SchedulerClient client, String policy, int workers)
            throws Exception {
        try (RunnerMain.Started runner = start(grid, client, policy, workers)) {
            Instant start = CLOCK.instant();
            if (!runner.runner().deploy(WAIT)) {
                throw new IllegalStateException(policy + " instance " + runner.instance() + " was not deployed");
            }
            Duration took = Duration.between(start, CLOCK.instant());
            System.out.printf("  %s instance %d deployed in %d ms%n", policy, runner.instance(), took.toMillis());
            client.closeAllocation(runner.instance());
            return took;
        }
    }

    /** One grow's overhead by stage, in milliseconds, from the bench's clock and the launcher's report. */
    record GrowStages(double total, double submit, double dispatch, double jvm, double arrive, double task,
                      double spawn, double report) {
        double launcher() {
            return arrive + task + spawn;
        }

        double koala() {
            return submit + launcher() + report;
        }

        static GrowStages of(Instant asked, Instant granted, Instant running, RunnerMessages.Startup s) {
            return new GrowStages(ms(asked, running), ms(asked, granted), ms(granted, s.launcherStarted()),
                    ms(s.launcherStarted(), s.launcherMain()), ms(s.launcherMain(), s.arrived()),
                    ms(s.arrived(), s.told()), ms(s.told(), s.entityStarted()), ms(s.entityStarted(), s.reportedAt()));
        }

        private static double ms(Instant from, Instant to) {
            return Duration.between(from, to).toNanos() / 1e6;
        }
    }

    private static void stage(String name, List<GrowStages> grows, java.util.function.ToDoubleFunction<GrowStages> f,
                              String whose) {
        System.out.printf("    %-58s %6.0f ms  %s%n", name, median(grows.stream().map(f::applyAsDouble).toList()), whose);
    }

    private void measure(GridConfig grid, SchedulerClient client, List<GrowStages> grows, List<Double> qsubs,
                         PlainSubmit plain) throws Exception {
        try (RunnerMain.Started runner = start(grid, client, "ondemand", 0)) {
            runner.runner().deploy(WAIT);
            RunnerClient rpc = new RunnerClient(runner.url(), koala.api.runner.TokenSource.of(runner::token));
            for (int i = 0; i < warmup + runs; i++) {
                GrowStages g = growOnce(rpc);
                double q = plain.toRunning().getAsDouble();
                if (i >= warmup) {
                    grows.add(g);
                    qsubs.add(q);
                    System.out.printf("  run %2d  grow %6.0f ms (KOALA %4.0f, %s dispatch %5.0f, JVM %4.0f)   %s %6.0f ms%n",
                            i - warmup + 1, g.total(), g.koala(), plain.manager(), g.dispatch(), g.jvm(), plain.command(), q);
                }
            }
            client.closeAllocation(runner.instance());
        }
    }

    /** One grow of 1 worker until it reports in, by stage; then the worker is given back once idle for t_idle. */
    private static GrowStages growOnce(RunnerClient rpc) {
        Instant asked = CLOCK.instant();
        RunnerMessages.GrowResult grew = rpc.grow(1);
        Instant granted = CLOCK.instant();
        if (grew.granted() != 1) {
            throw new IllegalStateException("grow refused: " + grew.reason());
        }
        String node = grew.nodes().get(0);
        // the runner stamps the report itself (same clock): polling gently keeps the bench off the CPU it measures
        Poll gently = new Poll(InstantSource.system(), Duration.ofMillis(100));
        if (!gently.until(() -> rpc.status().role("worker").stream().anyMatch(w -> w.node().equals(node)
                && w.state().equals("RUNNING")), WAIT)) {
            throw new IllegalStateException("worker " + node + " did not report in within " + WAIT.toSeconds() + " s");
        }
        RunnerMessages.Startup steps = rpc.startup(node);
        GrowStages took = GrowStages.of(asked, granted, steps.reportedAt(), steps);
        new Poll(InstantSource.system(), Duration.ofMillis(250)).until(() -> !rpc.shrink(List.of(node)).released()
                .isEmpty(), WAIT);
        return took;
    }

    private RunnerMain.Started start(GridConfig grid, SchedulerClient client, String policy, int workers)
            throws Exception {
        String where = site == null ? "" : "(resourceManagerContact = " + site + ")";
        String jdf = "+( &(jobType = framework)(name = bench-" + policy + ")(role = master)(count = 1)"
                + "(executable = /bin/sleep)(arguments = 100000)(provisioning = " + policy + ")(fMax = 4)(tIdle = 1)"
                + "(samplePeriod = 1) )"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100000) )"
                + " ( &(role = worker)(count = " + workers + ")" + where + "(executable = /bin/sleep)(arguments = 100000) )";
        Path dir = Files.createTempDirectory("koala-bench-grow-",
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        RunnerMain.Setup setup = new RunnerMain.Setup(JdfParser.parse("bench.jdf", jdf,
                new ClusterCatalog(grid.nodeCounts()), PolicyKind.shortNames()), jdf, grid.file(), client.base(), 0, dir,
                Duration.ofSeconds(30), WAIT).actingFor(client.actingFor().orElse(null));
        return RunnerMain.start(setup, InstantSource.system());
    }

    /**
     * The plain submit a grow is measured beside, on the site the workers grow on: {@code qsub -sync y} on an SGE
     * site, {@code sbatch --wait} on a Slurm one; each a trivial job that writes the wall-clock time it started at.
     *
     * @param toRunning one such submit: milliseconds from the submit to the job running
     */
    private record PlainSubmit(String manager, String command, String name, java.util.function.DoubleSupplier toRunning) {
        static PlainSubmit of(GridConfig grid, String site) {
            koala.grid.SiteConfig s = site == null ? grid.sites().get(0) : grid.site(site);
            if (s.slurm().isPresent()) {
                return new PlainSubmit("Slurm", "sbatch", "sbatch --wait on " + s.name(), () -> sbatchToRunning(s));
            }
            SgeLatencyBenchmark qsub = new SgeLatencyBenchmark(grid, s.name(), KoalaHome.dir(), InstantSource.system(),
                    System.out);
            return new PlainSubmit("SGE", "qsub", "qsub -sync y on " + s.name(), qsub::qsubToRunning);
        }
    }

    /** {@code sbatch --wait} of a trivial job on a Slurm site, as the site's account: submit to the job's start. */
    private static double sbatchToRunning(koala.grid.SiteConfig site) {
        Path stamp = koala.grid.Accounts.directoryOf(site.agentUser(), "koala-bench-" + Long.toHexString(
                System.nanoTime())).resolve("sbatch");
        // the bench's pace, nothing awaited: Slurm allocates a batch job submitted just after another ended in the
        // pass that end starts (tens of ms), else in its periodic pass (up to seconds later); the grow's pilot is
        // submitted seconds after the last end, and so is this job
        pace(Duration.ofSeconds(2));
        Instant submitted = CLOCK.instant();
        koala.testbed.LocalUser.run(site, "sbatch", "--wait", "--parsable", "-J", "bench-sbatch", "-o",
                stamp.toString(), "--wrap", "/bin/date +%s%N");
        return Duration.between(submitted, SgeLatencyBenchmark.readStamp(stamp)).toNanos() / 1e6;
    }

    private static void pace(Duration gap) {
        try {
            Thread.sleep(gap.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Whether a scheduler answers at {@code client}'s address. */
    static boolean reachable(SchedulerClient client) {
        try {
            client.sites();
            return true;
        } catch (ApiException e) {
            return false;
        }
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
