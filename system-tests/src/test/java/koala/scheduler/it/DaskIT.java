package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import koala.api.scheduler.JobView;
import koala.api.scheduler.SchedulerClient;
import koala.common.net.FreePort;
import koala.grid.GridConfig;
import koala.scheduler.SchedulerChild;
import koala.testbed.PostgresServer;
import koala.testbed.Testbed;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real framework on KOALA: Debian's Dask through the repository's Python package
 * ({@code python/testbed/dask_on_testbed.py}), its adaptive scaling turned into grows and shrinks.
 * Local work fills most of fs0 and fs1 first, so that the Dask cluster needs both. The instance
 * speaks Dask's TLS: another user of the grid ({@link Testbed#USERS}, not the owner) is refused at
 * its scheduler and at a worker, with a plain client and with a certificate of their own
 * ({@code python/testbed/dask_intruder.py}, about 15 s of the run), while the owner's client works.
 * The scheduler that deployed the instance is killed ({@code kill -9}) once the cluster grew: its standby
 * (the class runs two on a PostgreSQL store of their own) takes over the instance and its runner, and the
 * cluster computes on, shrinks, replaces a lost worker and closes through it (about 25 s of the run: the
 * second scheduler, the take-over, and the killed one started again as a standby).
 */
class DaskIT {
    private static final String PASSWORD = "dask-it";
    private static Path pgDir;
    private static PostgresServer pg;
    /** Scheduler a leads first, on a's configuration, which the Dask check and the test call. */
    private static Path configA;
    private static Path configB;
    /** The schedulers' processes, in the order started: a, b, then a again after the take-over. */
    private static final List<SchedulerChild> started = new CopyOnWriteArrayList<>();
    private static SchedulerClient client;

    /** Two schedulers on a PostgreSQL store of their own: a leads, b stands by. */
    @BeforeAll
    static void start() throws Exception {
        pgDir = Files.createTempDirectory("koala-dask-pg-");
        pg = PostgresServer.start(pgDir, FreePort.any(), List.of("127.0.0.1"), List.of(), List.of());
        pg.createDatabase("koala_dask", "koala", PASSWORD);
        Path password = Files.createTempFile("koala-dask-", ".password",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(password, PASSWORD + "\n");
        int portA = FreePort.any();
        int portB = FreePort.any();
        Map<String, String> store = Map.of("scheduler.database", pg.jdbcUrl("127.0.0.1", "koala_dask"),
                "scheduler.database.passwordFile", password.toString());
        String host = koala.testbed.TestbedPlan.KOALA_ADDRESS;
        String addresses = "http://" + host + ":" + portA + ", http://" + host + ":" + portB;
        configA = TestScheduler.config(with(with(store, "scheduler.port", Integer.toString(portA)), "scheduler.addresses",
                addresses));
        configB = TestScheduler.config(with(with(store, "scheduler.port", Integer.toString(portB)), "scheduler.addresses",
                addresses));
        started.add(SchedulerChild.start(configA, ProcessBuilder.Redirect.INHERIT));
        started.get(0).ready().get(120, TimeUnit.SECONDS);
        started.add(SchedulerChild.start(configB, ProcessBuilder.Redirect.INHERIT));
        client = new SchedulerClient(GridConfig.load(configA).schedulerAddress()).actingFor(TestScheduler.OWNER);
    }

    private static Map<String, String> with(Map<String, String> settings, String key, String value) {
        Map<String, String> more = new java.util.HashMap<>(settings);
        more.put(key, value);
        return more;
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (client != null) {
                TestScheduler.endAll(client, configA);
            }
        } finally {
            // the standbys first: a standby stopped after the leader would take over and start all over again
            List<SchedulerChild> order = new ArrayList<>(started);
            order.sort(java.util.Comparator.comparing(c -> c.ready().isDone()));
            for (SchedulerChild child : order) {
                child.process().destroy();
                child.process().waitFor(30, TimeUnit.SECONDS);
            }
            if (pg != null) {
                pg.close();
                try (var files = Files.walk(pgDir)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                }
            }
        }
    }

