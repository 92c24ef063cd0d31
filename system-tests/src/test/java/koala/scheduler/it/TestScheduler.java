package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.JobView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SubmitRequest;
import koala.common.time.Poll;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.jdf.ClusterCatalog;
import koala.jdf.JdfParser;
import koala.runner.RunnerMain;
import koala.scheduler.SchedulerDaemon;
import koala.testbed.LocalUser;
import koala.testbed.Progress;
import koala.testbed.Testbed;
import koala.testbed.TestbedPlan;
import koala.testbed.TestbedStatus;
import org.awaitility.Awaitility;

/**
 * A scheduler on the real testbed for one test class: its own database and port, the testbed's
 * sites, and settings made quick for tests. The classes that need no settings of their own
 * ({@link SharesScheduler}) share one ({@link #shared}).
 */
final class TestScheduler implements AutoCloseable {
    /** The scheduler the classes marked {@link SharesScheduler} share; null while none runs. */
    private static TestScheduler shared;

    private final SchedulerDaemon daemon;
    private final Path config;
    private final boolean isShared;
    /** The shared scheduler's file as it started; its lines with a class's live settings on top while one runs. */
    private List<String> baseConfig;
    private boolean retuned;

    private TestScheduler(SchedulerDaemon daemon, Path config, boolean isShared) {
        this.daemon = daemon;
        this.config = config;
        this.isShared = isShared;
    }

    static TestScheduler start(Map<String, String> overrides) throws IOException {
        Path config = config(overrides);
        return new TestScheduler(SchedulerDaemon.start(GridConfig.load(config), KoalaHome.dir()), config, false);
    }

    /**
     * The scheduler of the classes that need no settings of their own, started by the first of them and
     * kept for the next (a scheduler's start and stop cost a class 10-12 s; the suite runs these classes
     * one after another, {@link SharesSchedulerFirst}). Closing it ends what the class ran and leaves it
     * running; a class that starts a scheduler of its own stops it first ({@link #config}), so that one
     * scheduler at a time drives the testbed. One that no longer answers is replaced.
     */
    static synchronized TestScheduler shared() throws IOException {
        if (shared != null && !shared.answers()) {
            System.err.println("the shared test scheduler no longer answers: starting another");
            stopShared();
        }
        if (shared == null) {
            Path config = config(Map.of());
            shared = new TestScheduler(SchedulerDaemon.start(GridConfig.load(config), KoalaHome.dir()), config, true);
        }
        return shared;
    }

    /**
     * The shared scheduler with {@code live} on top of its configuration, taken as an admin's reload takes an
     * edited file: only keys a running scheduler applies at once ({@code scheduler.placementTries},
     * {@code scheduler.maxQueuedPerUser}, {@code scheduler.arbitration.*}, ...). Closing it puts the
     * configuration back as it was, the same way.
     */
    static synchronized TestScheduler shared(Map<String, String> live) throws IOException {
        TestScheduler s = shared();
        s.retune(live);
        return s;
    }

