package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import koala.api.scheduler.JobView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.StartEstimateView;
import koala.api.scheduler.SubmitRequest;
import koala.api.scheduler.TransitionView;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * "When will my job start?" on the testbed: fs1's eight nodes are held by a job whose runtime the scheduler has
 * seen once (its first run), and a job that needs all eight waits behind it. Its estimate, in {@code koala
 * status} and from a dry run, is held to the moment it did leave the queue. About 45 s: two runs of {@value #RUN}
 * seconds over eight nodes, and the waiting job's, and a scheduler of its own (10 s). Not the shared one: the
 * local users' load it saw under earlier classes (FrameworkRunnerIT and BackgroundLoadIT fill cells with local
 * jobs) holds fs1's cores in the likely replay, with no turnover known to give them back, and the estimate then
 * names no site (it failed so twice).
 */
class StartEstimateIT {
    private static final int RUN = 12;
    /** How far the likely start may be from the real one: pilots start within a few seconds on the testbed. */
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final String FILL = "&(name = fill)(count = 8)(resourceManagerContact = \"fs1\")"
            + "(executable = /bin/sleep)(arguments = " + RUN + ")";
    private static final String AFTER = "&(name = after)(count = 8)(resourceManagerContact = \"fs1\")"
            + "(executable = /bin/true)";

    @Test
    void aJobThatMustWaitIsToldWhenItWillStartAndStartsThen() throws Exception {
        try (TestScheduler scheduler = TestScheduler.start(java.util.Map.of())) {
            SchedulerClient client = scheduler.client();
            JobView first = TestScheduler.submit(client, "fill", FILL);
            assertThat(TestScheduler.awaitEnd(client, first.id(), Duration.ofSeconds(90)).state()).isEqualTo("FINISHED");

            JobView fill = TestScheduler.submit(client, "fill", FILL);
            TestScheduler.awaitState(client, fill.id(), "RUNNING", Duration.ofSeconds(60));
            long after = TestScheduler.submit(client, "after", AFTER).id();
            StartEstimateView told = Awaitility.await("an estimate for job " + after).atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(250)).until(() -> client.job(after).estimate(),
                            e -> e != null && e.status().equals("WAITING"));
            StartEstimateView dry = client.estimate(new SubmitRequest("after.jdf", AFTER));

            Instant left = leftTheQueue(TestScheduler.awaitEnd(client, after, Duration.ofSeconds(90)));
            assertThat(told.sites()).containsExactly("fs1");
            assertThat(told.because()).contains("fs1 busy until").contains("with jobs " + fill.id());
            assertThat(Duration.between(told.likely(), left).abs()).as("likely %s, left the queue %s", told.likely(), left)
                    .isLessThanOrEqualTo(BOUND);
            assertThat(left).as("the range %s to %s", told.low(), told.high())
                    .isBetween(told.low().minus(BOUND), told.high().plus(BOUND));
            assertThat(dry.status()).isEqualTo("WAITING");
            assertThat(dry.sites()).containsExactly("fs1");
            assertThat(client.jobs()).noneMatch(j -> j.name().equals("after.jdf"));
        }
    }

    /** When the job was placed: its first transition out of QUEUED. */
    private static Instant leftTheQueue(JobView job) {
        return job.history().stream().filter(t -> "QUEUED".equals(t.from())).map(TransitionView::at).findFirst()
                .orElseThrow(() -> new AssertionError("job " + job.id() + " never left the queue: " + job.history()));
    }
}
