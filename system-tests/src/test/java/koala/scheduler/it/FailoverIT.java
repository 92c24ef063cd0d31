package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import koala.api.scheduler.AllocationRequest;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.common.net.FreePort;
import koala.grid.GridConfig;
import koala.http.ApiException;
import koala.scheduler.SchedulerChild;
import koala.testbed.PostgresServer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Two schedulers, a and b, on one PostgreSQL store of their own: a leads, b is a standby that answers
 * who leads. {@code kill -9} of a: b takes over within the lease's term, adopts the site agents, the
 * pilots and the allocation, the running job's nodes follow it and finish, the instance grows under
 * it; a started again is a standby. Then b is paused (SIGSTOP) until a has taken over again: resumed,
 * b finds its lease gone, steps down (exit status 3) and writes nothing; a carries the instance on.
 * Costs about 45 s (a job of 12 s, running through the first take-over; two take-overs; two grows).
 */
class FailoverIT {
    private static final String PASSWORD = "failover-it";

    @Test
    void theStandbyTakesOverFromAKilledLeaderAndTheGridCarriesOn() throws Exception {
        Path pgDir = Files.createTempDirectory("koala-failover-pg-");
        try (PostgresServer pg = PostgresServer.start(pgDir, FreePort.any(), List.of("127.0.0.1"), List.of(), List.of())) {
            pg.createDatabase("koala_failover", "koala", PASSWORD);
            Path password = Files.createTempFile("koala-failover-", ".password",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(password, PASSWORD + "\n");
            int portA = FreePort.any();
            int portB = FreePort.any();
            Path configA = config(pg, password, portA);
            Path configB = config(pg, password, portB);
            String host = GridConfig.load(configA).hostAddress().orElse("127.0.0.1");
            for (Path config : List.of(configA, configB)) {
                Files.writeString(config, "scheduler.addresses = http://" + host + ":" + portA + ", http://" + host + ":"
                        + portB + "\n", java.nio.file.StandardOpenOption.APPEND);
            }
            takeOver(GridConfig.load(configA), configA, GridConfig.load(configB), configB);
        } finally {
            delete(pgDir);
        }
    }

    private static Path config(PostgresServer pg, Path password, int port) throws Exception {
        return TestScheduler.config(Map.of(
                "scheduler.port", Integer.toString(port),
                "scheduler.database", pg.jdbcUrl("127.0.0.1", "koala_failover"),
                "scheduler.database.passwordFile", password.toString()));
    }

    private static void takeOver(GridConfig gridA, Path configA, GridConfig gridB, Path configB) throws Exception {
        Process a = TestScheduler.process(configA);
        SchedulerChild b = SchedulerChild.start(configB, ProcessBuilder.Redirect.INHERIT);
        SchedulerChild aAgain = null;
        SchedulerClient viaA = new SchedulerClient(gridA.schedulerAddress()).actingFor(TestScheduler.OWNER);
        SchedulerClient viaB = new SchedulerClient(gridB.schedulerAddress()).actingFor(TestScheduler.OWNER);
        SchedulerClient following = SchedulerClient.following(List.of(gridA.schedulerAddress(), gridB.schedulerAddress()))
                .actingFor(TestScheduler.OWNER);
        try {
            awaitStandby(viaB, "leading this grid is");
            long job = TestScheduler.submit(viaA, "through-a-take-over", "+(&(resourceManagerContact = \"fs0\")(count = 2)"
                    + "(executable = \"/bin/sleep\")(arguments = \"12\"))(&(resourceManagerContact = \"fs1\")(count = 1)"
                    + "(executable = \"/bin/sleep\")(arguments = \"12\"))").id();
            long allocation = viaA.allocate(new AllocationRequest("runner-failover")).id();
            viaA.grow(allocation, new GrowRequest(1, "worker", "/bin/sleep", List.of("600"), Map.of(), "fs0"));
            TestScheduler.awaitState(viaA, job, "RUNNING", Duration.ofSeconds(90));
            Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> viaA.job(allocation).nodes().stream()
                    .allMatch(n -> n.state().equals("RUNNING")));

            long killed = System.nanoTime();
            a.destroyForcibly().waitFor(10, TimeUnit.SECONDS); // SIGKILL: a's lease is left to pass
            assertThat(b.ready().get(30, TimeUnit.SECONDS)).startsWith("READY");
            double tookOver = (System.nanoTime() - killed) / 1e9;
            JobView seen = viaB.job(job);
            double served = (System.nanoTime() - killed) / 1e9;
            System.out.printf("b led %.2f s after a's kill -9 and served its first answer after %.2f s%n", tookOver, served);
            assertThat(seen.state()).isIn("RUNNING", "FINISHED");

            assertThat(following.job(job).id()).as("a client of both follows the leader").isEqualTo(job);
            long after = TestScheduler.submit(following, "after-the-take-over", "&(resourceManagerContact = \"fs1\")"
                    + "(count = 1)(executable = \"/bin/true\")").id();
            JobView finished = TestScheduler.awaitEnd(viaB, job, Duration.ofSeconds(90));
            assertThat(TestScheduler.awaitEnd(viaB, after, Duration.ofSeconds(60)).state()).isEqualTo("FINISHED");
            assertThat(finished.state()).as(finished.history().toString()).isEqualTo("FINISHED");
            assertThat(finished.nodes()).extracting(NodeView::exitStatus).containsOnly(0);
            viaB.grow(allocation, new GrowRequest(1, "worker", "/bin/sleep", List.of("600"), Map.of(), "fs1"));
            Awaitility.await("the grow under b").atMost(Duration.ofSeconds(60)).until(() -> {
                List<NodeView> nodes = viaB.job(allocation).nodes();
                return nodes.size() == 2 && nodes.stream().allMatch(n -> n.state().equals("RUNNING"));
            });
            assertThat(TestScheduler.pilotsNamedFor(gridB, allocation)).as("pilots == nodes after the take-over")
                    .hasSize(2);
            assertThat(TestScheduler.pilotsNamedFor(gridB, job)).isEmpty();

            aAgain = SchedulerChild.start(configA, ProcessBuilder.Redirect.INHERIT);
            awaitStandby(viaA, "at http://");

            // b paused (SIGSTOP) past its lease: a takes over; b, resumed, is fenced and steps down
            signal("STOP", b.process());
            assertThat(aAgain.ready().get(30, TimeUnit.SECONDS)).startsWith("READY");
            signal("CONT", b.process());
            assertThat(b.process().waitFor(15, TimeUnit.SECONDS)).as("b steps down once it wakes").isTrue();
            assertThat(b.process().exitValue()).as("b's exit status: stepped down").isEqualTo(3);
            assertThat(viaA.job(allocation).nodes()).extracting(NodeView::state).containsOnly("RUNNING");
            assertThat(TestScheduler.pilotsNamedFor(gridA, allocation)).as("pilots == nodes after the second take-over")
                    .hasSize(2);
            assertThat(viaA.closeAllocation(allocation).nodes()).extracting(NodeView::state).containsOnly("RELEASED");
            Awaitility.await("the allocation's pilots leave").atMost(Duration.ofSeconds(60))
                    .until(() -> TestScheduler.pilotsNamedFor(gridA, allocation).isEmpty());
        } finally {
            // the standby first: stopped after the leader, it would take over and start all over again
            for (Process p : new Process[] {aAgain == null ? null : aAgain.process(), a, b.process()}) {
                if (p != null) {
                    signal("CONT", p);
                    p.destroy();
                    p.waitFor(30, TimeUnit.SECONDS);
                }
            }
        }
    }

    private static void signal(String name, Process p) throws Exception {
        if (p.isAlive()) {
            new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Waits until the scheduler {@code client} calls answers as a standby, naming the leader ({@code naming}). */
    private static void awaitStandby(SchedulerClient client, String naming) {
        Awaitility.await("a standby's answer").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .ignoreException(koala.http.ApiException.class).until(() -> {
                    try {
                        client.jobs();
                        return false;
                    } catch (ApiException e) {
                        return e.status() == 503 && e.getMessage().contains("standby") && e.getMessage().contains(naming);
                    }
                });
    }

    /** A scheduler's process that may start as a standby: {@link #ready} completes with its READY line once it leads. */
    private static void delete(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (java.io.IOException ignored) {
            // a temporary directory: the system's to clean up then
        }
    }
}
