package koala.scheduler.it;

import static koala.scheduler.it.FairCell.rl;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import koala.api.scheduler.SchedulerClient;
import koala.fluent.client.FluentClient;
import koala.fluent.device.Words;
import koala.fluent.wire.FluentMessages.AppReply;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.runner.RunnerMain;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Batch work yields to the grid's arbitration instead of being lost (Neptune's take-back): on one
 * cell (fs1, 8 nodes) shared by {@code fair}, a Static instance {@code a} of 3 workers of 8 slots
 * whose master suspends word counts ({@code --suspend 3}), and an OnDemand one {@code b} (weight 3)
 * that asks for workers; one node is left free.
 *
 * <p>{@code a}'s work: word counts {@code short} (4 components), {@code kept} (4) and {@code moved}
 * (3), in that order, then an RL. {@code short} takes 4 slots of w1 and {@code kept} the other 4;
 * {@code moved} finds no room on w1 and takes 3 slots of w2; the RL takes w3. Once {@code short}
 * ends, w1 has 4 free slots and w2 runs only {@code moved}; no worker of {@code a} is idle. {@code b}'s
 * grow of 2 gets the free node and asks {@code a} to give back one (fair shares 2 and 2 of 4): w2
 * yields, {@code moved}'s 3 components going to w1's free slots, and is given back within the grace.
 * Both word counts count their file right, nothing of {@code a} is ended after the grace, and no
 * application is lost. (A word count moves only to workers holding none of it: the master's state
 * keeps one share of slots per application and worker.) Costs about 35 s, most of it the word counts
 * streaming their file over 25 s: long enough to be under way when the grid takes w2 back, 4-6 s after
 * they start on a busy machine (streams of 40 s made it 50-54 s, of 90 s 97-103 s).
 *
 * <p>On the same scheduler, a grow pinned to fs1 is arbitrated within fs1 (below).
 */
class YieldIT {
    private static FairCell cell;
    private static SchedulerClient client;

    @BeforeAll
    static void start() throws IOException {
        cell = FairCell.start("yield", Duration.ofSeconds(30));
        client = cell.client();
    }

    @AfterAll
    static void stop() {
        cell.close();
    }

    @Test
    void aWorkerRunningOnlyWordCountsYieldsThemWhenTheGridTakesItBack() throws Exception {
        List<String> lines = IntStream.range(0, 3000).mapToObj(i -> "yield " + i % 60 + " to the stream, word " + i)
                .toList();
        Path text = Files.write(cell.dir().resolve("yield-words.txt"), lines);
        Map<String, Long> expected = new HashMap<>();
        lines.forEach(l -> Words.count(l, expected));
        long words = expected.values().stream().mapToLong(Long::longValue).sum();

        try (RunnerMain.Started a = cell.fluent("static", 3, 3, "(weight = 1)(samplePeriod = 1)", 8, 3);
             RunnerMain.Started b = cell.fluent("ondemand", 0, 4, "(weight = 3)(tIdle = 120)(samplePeriod = 1)", 8,
                     0)) {
            FluentClient fa = cell.master(a);
            FluentClient fb = cell.master(b);
            cell.awaitWorkers("a's 3 workers joined, one node of the cell left", fa, 3, 1);

            AppRequest words4 = new AppRequest("swc", 25_000L, null, null, 1, text.toString());
            JobReply work = fa.submit(new JobRequest("a1", List.of(new AppRequest("swc", 2_000L, null, null, 1,
                    text.toString()), words4, new AppRequest("swc", 25_000L, null, null, 0, text.toString()),
                    new AppRequest("rl", 120_000L, 20.0, 1_000L, null, null))));
            assertThat(work.apps()).extracting(AppReply::verdict).containsExactly("PLACED", "PLACED", "PLACED", "PLACED");
            String moved = work.apps().get(2).id();
            Awaitility.await("the short word count ended").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500)).until(() -> fa.job(work.job()).apps().get(0).state()
                            .equals("FINISHED"));
            cell.awaitBusy("the scheduler sees a's 3 workers busy", a, 3);

