package koala.scheduler.it;

import static koala.scheduler.it.FairCell.rl;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import koala.api.runner.RunnerClient;
import koala.api.runner.TokenSource;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.SchedulerClient;
import koala.fluent.client.FluentClient;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.runner.RunnerMain;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two instances of the reference framework on one full cell (fs1, 8 nodes) shared by {@code fair}:
 * a Static instance holding 4 idle workers (weight 1) and an OnDemand one (weight 3) that asks for
 * workers. The second's grow makes the first give back its idle workers at once; later, with the
 * first's workers busy, the first is asked to shrink, and its framework gives back the worker whose
 * application ended within the grace period.
 */
class SharingIT {
    private static FairCell cell;
    private static SchedulerClient client;

    @BeforeAll
    static void start() throws IOException {
        cell = FairCell.start("share", Duration.ofSeconds(20));
        client = cell.client();
    }

    @AfterAll
    static void stop() {
        cell.close();
    }

    @Test
    void aGrowOnAFullGridTakesIdleWorkersThenTheFrameworkShrinksWhenAsked() throws Exception {
        try (RunnerMain.Started a = cell.fluent("static", 4, 4, "(weight = 1)(samplePeriod = 5)", 4, 0);
             RunnerMain.Started b = cell.fluent("ondemand", 0, 4, "(weight = 3)(tIdle = 120)(samplePeriod = 1)", 4,
                     0)) {
            FluentClient fa = cell.master(a);
            FluentClient fb = cell.master(b);
            RunnerClient ra = new RunnerClient(a.url(), TokenSource.of(a::token));
            RunnerClient rb = new RunnerClient(b.url(), TokenSource.of(b::token));
            cell.awaitWorkers("a's 4 workers joined, the cell full", fa, 4, 0);

            // 1. b asks for 2 workers on the full cell: a's idle workers are above its fair share (it uses none)
            // (b's first RLs outlast the scenario: its demand stays 2 + what it asks for later)
            JobReply first = fb.submit(new JobRequest("b1", List.of(rl(300_000), rl(300_000))));
            assertThat(first.grow()).startsWith("asked to grow 2, granted 2");
            assertThat(cell.history(a.instance())).anySatisfy(t -> {
                assertThat(t.event()).isEqualTo("TAKEN_BACK");
                assertThat(t.reason()).startsWith("idle ").contains("taken back for " + b.instance());
            });
            Awaitility.await("b's two RLs run on the workers taken back").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500)).until(() -> fb.job(first.job()).apps().stream()
                            .allMatch(app -> app.state().equals("RUNNING")));
            assertThat(ra.status().role("worker")).hasSize(2);
            // a keeps its floor only when it needs it: both its workers are idle, so it asks nothing back
            Awaitility.await("a stays at 2 workers while they idle").during(Duration.ofSeconds(8))
                    .atMost(Duration.ofSeconds(12)).until(() -> ra.status().role("worker").size() == 2);
            FrameworkView va = client.framework(a.instance());
            assertThat(va.share()).isNotNull();
            assertThat(va.share().holds()).isEqualTo(2);
            assertThat(va.share().lastShrunk()).contains("taken back for " + b.instance());

            // 2. a's two workers get applications, one short; b asks for 2 more with its own busy
            JobReply busy = fa.submit(new JobRequest("a1", List.of(rl(8_000), rl(120_000))));
            assertThat(busy.apps()).extracting(app -> app.verdict()).containsExactly("PLACED", "PLACED");
            cell.awaitBusy("the scheduler sees a's workers busy", a, 2);
            fb.submit(new JobRequest("b2", List.of(rl(30_000), rl(30_000))));
            // demands a 2, b 4 and weights 1 and 3: fair shares 1 and 3, so a is asked to give back 1
            Awaitility.await("a asked to shrink").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(500))
                    .until(() -> cell.history(a.instance()).stream()
                            .anyMatch(t -> t.event().equals("ASKED_TO_SHRINK")));
            assertThat(cell.history(a.instance())).filteredOn(t -> t.event().equals("ASKED_TO_SHRINK")).first()
                    .satisfies(t -> assertThat(t.reason()).contains("give back 1 worker for " + b.instance())
                            .contains("fair share 1 of 4 nodes (demand 2, weight 1)"));
            // its short application ends within the grace, and its master gives that worker back (it found none
            // idle when asked: both run a1's RLs). The runner releases the worker (SHRANK in a's history, from the
            // scheduler) and answers the master, which notes it: two processes, so each is waited for, rather than
            // the master's note read the moment the scheduler's is seen (on a failure the lists show where it stood)
            Awaitility.await("a's framework gives a worker back").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                        assertThat(cell.history(a.instance())).anySatisfy(t -> assertThat(t.event() + " " + t.reason())
                                .startsWith("SHRANK").contains("at the grid's request"));
                        assertThat(fa.status().events()).anySatisfy(e -> assertThat(e.text()).startsWith("gave back")
                                .contains("at the grid's request"));
                    });
            Awaitility.await("b gets the node taken back for it").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500)).until(() -> rb.status().role("worker").size() == 3);
            assertThat(cell.history(a.instance())).noneMatch(t -> t.event().equals("ENDED_AFTER_GRACE"));
            assertThat(fa.job(busy.job()).apps()).allSatisfy(app -> assertThat(app.state()).isIn("RUNNING", "FINISHED"));
            // b's share now depends on its demand at the moment of looking; what it holds does not
            assertThat(client.framework(b.instance()).share().holds()).isEqualTo(3);
            client.closeAllocation(a.instance());
            client.closeAllocation(b.instance());
        }
    }
}