    /** The shared scheduler's file is its own configuration plus {@code live}; the scheduler takes it in place. */
    private void retune(Map<String, String> live) throws IOException {
        if (baseConfig == null) {
            baseConfig = Files.readAllLines(config);
        }
        List<String> lines = new ArrayList<>(baseConfig.stream()
                .filter(l -> !live.containsKey(l.split("=", 2)[0].trim())).toList());
        live.forEach((k, v) -> lines.add(k + " = " + v));
        Files.write(config, lines);
        koala.scheduler.config.ConfigReload.Decision decision;
        try {
            decision = daemon.reload().get(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the shared scheduler did not take " + live + ": " + e, e);
        }
        if (!(decision instanceof koala.scheduler.config.ConfigReload.Accepted accepted)
                || !accepted.atNextStart().isEmpty()) {
            throw new IllegalStateException("the shared scheduler takes only live keys; " + live + ": " + decision);
        }
        retuned = !live.isEmpty();
    }

    static synchronized void stopShared() {
        if (shared != null) {
            TestScheduler s = shared;
            shared = null;
            s.stop();
        }
    }

    static {
        // the last class to share it leaves it running: it stops, and ends what it started, with the test JVM
        Runtime.getRuntime().addShutdownHook(new Thread(TestScheduler::stopShared, "shared test scheduler stop"));
    }

    private boolean answers() {
        try {
            asRoot().jobs();
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /**
     * A scheduler of its own process on {@code config}, once it says it is ready: one a test can kill
     * with SIGKILL. Its later output is drained, so that a full pipe never stops it.
     */
    static Process process(Path config) throws Exception {
        koala.scheduler.SchedulerChild child = koala.scheduler.SchedulerChild.start(config, ProcessBuilder.Redirect.INHERIT);
        try {
            child.ready().get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new AssertionError(e.getCause().getMessage(), e.getCause());
        }
        return child.process();
    }

    /**
     * The default testbed, with the standby host when it has one now: adding it to a running testbed again
     * left it once refused by a cell's qmaster as no submit host, so the tests keep the one the suite's
     * {@code testbed up --standby-host} made.
     */
    static TestbedPlan defaultPlan(TestbedStatus status) {
        boolean standby = status.hosts().stream().anyMatch(h -> h.name().equals(TestbedPlan.STANDBY_NAME) && h.present());
        return TestbedPlan.of(null, List.of(), 1, null).withStandbyHost(standby);
    }

    /** {@link #defaultPlan} with the Slurm cell the recorded testbed has (local or remote), if it has one. */
    static TestbedPlan planNow(Testbed testbed) {
        return defaultPlan(testbed.status()).withSlurmCellOf(testbed.plan());
    }

    /** The testbed's grid configuration with a fresh database, a free port and quick settings. */
    static Path config(Map<String, String> overrides) throws IOException {
        stopShared();
        Testbed testbed = new Testbed(KoalaHome.dir(), Progress.quiet(), Poll.system());
        TestbedStatus status = testbed.status();
        List<String> unreachable = unreachableHeads(testbed);
        if (!unreachable.isEmpty()) {
            // once every test of a run found fs2's head node gone ("no route to host"): say what the network was
            System.err.println("TESTBED: head nodes not reached from the KOALA host: " + unreachable + "; links: "
                    + koala.testbed.Shell.root().run("ip", "-br", "link", "show").out().replace('\n', ';')
                    + " neighbours: " + koala.testbed.Shell.root().run("ip", "neigh", "show").out().replace('\n', ';'));
        }
        if (status.cells().size() < 3 || !status.up() || !Users.exist() || !unreachable.isEmpty()) {
            testbed.up(planNow(testbed));
        }
        // what the tests run on the nodes (Open MPI, Dask, Chromium, ...): the testbed's up leaves it to them
        testbed.installPrograms();
        // before the port is chosen: a port found free and then left unbound while the cells empty (up to
        // a minute) was once taken by another process in between, and the scheduler could not bind it
        awaitEmptyCells(GridConfig.load(testbed.gridConfig()));
        // readable by the agents' account, which loads this configuration too
        Path dir = Files.createTempDirectory("koala-scheduler-it-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Map<String, String> settings = new java.util.LinkedHashMap<>(Map.of(
                // the remote site's agent and files of this test JVM's schedulers alone: two schedulers
                // sharing a head node's directory take each other's agent for an old one and replace it
                "site.fs2.ssh.dir", ".koala-it-" + ProcessHandle.current().pid(),
                "scheduler.port", Integer.toString(freePort()),
                "scheduler.database", dir.resolve("koala").toString(),
                "scheduler.socket", dir.resolve("scheduler.sock").toString(),
                "scheduler.placementInterval", "1",
                "scheduler.kisInterval", "1",
                "scheduler.claimTimeout", "30"));
        settings.putAll(overrides);
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(testbed.gridConfig())) {
            String key = line.split("=", 2)[0].trim();
            if (!settings.containsKey(key)) {
                lines.add(line);
            }
        }
        settings.forEach((k, v) -> lines.add(k + " = " + v));
        Path file = dir.resolve("grid.properties");
        Files.write(file, lines);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        return file;
    }

    /** Head nodes the KOALA host does not reach now (a local cell's qmaster port, a remote cell's SSH), with why. */
    private static List<String> unreachableHeads(Testbed testbed) {
        List<String> unreachable = new ArrayList<>();
        for (koala.testbed.CellPlan cell : testbed.plan().map(koala.testbed.TestbedPlan::cells).orElse(List.of())) {
            int port = cell.remote() ? 22 : cell.managerPort();
            try (java.net.Socket socket = new java.net.Socket()) {
                socket.connect(new java.net.InetSocketAddress(cell.head(), port), 3000);
            } catch (IOException e) {
                unreachable.add(cell.head() + ":" + port + " (" + e + ")");
            }
        }
        return unreachable;
    }

    /**
     * Every cell empty before a test's scheduler starts: what an earlier test left there (pilots
     * still leaving SGE, or worse) would change what this test sees. It is waited for, and deleted
     * after 60 s, saying what it was, so that one test's leftovers fail that test alone.
     */
    private static void awaitEmptyCells(GridConfig grid) {
        try {
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> grid.sites().stream().allMatch(s -> LocalUser.jobs(s).isEmpty()));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            for (var site : grid.sites()) {
                List<String> left = LocalUser.clear(site);
                if (!left.isEmpty()) {
                    System.err.println("LEFT BY AN EARLIER TEST in " + site.name() + ", deleted now: " + left);
                }
            }
            Awaitility.await("the cells emptied").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> grid.sites().stream().allMatch(s -> LocalUser.jobs(s).isEmpty()));
        }
    }

    /** The testbed's wide-area delay between cells, ms each way (0: none). */
    static int wanDelayMs() {
        return new Testbed(KoalaHome.dir(), Progress.quiet(), Poll.system()).status().wan().delayMs();
    }

    /**
     * A new directory that jobs on the testbed's local sites see: in the home of the pilots' account,
     * which the nodes share (their /tmp is their own), owned by that account.
     */
    static Path nodeDir(String prefix) {
        return koala.grid.Accounts.directoryOf("koala", prefix + "-" + Long.toHexString(System.nanoTime()));
    }

    /**
     * The JVMs listening on {@code host}'s loopback or on every address of it (a testbed host's
     * network namespace is named after it): KOALA's processes on a compute node listen on the
     * node's own address only.
     */
    static List<String> javaOnLoopback(String host) {
        try {
            Process p = new ProcessBuilder("ip", "netns", "exec", host, "ss", "-ltnpH").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor();
            return out.lines().filter(l -> l.contains("\"java\""))
                    .filter(l -> l.matches(".*\\s(127\\.0\\.0\\.1|0\\.0\\.0\\.0|\\*|\\[::]|\\[::1]|\\[::ffff:127\\.0\\.0\\.1]):\\d+\\s.*"))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static int freePort() {
        return koala.common.net.FreePort.any();
    }

    Path config() {
        return config;
    }

    /**
     * Whom the tests' jobs and instances belong to: the testbed's site account, an ordinary user
     * (KOALA runs no job as root), so they run as it, through the sites' own agents.
     */
    static final String OWNER = "koala";

    /** The scheduler as the tests' jobs' owner calls it: root acting for {@link #OWNER}. */
    SchedulerClient client() {
        return asRoot().actingFor(OWNER);
    }

    /** The scheduler as root, an admin acting as itself: may change anyone's job, and own none. */
    SchedulerClient asRoot() {
        return new SchedulerClient(daemon.url());
    }

    /** Pilots of the job still in SGE, on any site: none once it ended (none duplicated, none left over). */
    static List<String> pilotsNamedFor(GridConfig grid, long job) throws Exception {
        return pilotsNamedFor(grid, "[a-z0-9]+", job);
    }

    /**
     * Pilots of job {@code job} of the scheduler whose pilot names carry {@code tag} (a regular
     * expression): another test's scheduler numbers its jobs from 1 too, and its pilots may still
     * be leaving SGE.
     */
    static List<String> pilotsNamedFor(GridConfig grid, String tag, long job) throws Exception {
        List<String> found = new java.util.ArrayList<>();
        for (var site : grid.sites()) {
            if (site.slurm().isPresent()) {
                LocalUser.jobs(site).stream().map(l -> l.split("\\s+")[1])
                        .filter(n -> n.matches("koala-" + tag + "-" + job + "-.*"))
                        .forEach(n -> found.add(site.name() + ":" + n));
                continue;
            }
            String xml = LocalUser.run(site, "qstat", "-xml", "-u", "*");
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("<JB_name>(koala-" + tag + "-" + job + "-[^<]*)</JB_name>")
                    .matcher(xml);
            while (m.find()) {
                found.add(site.name() + ":" + m.group(1));
            }
        }
        return found;
    }

    static JobView submit(SchedulerClient client, String name, String jdf) {
        return client.submit(new SubmitRequest(name, jdf));
    }

    static JobView awaitState(SchedulerClient client, long id, String state, Duration within) {
        return Awaitility.await("job " + id + " " + state).atMost(within).pollInterval(Duration.ofMillis(250))
                .until(() -> client.job(id), j -> j.state().equals(state) || (j.ended() && !state.equals(j.state())));
    }

    static JobView awaitEnd(SchedulerClient client, long id, Duration within) {
        return Awaitility.await("job " + id + " ends").atMost(within).pollInterval(Duration.ofMillis(250))
                .until(() -> client.job(id), JobView::ended);
    }

    /**
     * A framework runner for {@code jdf} on this scheduler, its state in {@code stateDir}, the
     * initial deployment done (runner-gone {@code runnerGone} for its launchers).
     */
    RunnerMain.Started runner(String jdf, Path grid, Path stateDir, Duration runnerGone) {
        return runner(jdf, grid, client().base(), stateDir, runnerGone);
    }

    /** A framework runner for {@code jdf} of the scheduler at {@code scheduler}, its initial deployment done. */
    static RunnerMain.Started runner(String jdf, Path grid, java.net.URI scheduler, Path stateDir, Duration runnerGone) {
        GridConfig config = GridConfig.load(grid);
        RunnerMain.Setup setup = new RunnerMain.Setup(JdfParser.parse("it.jdf", jdf,
                new ClusterCatalog(config.nodeCounts())), jdf, grid, scheduler, 0, stateDir, runnerGone,
                Duration.ofSeconds(60)).actingFor(OWNER);
        try {
            RunnerMain.Started started = RunnerMain.start(setup, InstantSource.system());
            assertThat(started.runner().deploy(Duration.ofSeconds(60))).as("initial deployment").isTrue();
            return started;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A pilot leaves SGE when its launcher hears from the scheduler that its node is released;
     * stopped before that, the scheduler would leave it waiting for {@code scheduler.nodeGiveUp}.
     */
    private static void awaitPilotsGone(SchedulerClient client, Path config) {
        GridConfig grid = GridConfig.load(config);
        java.util.Set<String> pilots = new java.util.HashSet<>();
        client.jobs().forEach(j -> j.nodes().stream().filter(n -> n.pilot() != null)
                .forEach(n -> pilots.add(n.site() + " " + n.pilot())));
        try {
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> grid.sites().stream().noneMatch(s -> LocalUser.jobs(s).stream()
                            .anyMatch(l -> pilots.contains(s.name() + " " + l.split("\\s+")[0]))));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            System.err.println("pilots of the test scheduler still in SGE 60 s after its jobs ended: "
                    + grid.sites().stream().flatMap(s -> LocalUser.jobs(s).stream()).toList());
        }
    }

    /**
     * Ends what this scheduler still runs (a failed test leaves jobs behind), so the next test finds the grid
     * free; and stops it, unless it is the {@link #shared} one.
     */
    @Override
    public void close() {
        if (isShared) {
            endAll(asRoot(), config);
            if (retuned) {
                try {
                    retune(Map.of());
                } catch (IOException | RuntimeException e) {
                    System.err.println("the shared scheduler's settings could not be put back (" + e + "): stopped");
                    stopShared();
                }
            }
        } else {
            stop();
        }
    }

    private void stop() {
        try {
            endAll(asRoot(), config);
        } finally {
            daemon.close();
        }
    }

    /**
     * Ends every job {@code client} may end of the scheduler on {@code config} (allocations closed, jobs
     * cancelled) and waits, 60 s at most, until their pilots have left SGE: a test class leaves no process
     * of its jobs behind.
     */
    static void endAll(SchedulerClient client, Path config) {
        try {
            for (JobView job : client.jobs()) {
                if (!job.ended()) {
                    if ("ALLOCATION".equals(job.kind())) {
                        client.closeAllocation(job.id());
                    } else {
                        client.cancel(job.id());
                    }
                }
            }
            awaitPilotsGone(client, config);
        } catch (RuntimeException e) {
            System.err.println("could not end the jobs of the test scheduler: " + e.getMessage());
        }
    }
}