            fb.submit(new JobRequest("b1", List.of(rl(120_000), rl(120_000))));
            Awaitility.await("a's busy worker yields its word count and is given back").atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(500)).until(() -> cell.history(a.instance()).stream()
                            .anyMatch(t -> t.event().equals("SHRANK") && t.reason().contains("at the grid's request")));
            assertThat(fa.status().events()).anySatisfy(e -> assertThat(e.text()).contains("yields [" + moved + "]"));
            assertThat(fa.status().events()).anySatisfy(e -> assertThat(e.text()).startsWith(moved + ": moved 3 components"));
            assertThat(fa.status().counters()).containsEntry("yielded", 1).containsEntry("moved", 3)
                    .containsEntry("lostWithWorker", 0);

            Awaitility.await("the word counts ended").atMost(Duration.ofSeconds(150))
                    .pollInterval(Duration.ofSeconds(1)).until(() -> fa.job(work.job()).apps().subList(0, 3).stream()
                            .allMatch(app -> app.state().matches("FINISHED|FAILED")));
            for (AppReply counted : fa.job(work.job()).apps().subList(0, 3)) {
                assertThat(counted.state()).as("%s: %s", counted.id(), counted.reason()).isEqualTo("FINISHED");
                assertThat(counted.result()).as(counted.id()).containsEntry("check", "ok")
                        .containsEntry("words", (int) words).containsEntry("distinct", expected.size());
            }
            assertThat(cell.history(a.instance())).noneMatch(t -> t.event().equals("ENDED_AFTER_GRACE"));
            assertThat(fa.job(work.job()).apps().get(3).state()).as("a's RL").isIn("RUNNING", "FINISHED");
            client.closeAllocation(a.instance());
            client.closeAllocation(b.instance());
        }
    }

    /**
     * A grow pinned to a site (its worker component's {@code resourceManagerContact}, as
     * {@code KoalaCluster(site=...)} writes it) is arbitrated within that site: {@code a} (Static, 4 idle
     * workers) and {@code b} (OnDemand, none) fill fs1's 8 nodes with their masters and orchestrator
     * nodes; {@code b}'s grow of 2 pinned to fs1 takes 2 of {@code a}'s idle workers back there instead of
     * being refused "grid full: no idle node on fs1". Costs about 5 s: two deployments of sleeping entities, one grow.
     */
    @Test
    void aGrowPinnedToAFullSiteIsArbitratedWithinIt() {
        try (RunnerMain.Started a = cell.runner(pinned("it-pinned-a", "static", 4));
             RunnerMain.Started b = cell.runner(pinned("it-pinned-b", "ondemand", 0))) {
            Awaitility.await("fs1 full, a's 4 workers idle as the scheduler sees them").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500)).until(() -> client.sites().stream()
                            .filter(s -> s.site().equals("fs1")).allMatch(s -> s.idle() == 0)
                            && client.framework(a.instance()).share() != null
                            && client.framework(a.instance()).share().holds() == 4
                            && client.framework(a.instance()).share().uses() == 0);

            koala.api.runner.RunnerMessages.GrowResult grown = new koala.api.runner.RunnerClient(b.url(),
                    koala.api.runner.TokenSource.of(b::token)).grow(2);

            assertThat(grown.granted()).as("%s", grown.reason()).isEqualTo(2);
            assertThat(client.job(b.instance()).nodes()).filteredOn(n -> grown.nodes().contains(n.id()))
                    .extracting(koala.api.scheduler.NodeView::site).containsExactly("fs1", "fs1");
            assertThat(cell.history(a.instance())).filteredOn(t -> t.event().equals("TAKEN_BACK")).singleElement()
                    .satisfies(t -> assertThat(t.reason()).contains("taken back for " + b.instance()));
            assertThat(client.framework(b.instance()).share().fairShare()).isEqualTo(2);
            client.closeAllocation(a.instance());
            client.closeAllocation(b.instance());
        }
    }

    /** A framework JDF of sleeping entities whose workers are pinned to fs1; sample period 1 s. */
    private static String pinned(String name, String policy, int workers) {
        return "+( &(jobType = framework)(name = " + name + ")(role = master)(count = 1)(resourceManagerContact = fs1)"
                + "(executable = /bin/sleep)(arguments = 100000)(provisioning = " + policy + ")(fMax = 4)"
                + "(samplePeriod = 1)(tIdle = 600))"
                + " ( &(role = orchestrator)(count = 1)(resourceManagerContact = fs1)(executable = /bin/sleep)"
                + "(arguments = 100000) )"
                + " ( &(role = worker)(count = " + workers + ")(resourceManagerContact = fs1)(executable = /bin/sleep)"
                + "(arguments = 100000) )";
    }
}
