package koala.experiments;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import koala.api.scheduler.AllocationRequest;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.JobView;
import koala.api.scheduler.ReleaseRequest;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SubmitRequest;
import koala.cli.TestbedCommand;
import koala.common.net.FreePort;
import koala.common.time.Poll;
import koala.grid.GridConfig;
import koala.http.ApiException;
import koala.scheduler.SchedulerChild;
import koala.testbed.LocalUser;
import koala.testbed.PostgresServer;
import koala.testbed.Testbed;
import koala.testbed.TestbedPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "failover", mixinStandardHelpOptions = true,
        description = {"Two schedulers on one PostgreSQL store (a server of the bench's own) on the testbed: kills the "
                + "leader (SIGKILL) again and again while jobs are submitted and a framework instance grows and shrinks "
                + "through a client of both, and measures the time from each kill to the first answer served by the "
                + "standby that took over (the instance's allocation's state), and to a list of all jobs. The killed scheduler is started again as the next standby. At the end: "
                + "requests lost (a submit or grow the client gave up on, or acknowledged and not kept), duplicate "
                + "jobs (two of one request), and pilots == nodes. Goals: median <= 5 s, worst <= 10 s, none lost, "
                + "none duplicated."})
final class FailoverBenchCommand implements Callable<Integer> {
    private static final InstantSource CLOCK = InstantSource.system();
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final double MEDIAN_GOAL = 5;
    private static final double WORST_GOAL = 10;

    @Option(names = "--take-overs", defaultValue = "20", description = "leader kills measured (default: ${DEFAULT-VALUE})")
    int takeOvers;

    @Option(names = "--submits-per-second", defaultValue = "4",
            description = "the steady load of submissions (default: ${DEFAULT-VALUE})")
    int rate;

    /** Every scheduler process the bench started: stopped when it ends, also when it fails. */
    private final List<Scheduler> started = new ArrayList<>();

    /** One of the bench's schedulers: its configuration, and the READY line it prints once it leads. */
    private record Scheduler(String name, Path config, SchedulerChild child) {
        Process process() {
            return child.process();
        }

        CompletableFuture<String> ready() {
            return child.ready();
        }
    }

    /** Starts a scheduler on {@code config} (again, after its kill, on the same one). */
    private Scheduler start(String name, Path config) throws Exception {
        Path log = config.resolveSibling("scheduler-" + name + ".log");
        Scheduler s = new Scheduler(name, config, SchedulerChild.start(config,
                ProcessBuilder.Redirect.appendTo(log.toFile())));
        started.add(s);
        return s;
    }

    private void stopStarted() throws InterruptedException {
        for (Scheduler s : started) {
            s.process().destroy();
        }
        for (Scheduler s : started) {
            if (!s.process().waitFor(30, TimeUnit.SECONDS)) {
                s.process().destroyForcibly();
            }
        }
        started.clear();
    }

    /** What the load made and what became of it. */
    private static final class Load {
        final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
        final AtomicInteger givenUp = new AtomicInteger();
        final AtomicInteger grows = new AtomicInteger();
        final AtomicInteger growsGivenUp = new AtomicInteger();
        final AtomicBoolean stop = new AtomicBoolean();
        final List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    }

