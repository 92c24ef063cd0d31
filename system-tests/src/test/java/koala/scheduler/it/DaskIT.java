package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import koala.api.scheduler.JobView;
import koala.api.scheduler.SchedulerClient;
import koala.grid.GridConfig;
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
 */
class DaskIT {
    private static TestScheduler scheduler;
    private static SchedulerClient client;

    @BeforeAll
    static void start() throws Exception {
        scheduler = TestScheduler.start(Map.of());
        client = scheduler.client();
    }

    @AfterAll
    static void stop() {
        scheduler.close();
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
                    "KOALA_CONFIG", scheduler.config().toString(), "KOALA_AS", TestScheduler.OWNER,
                    "KOALA_BIN", repo.resolve("bin/koala").toString(), "COUNT_DIR", counts.toString(),
                    "INTRUDER", Testbed.USERS.get(0)));
            Process p = python.start();
            p.getOutputStream().close();
            Thread qdel = qdelOnRequest(counts);
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
                                GridConfig.load(scheduler.config()), instance).isEmpty();
                    });
        } finally {
            filler.forEach(client::cancel);
        }
    }

    /**
     * Deletes, with qdel as a local user would, the pilot of the worker node the Dask check names in
     * {@code qdel-request} ("INSTANCE NODE"), then says so in {@code qdel-done}.
     */
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
                koala.testbed.LocalUser.qdel(GridConfig.load(scheduler.config()).site(node.site()),
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
