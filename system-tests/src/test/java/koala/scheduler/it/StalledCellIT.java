package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import koala.api.scheduler.JobView;
import koala.api.scheduler.SchedulerClient;
import koala.grid.GridConfig;
import koala.scheduler.it.TestHosts.Signal;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * One stalled cell does not stop the grid: with fs1's qmaster paused ({@code kill -STOP}) and a job
 * pinned to fs1 trying to claim a node there, the scheduler keeps answering at once and a job on fs0
 * runs; when the qmaster resumes, the pinned job runs, once, and no pilot of it is left behind.
 */
@SharesScheduler
class StalledCellIT {
    private static final Path QMASTER_PID = Path.of("/var/spool/gridengine/fs1/qmaster/qmaster.pid");

    @Test
    void aStalledCellHoldsUpOnlyItsOwnClaims() throws Exception {
        try (TestScheduler scheduler = TestScheduler.shared()) {
            SchedulerClient client = scheduler.client();
            GridConfig grid = GridConfig.load(scheduler.config());
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> BackgroundLoadIT.site(client, "fs1").idle() > 0);
            long qmaster = Long.parseLong(Files.readString(QMASTER_PID).trim());
            JobView pinned;
            long slowest;
            TestHosts.signal(Signal.STOP, qmaster);
            try {
                pinned = TestScheduler.submit(client, "pinned", "&(resourceManagerContact = fs1)(count = 1)"
                        + "(executable = \"/bin/true\")");
                TestScheduler.awaitState(client, pinned.id(), "CLAIMING", Duration.ofSeconds(10));
                JobView elsewhere = TestScheduler.submit(client, "elsewhere", "&(resourceManagerContact = fs0)"
                        + "(count = 1)(executable = \"/bin/true\")");
                slowest = slowestAnswer(client, Duration.ofSeconds(10));
                JobView ran = TestScheduler.awaitEnd(client, elsewhere.id(), Duration.ofSeconds(30));
                assertThat(ran.state()).as(ran.history().toString()).isEqualTo("FINISHED");
            } finally {
                TestHosts.signal(Signal.CONT, qmaster);
            }
            System.out.println("slowest answer of GET /sites while fs1 was stalled: " + slowest + " ms");
            assertThat(slowest).as("ms for GET /sites while fs1's qmaster is stopped").isLessThan(2000);
            JobView end = TestScheduler.awaitEnd(client, pinned.id(), Duration.ofSeconds(180));
            assertThat(end.state()).as(end.history().toString()).isEqualTo("FINISHED");
            assertThat(end.nodes().stream().filter(n -> n.state().equals("EXITED")).count()).as("ran once").isEqualTo(1);
            Awaitility.await("no pilot of the pinned job left in any cell").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofSeconds(2)).until(() -> TestScheduler.pilotsNamedFor(grid, pinned.id()).isEmpty());
        }
    }

    /** The slowest of the answers to {@code GET /sites} asked one after another for {@code during}, in ms. */
    private static long slowestAnswer(SchedulerClient client, Duration during) {
        Instant until = Instant.now().plus(during);
        long slowest = 0;
        while (Instant.now().isBefore(until)) {
            long start = System.nanoTime();
            client.sites();
            slowest = Math.max(slowest, (System.nanoTime() - start) / 1_000_000);
        }
        return slowest;
    }
}