    @Override
    public Integer call() throws Exception {
        if (takeOvers < 1 || rate < 1) {
            throw new IllegalArgumentException("--take-overs and --submits-per-second must be at least 1");
        }
        if (!PostgresServer.installed()) {
            throw new IllegalStateException("PostgreSQL is not installed (the Debian package postgresql)");
        }
        Testbed testbed = TestbedCommand.testbed(System.out);
        testbed.up(testbed.keepingStandbyHost(TestbedPlan.of(null, List.of(), 1, null)));
        Path dir = Files.createTempDirectory("koala-bench-failover-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Path pgDir = Files.createTempDirectory("koala-bench-failover-pg-");
        try (PostgresServer pg = PostgresServer.start(pgDir, FreePort.any(), List.of("127.0.0.1"), List.of(), List.of())) {
            String password = password();
            pg.createDatabase("koala_failover", "koala", password);
            Path passwordFile = dir.resolve("database.password");
            Files.writeString(passwordFile, password + "\n");
            Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-------"));
            int portA = FreePort.any();
            int portB = FreePort.any();
            String host = GridConfig.load(testbed.gridConfig()).hostAddress().orElse("127.0.0.1");
            String addresses = "http://" + host + ":" + portA + ", http://" + host + ":" + portB;
            Path configA = config(testbed.gridConfig(), dir.resolve("a"), portA, pg, passwordFile, addresses);
            Path configB = config(testbed.gridConfig(), dir.resolve("b"), portB, pg, passwordFile, addresses);
            return measure(GridConfig.load(configA), GridConfig.load(configB), configA, configB);
        } finally {
            stopStarted();
            delete(pgDir);
        }
    }

    private int measure(GridConfig gridA, GridConfig gridB, Path configA, Path configB) throws Exception {
        Scheduler leader = start("a", configA);
        leader.ready().get(WAIT.toSeconds(), TimeUnit.SECONDS);
        Scheduler standby = start("b", configB);
        SchedulerClient client = SchedulerClient.following(List.of(gridA.schedulerAddress(), gridB.schedulerAddress()))
                .actingFor("koala");
        awaitStandby(new SchedulerClient(gridB.schedulerAddress()).actingFor("koala"), standby);
        long allocation = client.allocate(new AllocationRequest("bench-failover")).id();
        Load load = new Load();
        List<Thread> threads = List.of(submitter(client, load), grower(client, allocation, load));
        threads.forEach(Thread::start);
        List<double[]> took = new ArrayList<>();
        try {
            System.out.printf("two schedulers on PostgreSQL; %d submits/s and a grow or release every 2 s through a "
                    + "client of both; killing the leader %d times%n", rate, takeOvers);
            System.out.println("  take-over  killed         led after  first answer after  all jobs listed after");
            for (int i = 1; i <= takeOvers; i++) {
                Thread.sleep(3_000); // the steady load runs a while under each leader: the bench's pace, nothing awaited
                long killed = System.nanoTime();
                leader.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                standby.ready().get(WAIT.toSeconds(), TimeUnit.SECONDS);
                double led = (System.nanoTime() - killed) / 1e9;
                awaitAnswer(() -> client.job(allocation));
                double answered = (System.nanoTime() - killed) / 1e9;
                awaitAnswer(client::jobs);
                double listed = (System.nanoTime() - killed) / 1e9;
                took.add(new double[] {led, answered, listed});
                System.out.printf("  %9d  scheduler %s  %7.2f s  %16.2f s  %19.2f s%n", i, leader.name(), led, answered,
                        listed);
                Scheduler next = start(leader.name(), leader.config());
                leader = standby;
                standby = next;
                awaitStandby(new SchedulerClient(GridConfig.load(standby.config()).schedulerAddress()).actingFor("koala"),
                        standby);
            }
        } catch (Exception e) {
            load.stop.set(true);
            closeQuietly(client, allocation);
            throw e;
        } finally {
            load.stop.set(true);
            for (Thread t : threads) {
                t.join(WAIT.toMillis());
            }
        }
        return report(client, allocation, gridA, took, load);
    }

    /** A failed run's allocation closed, so that its pilots do not outlive the bench (a stopped scheduler leaves them). */
    private static void closeQuietly(SchedulerClient client, long allocation) {
        try {
            client.closeAllocation(allocation);
        } catch (RuntimeException e) {
            System.err.println("bench failover: could not close allocation " + allocation + ": " + e.getMessage());
        }
    }

    private Thread submitter(SchedulerClient client, Load load) {
        Thread t = new Thread(() -> {
            long every = 1000L / rate;
            for (int n = 1; !load.stop.get(); n++) {
                String name = "failover-load-" + n;
                String site = n % 2 == 0 ? "fs0" : "fs1";
                try {
                    JobView job = client.submit(new SubmitRequest(name, "&(resourceManagerContact = \"" + site
                            + "\")(count = 1)(executable = \"/bin/true\")"));
                    load.acknowledged.put(name, job.id());
                } catch (ApiException e) {
                    load.givenUp.incrementAndGet();
                    load.failures.add(name + ": " + e.getMessage());
                }
                pause(every);
            }
        }, "bench-submits");
        t.setDaemon(true);
        return t;
    }

    /** Grows the instance by a worker every 2 s up to 3, then releases one: grows and shrinks under every leader. */
    private Thread grower(SchedulerClient client, long allocation, Load load) {
        Thread t = new Thread(() -> {
            while (!load.stop.get()) {
                try {
                    List<String> held = client.heldNow(allocation).nodes().stream().map(n -> n.id()).toList();
                    if (held.size() < 3) {
                        client.grow(allocation, new GrowRequest(1, "worker", "/bin/sleep", List.of("600"), Map.of(), "fs0"));
                        load.grows.incrementAndGet();
                    } else {
                        client.release(allocation, new ReleaseRequest(List.of(held.get(0)), "the bench shrinks"));
                    }
                } catch (ApiException e) {
                    load.growsGivenUp.incrementAndGet();
                    load.failures.add("grow or release: " + e.getMessage());
                }
                pause(2_000);
            }
        }, "bench-grows");
        t.setDaemon(true);
        return t;
    }

    private int report(SchedulerClient client, long allocation, GridConfig grid, List<double[]> took, Load load)
            throws Exception {
        List<JobView> jobs = client.jobs();
        Map<String, Long> byName = new java.util.HashMap<>();
        int duplicates = 0;
        for (JobView j : jobs) {
            if (j.name() != null && j.name().startsWith("failover-load-") && byName.put(j.name(), j.id()) != null) {
                duplicates++;
            }
        }
        long notKept = load.acknowledged.entrySet().stream().filter(e -> !e.getValue().equals(byName.get(e.getKey())))
                .count();
        List<String> held = client.heldNow(allocation).nodes().stream().map(n -> n.pilot()).sorted().toList();
        List<String> pilots = pilotsOf(grid, allocation);
        List<Double> led = took.stream().map(t -> t[0]).toList();
        List<Double> answered = took.stream().map(t -> t[1]).toList();
        List<Double> listed = took.stream().map(t -> t[2]).toList();
        double median = GrowBenchCommand.median(answered);
        double worst = answered.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        int lost = load.givenUp.get() + load.growsGivenUp.get() + (int) notKept;
        System.out.printf("%nfailover, %d take-overs: first answer after a kill: median %.2f s, worst %.2f s (goals "
                + "<= %.0f s, <= %.0f s: %s); led after: median %.2f s%n", took.size(), median, worst, MEDIAN_GOAL,
                WORST_GOAL, median <= MEDIAN_GOAL && worst <= WORST_GOAL ? "met" : "NOT met", GrowBenchCommand.median(led));
        System.out.printf("  all %d jobs listed after a kill: median %.2f s, worst %.2f s%n", jobs.size(),
                GrowBenchCommand.median(listed), listed.stream().mapToDouble(Double::doubleValue).max().orElse(0));
        System.out.printf("  submits acknowledged %d, given up %d, acknowledged but not kept %d; grows %d, grows or "
                + "releases given up %d; duplicate jobs %d%n", load.acknowledged.size(), load.givenUp.get(), notKept,
                load.grows.get(), load.growsGivenUp.get(), duplicates);
        load.failures.stream().limit(10).forEach(f -> System.out.println("    " + f));
        System.out.printf("  the instance's nodes %d, its pilots in SGE %d: %s%n", held.size(), pilots.size(),
                held.size() == pilots.size() ? "equal" : "NOT equal");
        System.out.printf("  machine: %d cores, load average %s%n", Runtime.getRuntime().availableProcessors(),
                Files.readString(Path.of("/proc/loadavg")).strip());
        client.closeAllocation(allocation);
        return lost == 0 && duplicates == 0 && held.size() == pilots.size() ? 0 : 1;
    }

    private static List<String> pilotsOf(GridConfig grid, long job) {
        List<String> found = new ArrayList<>();
        for (var site : grid.sites()) {
            String xml = LocalUser.run(site, "qstat", "-xml", "-u", "*");
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("<JB_name>(koala-[a-z0-9]+-" + job
                    + "-[^<]*)</JB_name>").matcher(xml);
            while (m.find()) {
                found.add(m.group(1));
            }
        }
        return found;
    }

    /**
     * Waits for {@code call} to be answered. The first answer is the instance's allocation's state: read on the
     * scheduler's loop like any call, its size the same at every take-over; the list of all jobs, which grows
     * with the bench's own submissions (about 70 per take-over), is timed after it.
     */
    private static void awaitAnswer(Runnable call) {
        if (!new Poll(CLOCK, Duration.ofMillis(20)).until(() -> {
            try {
                call.run();
                return true;
            } catch (ApiException e) {
                return false;
            }
        }, WAIT)) {
            throw new IllegalStateException("no scheduler answered within " + WAIT.toSeconds() + " s of a kill");
        }
    }

    /**
     * Waits until {@code scheduler} stands by: it passes its users' calls on to the leader, whose name (host and
     * pid) it answers with, or answers 503 as a standby while it knows no leader.
     */
    private static void awaitStandby(SchedulerClient standby, Scheduler scheduler) {
        String own = ":" + scheduler.process().pid();
        if (!new Poll(CLOCK, Duration.ofMillis(100)).until(() -> {
            try {
                return !standby.scheduler().name().endsWith(own);
            } catch (ApiException e) {
                return e.status() == 503 && String.valueOf(e.getMessage()).contains(SchedulerClient.STANDBY);
            }
        }, WAIT)) {
            throw new IllegalStateException("the restarted scheduler did not answer as a standby within "
                    + WAIT.toSeconds() + " s");
        }
    }

    /** The testbed's grid configuration with this scheduler's own directory, port and socket, on the shared store. */
    private static Path config(Path testbed, Path dir, int port, PostgresServer pg, Path password, String addresses)
            throws java.io.IOException {
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Map<String, String> own = Map.of("scheduler.port", Integer.toString(port),
                "scheduler.socket", dir.resolve("scheduler.sock").toString(),
                "scheduler.database", pg.jdbcUrl("127.0.0.1", "koala_failover"),
                "scheduler.database.passwordFile", password.toString(),
                "scheduler.addresses", addresses,
                "scheduler.placementInterval", "1",
                "site.fs2.ssh.dir", ".koala-bench-failover-" + ProcessHandle.current().pid());
        List<String> lines = new ArrayList<>(Files.readAllLines(testbed).stream()
                .filter(l -> !own.containsKey(l.split("=", 2)[0].trim())).toList());
        own.forEach((k, v) -> lines.add(k + " = " + v));
        Path file = dir.resolve("grid.properties");
        Files.write(file, lines, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        return file;
    }

    private static String password() {
        String letters = "abcdefghijklmnopqrstuvwxyz0123456789";
        SecureRandom random = new SecureRandom();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 24; i++) {
            b.append(letters.charAt(random.nextInt(letters.length())));
        }
        return b.toString();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis); // the load's pace: a rate, not a wait for anything
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void delete(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (java.io.IOException ignored) {
            // a temporary directory: the system's to clean up then
        }
    }
}
