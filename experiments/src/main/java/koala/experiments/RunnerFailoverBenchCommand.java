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
import koala.cli.RunnerLaunch;
import koala.cli.TestbedCommand;
import koala.cli.TestbedUser;
import koala.common.time.Poll;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.http.ApiException;
import koala.http.JsonHttpClient;
import koala.scheduler.SchedulerDaemon;
import koala.testbed.Testbed;
import koala.testbed.TestbedPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "runner-failover", mixinStandardHelpOptions = true,
        description = {"Kills a framework instance's runner (SIGKILL) again and again on the testbed and measures the "
                + "time from each kill until the instance is served again: its RPC status answers at the same address "
                + "with the same token, from the runner the scheduler started in the dead one's place. Checks that "
                + "every entity stays on its node (the same SGE pilots throughout). Target: median within 5 s."})
final class RunnerFailoverBenchCommand implements Callable<Integer> {
    private static final Duration TARGET = Duration.ofSeconds(5);
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final InstantSource CLOCK = InstantSource.system();

    @Option(names = "--kills", defaultValue = "20", description = "runner kills measured (default: ${DEFAULT-VALUE})")
    int kills;

    @Override
    public Integer call() throws Exception {
        if (kills < 1) {
            throw new IllegalArgumentException("--kills must be at least 1");
        }
        Testbed testbed = TestbedCommand.testbed(System.out);
        testbed.up(testbed.keepingStandbyHost(TestbedPlan.of(null, List.of(), 1, null)));
        // a scheduler of this build's own, whatever else runs: it is the one whose supervisor is measured
        GridConfig grid = GridConfig.load(ownConfig(testbed.gridConfig()));
        SchedulerDaemon own = SchedulerDaemon.start(grid, KoalaHome.dir());
        SchedulerClient client = TestbedUser.client(grid);
        Path jdf = Files.createTempFile("koala-bench-failover-", ".jdf");
        try {
            Files.writeString(jdf, "+( &(jobType = framework)(name = bench-failover)(role = master)(count = 1)"
                    + "(executable = /bin/sleep)(arguments = 100000)(provisioning = static)(samplePeriod = 2) )"
                    + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100000) )"
                    + " ( &(role = worker)(count = 2)(executable = /bin/sleep)(arguments = 100000) )");
            RunnerLaunch.Launched runner = RunnerLaunch.start(jdf, grid.file(), client);
            try {
                return measure(client, runner);
            } finally {
                client.closeAllocation(runner.instance());
                runner.awaitExit(Duration.ofSeconds(15));
            }
        } finally {
            Files.deleteIfExists(jdf);
            own.close();
        }
    }

    /**
     * The testbed's grid configuration with a database, socket and port of this bench's own (in a
     * new directory the site agents' accounts can read).
     */
    private static Path ownConfig(Path testbedConfig) throws java.io.IOException {
        Path dir = Files.createTempDirectory("koala-bench-failover-", java.nio.file.attribute.PosixFilePermissions
                .asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x")));
        int port = koala.common.net.FreePort.any();
        java.util.Map<String, String> own = java.util.Map.of("scheduler.port", Integer.toString(port),
                "scheduler.database", dir.resolve("koala").toString(),
                "scheduler.socket", dir.resolve("scheduler.sock").toString(),
                "site.fs2.ssh.dir", ".koala-bench-" + ProcessHandle.current().pid());
        List<String> lines = new ArrayList<>(Files.readAllLines(testbedConfig).stream()
                .filter(l -> !own.containsKey(l.split("=", 2)[0].trim())).toList());
        own.forEach((k, v) -> lines.add(k + " = " + v));
        Path file = dir.resolve("grid.properties");
        Files.write(file, lines);
        Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
        return file;
    }

    private int measure(SchedulerClient client, RunnerLaunch.Launched runner) {
        RunnerClient rpc = runner.client();
        awaitAllRunning(rpc, 4);
        List<String> pilots = pilots(client, runner.instance());
        System.out.printf("instance %d: 4 nodes on pilots %s; killing its runner %d times%n", runner.instance(), pilots,
                kills);
        List<Double> took = new ArrayList<>();
        for (int i = 1; i <= kills; i++) {
            long pid = health(runner).pid();
            Instant killed = CLOCK.instant();
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            RunnerMessages.Status[] served = new RunnerMessages.Status[1];
            if (!new Poll(CLOCK, Duration.ofMillis(20)).until(() -> (served[0] = status(rpc)) != null, WAIT)) {
                throw new IllegalStateException("instance " + runner.instance() + " not served within "
                        + WAIT.toSeconds() + " s of kill " + i);
            }
            double ms = Duration.between(killed, CLOCK.instant()).toNanos() / 1e6;
            took.add(ms);
            System.out.printf("  kill %2d  runner %7d -> %7d  served again after %6.0f ms  (%s, %d entities)%n", i, pid,
                    health(runner).pid(), ms, served[0].state(), served[0].entities().size());
            awaitAllRunning(rpc, 4);
        }
        List<String> after = pilots(client, runner.instance());
        double median = GrowBenchCommand.median(took);
        double worst = took.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        System.out.printf("%nrunner failover, %d kills: median %.0f ms, worst %.0f ms; target median <= %d ms: %s%n",
                kills, median, worst, TARGET.toMillis(), median <= TARGET.toMillis() ? "met" : "NOT met");
        System.out.printf("  the same pilots throughout (none killed, none submitted again): %s%n",
                after.equals(pilots) ? "yes" : "NO: " + after);
        System.out.printf("  machine: %d cores, load average %s%n", Runtime.getRuntime().availableProcessors(),
                loadAverage());
        return after.equals(pilots) ? 0 : 1;
    }

    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    private static RunnerMessages.Health health(RunnerLaunch.Launched runner) {
        return JsonHttpClient.shortLived(runner.url(), Duration.ofSeconds(2)).get("/health",
                RunnerMessages.Health.class);
    }

    private static RunnerMessages.Status status(RunnerClient rpc) {
        try {
            return rpc.status();
        } catch (ApiException e) {
            return null;
        }
    }

    /** Every entity running again: each launcher has reached the new runner. */
    private static void awaitAllRunning(RunnerClient rpc, int count) {
        if (!new Poll(CLOCK, Duration.ofMillis(200)).until(() -> {
            RunnerMessages.Status s = status(rpc);
            return s != null && s.entities().size() == count && s.entities().stream()
                    .allMatch(e -> e.state().equals("RUNNING"));
        }, WAIT)) {
            throw new IllegalStateException("the instance's " + count + " entities are not all running");
        }
    }

    private static List<String> pilots(SchedulerClient client, long instance) {
        return client.job(instance).nodes().stream().filter(n -> n.state().equals("RUNNING"))
                .map(n -> n.id() + "=" + n.pilot()).sorted().toList();
    }
}