    @Test
    void daskGrowsOverTwoClustersComputesRightAndShrinksBackToNothing() throws Exception {
        List<Long> filler = List.of(
                TestScheduler.submit(client, "fill-fs0", "&(resourceManagerContact = fs0)(count = 12)"
                        + "(executable = /bin/sleep)(arguments = 900)").id(),
                TestScheduler.submit(client, "fill-fs1", "&(resourceManagerContact = fs1)(count = 3)"
                        + "(executable = /bin/sleep)(arguments = 900)").id());
        filler.forEach(id -> TestScheduler.awaitState(client, id, "RUNNING", Duration.ofSeconds(90)));
        Path repo = Path.of("").toAbsolutePath().getParent();
        Path counts = TestScheduler.nodeDir("koala-dask-it");
        try {
            ProcessBuilder python = new ProcessBuilder("/usr/bin/python3",
                    repo.resolve("python/testbed/dask_on_testbed.py").toString()).redirectErrorStream(true)
                    .directory(counts.toFile());
            python.environment().putAll(Map.of("PYTHONPATH", repo.resolve("python").toString(),
                    "KOALA_CONFIG", configA.toString(), "KOALA_AS", TestScheduler.OWNER, "TAKE_OVER", "1",
                    "KOALA_BIN", repo.resolve("bin/koala").toString(), "COUNT_DIR", counts.toString(),
                    "INTRUDER", Testbed.USERS.get(0)));
            Process p = python.start();
            p.getOutputStream().close();
            Thread qdel = qdelOnRequest(counts);
            Thread takeOver = takeOverOnRequest(counts);
            List<String> out = new ArrayList<>();
            Thread reader = new Thread(() -> new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream()))
                    .lines().forEach(l -> {
                        System.out.println("[dask] " + l);
                        synchronized (out) {
                            out.add(l);
                        }
                    }));
            reader.start();
            boolean ended = p.waitFor(12, TimeUnit.MINUTES);
            if (!ended) {
                p.destroyForcibly();
            }
            reader.join(5_000);
            qdel.interrupt();
            takeOver.interrupt();
            List<String> lines;
            synchronized (out) {
                lines = List.copyOf(out);
            }
            assertThat(ended).as("the Dask check ended within 12 minutes: " + lines).isTrue();
            assertThat(p.exitValue()).as(String.join("\n", lines)).isZero();
            assertThat(Testbed.USERS.get(0)).isNotEqualTo(TestScheduler.OWNER);
            assertThat(lines).anyMatch(l -> l.startsWith("ok   grew over two clusters"))
                    .anyMatch(l -> l.startsWith("ok   the instance's key is its owner's alone"))
                    .anyMatch(l -> l.startsWith("ok   the owner's client speaks TLS"))
                    .anyMatch(l -> l.startsWith("ok   " + Testbed.USERS.get(0) + " is refused at the scheduler and at a worker"))
                    .anyMatch(l -> l.startsWith("ok   closing the cluster closed its client, quietly"))
                    .anyMatch(l -> l.startsWith("ok   no result recomputed"))
                    .anyMatch(l -> l.startsWith("ok   what was lost was computed again"))
                    .anyMatch(l -> l.startsWith("ok   back to 0 workers"));
            long instance = Long.parseLong(lines.stream().filter(l -> l.startsWith("closed instance "))
                    .findFirst().orElseThrow().substring("closed instance ".length()).trim());
            org.awaitility.Awaitility.await("instance " + instance + " ended and its pilots gone")
                    .atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() -> {
                        JobView v = client.job(instance);
                        return !v.state().equals("RUNNING") && TestScheduler.pilotsNamedFor(
                                GridConfig.load(configA), instance).isEmpty();
                    });
        } finally {
            filler.forEach(client::cancel);
        }
    }

    /**
     * Deletes, with qdel as a local user would, the pilot of the worker node the Dask check names in
     * {@code qdel-request} ("INSTANCE NODE"), then says so in {@code qdel-done}.
     */
    /**
     * Kills the leading scheduler with {@code kill -9} when the Dask check asks ({@code takeover-request}), waits
     * until the standby leads, starts the killed one again (as systemd would: a standby now, on the same socket and
     * port, which passes calls on to the leader), and says so ({@code takeover-done}).
     */
    private static Thread takeOverOnRequest(Path dir) {
        Thread t = new Thread(() -> {
            Path request = dir.resolve("takeover-request");
            try {
                if (!koala.common.time.Poll.system().until(() -> Files.exists(request)
                        || Thread.currentThread().isInterrupted(), Duration.ofMinutes(12)) || !Files.exists(request)) {
                    return;
                }
                SchedulerChild a = started.get(0);
                SchedulerChild b = started.get(1);
                long killed = System.nanoTime();
                a.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                b.ready().get(60, TimeUnit.SECONDS);
                double led = (System.nanoTime() - killed) / 1e9;
                started.add(SchedulerChild.start(configA, ProcessBuilder.Redirect.INHERIT));
                org.awaitility.Awaitility.await("a's socket passing calls on to b").atMost(Duration.ofSeconds(60))
                        .ignoreExceptions().until(() -> client.scheduler().pid() == b.process().pid());
                System.out.printf("[dask] kill -9 of the leader (pid %d): the standby (pid %d) led after %.1f s; the"
                        + " killed one, started again, passes calls on to it%n", a.process().pid(), b.process().pid(), led);
                Files.writeString(dir.resolve("takeover-done"), "");
            } catch (Exception e) {
                System.out.println("[dask] take-over failed: " + e);
            }
        }, "take-over-on-request");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static Thread qdelOnRequest(Path dir) {
        Thread t = new Thread(() -> {
            Path request = dir.resolve("qdel-request");
            try {
                if (!koala.common.time.Poll.system().until(() -> java.nio.file.Files.exists(request)
                        || Thread.currentThread().isInterrupted(), Duration.ofMinutes(12))
                        || !java.nio.file.Files.exists(request)) {
                    return;
                }
                String[] asked = java.nio.file.Files.readString(request).trim().split(" ");
                koala.api.scheduler.NodeView node = client.job(Long.parseLong(asked[0])).nodes().stream()
                        .filter(n -> n.id().equals(asked[1])).findFirst().orElseThrow();
                koala.testbed.LocalUser.qdel(GridConfig.load(configA).site(node.site()),
                        List.of(node.pilot()));
                System.out.println("[dask] qdel'd pilot " + node.pilot() + " of node " + node.id() + " on " + node.site());
                java.nio.file.Files.writeString(dir.resolve("qdel-done"), node.pilot() + "\n");
            } catch (Exception e) {
                System.out.println("[dask] qdel failed: " + e);
            }
        }, "qdel-on-request");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
