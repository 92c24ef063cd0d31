package koala.experiments;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import koala.api.scheduler.SchedulerClient;
import koala.arbitration.ArbitrationSettings;
import koala.arbitration.PerformanceWindow;
import koala.arbitration.ShareRule;
import koala.cli.Koala;
import koala.cli.TestbedUser;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.provisioning.PolicyKind;
import koala.provisioning.ProvisioningSettings;
import koala.scheduler.SchedulerDaemon;
import koala.sim.Generators;
import koala.sim.GrowDelay;
import koala.sim.SimGrid;
import koala.sim.Simulation;
import koala.sim.TenantMetrics;
import koala.sim.TimeScale;
import koala.sim.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code koala experiment sharing-testbed}: three instances of the reference framework at once on
 * one cell of the real testbed, under {@code fcfs} and under {@code fair} with the bounds the
 * simulator found best, beside the simulator's prediction for the very same workloads, grid and
 * settings (the scheduler's own arbitration code in virtual time). The cell's nodes less the
 * instances' masters and orchestrator nodes are the worker nodes shared out.
 */
@Command(name = "sharing-testbed", mixinStandardHelpOptions = true,
        description = {"Three instances of the reference framework at once on one testbed cell (default fs0, 16 nodes: "
                + "10 worker nodes once the three masters and orchestrator nodes are placed): rl-a and rl-b, OnDemand "
                + "with F_max 8, on W_rl in waves out of phase (compressed --scale times, at --rate of the paper's "
                + "arrival rate, 1.6x and 0.4x in turn every --wave minutes), and static, Static with 4 workers on W_rl "
                + "at half that rate. Each policy of --policies runs them on a scheduler of its own; the "
                + "simulator runs the same workloads on 10 worker nodes with the same settings and the O_grow "
                + "measured. Prints and writes (sharing-testbed.csv) each instance's share of RLs lost (rejected or "
                + "killed), the worst/best ratio of 1/(1-lost), utilization and nodes taken back, real beside "
                + "simulated. Needs the testbed up. About --minutes + 2 minutes per policy."})
final class TestbedSharing implements Callable<Integer> {
    /** One instance of the experiment. */
    private record Member(String name, PolicyKind policy, int initial, int fMax, Workload workload) {
    }

    /** What one instance got on the testbed. */
    private record Real(String name, long offered, long lost, double busySeconds, long takenBack) {
        double lostPercent() {
            return offered == 0 ? 0 : 100.0 * lost / offered;
        }
    }

    @Option(names = "--minutes", defaultValue = "8", description = "minutes of arrivals per policy (default: "
            + "${DEFAULT-VALUE})")
    double minutes;

    @Option(names = "--policies", split = ",", defaultValue = "fcfs,fair", description = "fcfs, fair (with patience "
            + "and an hourly bound scaled like the workload), static-partition, performance (default: ${DEFAULT-VALUE})")
    List<String> policies;

    @Option(names = "--site", defaultValue = "fs0", description = "the cell shared (default: ${DEFAULT-VALUE})")
    String site;

    @Option(names = "--scale", defaultValue = "10", description = "time compression of W_rl (default: ${DEFAULT-VALUE})")
    double scale;

    @Option(names = "--rate", defaultValue = "0.3", description = "rl-a's and rl-b's mean arrival rate, a fraction of "
            + "the paper's (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--wave", defaultValue = "4", description = "minutes of one wave of rl-a and rl-b, compressed "
            + "(default: ${DEFAULT-VALUE})")
    double wave;

    @Option(names = "--seed", defaultValue = "1", description = "the workloads' seed (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--out", defaultValue = "results", description = "results folder (default: ${DEFAULT-VALUE})")
    Path out;

    private static final int MASTERS_AND_ORCHESTRATORS = 6;

    @Override
    public Integer call() throws Exception {
        PrintStream o = System.out;
        Path gridFile = KoalaHome.gridConfig();
        if (!Files.isReadable(gridFile)) {
            o.println("koala: no grid configuration at " + gridFile + "; bring the testbed up (bin/koala testbed up)");
            return Koala.FAILURE;
        }
        GridConfig testbed = GridConfig.load(gridFile);
        int nodes = testbed.sites().stream().filter(s -> s.name().equals(site)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("--site: no site " + site + " in " + gridFile)).nodes();
        int capacity = nodes - MASTERS_AND_ORCHESTRATORS;
        TestbedSetup setup = new TestbedSetup(scale, 8, 4, 2, 0.1);
        List<Member> members = members(setup);
        describe(o, setup, members, capacity);
        Map<String, List<Real>> real = new LinkedHashMap<>();
        Map<String, Double> utilization = new LinkedHashMap<>();
        List<Double> grows = new ArrayList<>();
        for (String name : policies) {
            ArbitrationSettings arbitration = arbitration(name.strip());
            o.printf("%n%s on the testbed: %s%n", name.strip(), arbitration.describe());
            Path config = config(gridFile, arbitration);
            GridConfig grid = GridConfig.load(config);
            List<Real> got = new ArrayList<>();
            try (SchedulerDaemon scheduler = SchedulerDaemon.start(grid, KoalaHome.dir())) {
                SchedulerClient client = TestbedUser.client(grid);
                List<TestbedRun.Result> results = runAll(client, config, setup, members, o);
                for (int i = 0; i < members.size(); i++) {
                    TestbedRun.Result r = results.get(i);
                    grows.addAll(r.growTimes());
                    got.add(new Real(members.get(i).name(), r.figures().applications(), r.figures().rejected()
                            + r.failed(), r.figures().busyIdleSeconds()[0], takenBack(r.runnerLog())));
                }
            }
            real.put(name.strip(), got);
            double window = members.get(0).workload().length().toSeconds();
            utilization.put(name.strip(), 100 * got.stream().mapToDouble(Real::busySeconds).sum() / (capacity * window));
        }
        double oGrow = grows.isEmpty() ? 1 : GrowBenchCommand.median(grows);
        o.printf(Locale.ROOT, "%nO_grow measured (grow request to worker joined): median %.2f s of %d workers%n", oGrow,
                grows.size());
        report(o, members, real, utilization, capacity, setup, oGrow);
        return 0;
    }

    /** rl-a and rl-b in waves out of phase, static on a light W_rl: compressed, extended so the last RLs finish. */
    private List<Member> members(TestbedSetup setup) {
        TimeScale t = new TimeScale(scale);
        Generators.RlParameters rl = setup.workload();
        Generators.RlParameters light = rl.withBatchRate(rl.batchRate() * rate);
        Duration length = Duration.ofMillis(Math.round(minutes * 60_000 * scale));
        Duration period = Duration.ofMillis(Math.round(wave * 60_000 * scale));
        Duration tail = t.compress(rl.rlDuration()).plus(setup.samplePeriod().multipliedBy(2));
        Workload a = TimeScale.extended(t.compress(Generators.rlWaves(light, period, 0.6, 0, length, seed)), tail);
        Workload b = TimeScale.extended(t.compress(Generators.rlWaves(light, period, 0.6, 0.5, length, seed + 1000)), tail);
        Workload s = TimeScale.extended(t.compress(Generators.rl(rl.withBatchRate(rl.batchRate() * rate / 2), length,
                seed + 3000)), tail);
        return List.of(new Member("rl-a", PolicyKind.ONDEMAND, 0, 8, a), new Member("rl-b", PolicyKind.ONDEMAND, 0, 8, b),
                new Member("static", PolicyKind.STATIC, 4, 4, s));
    }

    /**
     * The policy with the bounds the simulator found best (docs/sharing.md: patience 60 s, at most 6
     * nodes an hour from one instance), their times compressed like the workload's.
     */
    private ArbitrationSettings arbitration(String name) {
        ShareRule rule = ShareRule.byName(name).orElseThrow(() -> new IllegalArgumentException("--policies: " + name
                + " is not one of " + ShareRule.names()));
        ArbitrationSettings s = ArbitrationSettings.of(rule).withRoundPeriod(Duration.ofSeconds(2))
                .withWindow(seconds(300 / scale));
        return rule == ShareRule.FAIR ? s.withPatience(seconds(60 / scale)).withMaxPerHour((int) Math.round(6 * scale)) : s;
    }

    private static Duration seconds(double s) {
        return Duration.ofSeconds(Math.max(1, Math.round(s)));
    }

    /** The testbed's grid with only the shared cell, and a scheduler of the experiment's own with this policy. */
    private Path config(Path gridFile, ArbitrationSettings a) throws IOException {
        Path dir = Files.createTempDirectory("koala-sharing-testbed-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Map<String, String> own = new LinkedHashMap<>();
        own.put("grid.sites", site);
        own.put("scheduler.port", Integer.toString(freePort()));
        own.put("scheduler.socket", dir.resolve("scheduler.sock").toString());
        own.put("scheduler.database", dir.resolve("koala").toString());
        own.put("scheduler.arbitration.policy", a.rule().toString());
        own.put("scheduler.arbitration.round", Long.toString(a.roundPeriod().toSeconds()));
        own.put("scheduler.arbitration.window", Long.toString(a.window().toSeconds()));
        own.put("scheduler.arbitration.patience", Long.toString(a.patience().toSeconds()));
        own.put("scheduler.arbitration.maxPerHour", Integer.toString(a.maxPerHour()));
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(gridFile)) {
            if (!own.containsKey(line.split("=", 2)[0].trim())) {
                lines.add(line);
            }
        }
        own.forEach((k, v) -> lines.add(k + " = " + v));
        Path file = dir.resolve("grid.properties");
        Files.write(file, lines);
        return file;
    }

    private static int freePort() {
        return koala.common.net.FreePort.any();
    }

    /** The three instances at once, each deployed, fed its workload and ended by a run of its own. */
    private static List<TestbedRun.Result> runAll(SchedulerClient client, Path config, TestbedSetup setup,
                                                  List<Member> members, PrintStream o) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(members.size());
        try {
            List<Future<TestbedRun.Result>> runs = new ArrayList<>();
            for (Member m : members) {
                TestbedRun run = new TestbedRun(client, config, setup, InstantSource.system(), new Prefixed(o, m.name()));
                runs.add(pool.submit(() -> run.run("share-" + m.name(), m.policy(), m.initial(), m.fMax(),
                        setup.jdfAttributes(m.policy(), Runtime.getRuntime().availableProcessors()), m.workload())));
            }
            List<TestbedRun.Result> results = new ArrayList<>();
            for (Future<TestbedRun.Result> f : runs) {
                results.add(f.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Worker nodes the runner lost to the grid's arbitration: taken back, or given back when asked. */
    static long takenBack(Path runnerLog) throws IOException {
        long n = 0;
        for (String line : Files.readAllLines(runnerLog)) {
            if (line.contains("taken back by the grid's arbitration")) {
                n++;
            } else if (line.contains("\"kind\":\"RELEASE\"") && line.contains("given back at the grid's request")) {
                n += line.replaceAll(".*\"nodes\":\\[([^]]*)].*", "$1").split(",").length;
            }
        }
        return n;
    }

    private void report(PrintStream o, List<Member> members, Map<String, List<Real>> real,
                        Map<String, Double> utilization, int capacity, TestbedSetup setup, double oGrow) throws IOException {
        List<String> csv = new ArrayList<>(List.of("policy,instance,offered,lost_percent_real,lost_percent_sim,"
                + "taken_back_real,taken_back_sim"));
        List<String> summary = new ArrayList<>();
        List<Double> alone = alone(members, setup, oGrow);
        o.printf(Locale.ROOT, "%nalone (simulated, on a grid that never refuses it): %s%n", java.util.stream.IntStream
                .range(0, members.size()).mapToObj(i -> String.format(Locale.ROOT, "%s %.1f%% lost", members.get(i)
                        .name(), alone.get(i))).collect(java.util.stream.Collectors.joining(", ")));
        o.printf("%n%-10s %-8s %8s %11s %11s %12s %12s%n", "policy", "instance", "offered", "lost real", "lost sim",
                "taken real", "taken sim");
        for (Map.Entry<String, List<Real>> e : real.entrySet()) {
            Simulation.Shared sim = simulate(members, arbitration(e.getKey()), capacity, setup, oGrow);
            for (int i = 0; i < members.size(); i++) {
                Real r = e.getValue().get(i);
                TenantMetrics t = sim.tenants().get(i);
                o.printf(Locale.ROOT, "%-10s %-8s %8d %10.1f%% %10.1f%% %12d %12d%n", e.getKey(), r.name(), r.offered(),
                        r.lostPercent(), t.lostPercent(), r.takenBack(), t.takenBack());
                csv.add(String.format(Locale.ROOT, "%s,%s,%d,%.2f,%.2f,%d,%d", e.getKey(), r.name(), r.offered(),
                        r.lostPercent(), t.lostPercent(), r.takenBack(), t.takenBack()));
            }
            List<Double> lostReal = e.getValue().stream().map(Real::lostPercent).toList();
            List<Double> lostSim = sim.tenants().stream().map(TenantMetrics::lostPercent).toList();
            summary.add(String.format(Locale.ROOT, "%-10s ratio %.2f (simulated %.2f), normalised by each alone %.2f "
                    + "(simulated %.2f), utilization %.1f%% (simulated %.1f%%)", e.getKey(), ratio(lostReal, null),
                    ratio(lostSim, null), ratio(lostReal, alone), ratio(lostSim, alone), utilization.get(e.getKey()),
                    sim.utilization()));
        }
        o.println();
        summary.forEach(o::println);
        Files.createDirectories(out);
        Files.write(out.resolve("sharing-testbed.csv"), csv);
        Files.write(out.resolve("sharing-testbed-summary.txt"), summary);
        o.println("\nresults in " + out.toAbsolutePath());
    }

    /** The same workloads on {@code capacity} worker nodes, arbitrated alike, with the O_grow measured. */
    private Simulation.Shared simulate(List<Member> members, ArbitrationSettings arbitration, int capacity,
                                       TestbedSetup setup, double oGrow) {
        Simulation sim = new Simulation(new SimGrid(List.of(capacity), SimGrid.Background.NONE, seed), seed)
                .floorKeeping(Simulation.FloorKeeping.WHEN_NEEDED).arbitrated(arbitration);
        GrowDelay delay = GrowDelay.fixed(Duration.ofMillis(Math.round(oGrow * 1000)));
        java.time.Instant end = Workload.START;
        for (Member m : members) {
            ProvisioningSettings s = setup.settings(m.policy()).asLayer().withFMax(m.fMax())
                    .withInitialWorkers(m.initial()).toSettings();
            sim.instance(m.name(), m.workload(), s, delay, "fs0");
            end = end.isAfter(Workload.START.plus(m.workload().length())) ? end : Workload.START.plus(m.workload().length());
        }
        return sim.runShared(end);
    }

    /** Each member alone on a grid that never refuses it (F_max + 10 nodes), same workload: percent lost. */
    private List<Double> alone(List<Member> members, TestbedSetup setup, double oGrow) {
        List<Double> lost = new ArrayList<>();
        GrowDelay delay = GrowDelay.fixed(Duration.ofMillis(Math.round(oGrow * 1000)));
        for (Member m : members) {
            ProvisioningSettings s = setup.settings(m.policy()).asLayer().withFMax(m.fMax())
                    .withInitialWorkers(m.initial()).toSettings();
            lost.add(new Simulation(SimGrid.single(m.fMax() + 10), seed).instance(m.name(), m.workload(), s, delay, "fs0")
                    .runShared(Workload.START.plus(m.workload().length())).tenants().get(0).lostPercent());
        }
        return lost;
    }

    /** Worst over best of 1 / (1 − lost), each divided by the same instance's alone when {@code alone} is given. */
    private static double ratio(List<Double> lostPercents, List<Double> alone) {
        List<Double> figures = new ArrayList<>();
        for (int i = 0; i < lostPercents.size(); i++) {
            double f = PerformanceWindow.stretch(Math.min(1, lostPercents.get(i) / 100));
            figures.add(alone == null ? f : f / PerformanceWindow.stretch(Math.min(1, alone.get(i) / 100)));
        }
        return figures.stream().mapToDouble(Double::doubleValue).max().orElse(1)
                / figures.stream().mapToDouble(Double::doubleValue).min().orElse(1);
    }

    private void describe(PrintStream o, TestbedSetup setup, List<Member> members, int capacity) {
        o.printf(Locale.ROOT, "Three instances of the reference framework on %s: %d worker nodes shared once the masters "
                + "and orchestrator nodes are placed; W_rl compressed %sx (RLs of %d s), seed %d%n", site, capacity,
                TestbedReport.num(scale), Math.round(setup.workload().rlDuration().toSeconds() / scale), seed);
        for (Member m : members) {
            o.printf(Locale.ROOT, "  %-7s %-9s initial %d  F_max %d  %d RLs in %d batches over %d s%n", m.name(),
                    m.policy(), m.initial(), m.fMax(), m.workload().applications(), m.workload().jobs().size(),
                    m.workload().length().toSeconds());
        }
    }

    /** Another stream's lines, each headed by an instance's name: three runs print at once. */
    private static final class Prefixed extends PrintStream {
        Prefixed(PrintStream to, String name) {
            super(new java.io.OutputStream() {
                private final StringBuilder line = new StringBuilder();

                @Override
                public synchronized void write(int b) {
                    if (b == '\n') {
                        to.println("[" + name + "] " + line);
                        line.setLength(0);
                    } else {
                        line.append((char) b);
                    }
                }
            }, true);
        }
    }
}
