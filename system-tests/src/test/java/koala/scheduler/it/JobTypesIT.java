package koala.scheduler.it;

import static koala.scheduler.it.TestScheduler.awaitEnd;
import static koala.scheduler.it.TestScheduler.awaitState;
import static koala.scheduler.it.TestScheduler.submit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.http.ApiException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every job type, placed, claimed and run on the real testbed through real site agents. */
@SharesScheduler
class JobTypesIT {
    private static TestScheduler scheduler;
    private static SchedulerClient client;

    @BeforeAll
    static void start() throws Exception {
        // pilots no node owns are looked for every 5 s (30 by default): the sweep's test waits for two looks
        scheduler = TestScheduler.shared(Map.of("scheduler.sweepInterval", "5"));
        client = scheduler.client();
    }

    @AfterAll
    static void stop() {
        scheduler.close();
    }

    private static String component(String cluster, int count, String command) {
        return "(&" + (cluster == null ? "" : "(resourceManagerContact = \"" + cluster + "\")") + "(count = " + count + ")"
                + "(executable = \"/bin/sh\")(arguments = \"-c\" \"" + command + "\"))";
    }

    @Test
    void aFixedJobRunsEachComponentOnItsClusterAndTellsEveryNodeWhereTheOthersAre() throws Exception {
        Path out = TestScheduler.nodeDir("koala-fixed").resolve("nodes.out");
        String jdf = "+" + component("fs0", 2, "echo $KOALA_NODES >> " + out) + component("fs1", 1, "true");

        JobView job = awaitEnd(client, submit(client, "fixed", jdf).id(), Duration.ofSeconds(90));

        assertThat(job.state()).isEqualTo("FINISHED");
        assertThat(job.kind()).isEqualTo("FIXED");
        assertThat(job.nodes()).extracting(NodeView::id, NodeView::site, NodeView::exitStatus).containsExactly(
                org.assertj.core.groups.Tuple.tuple(job.id() + ".0.0", "fs0", 0),
                org.assertj.core.groups.Tuple.tuple(job.id() + ".0.1", "fs0", 0),
                org.assertj.core.groups.Tuple.tuple(job.id() + ".1.0", "fs1", 0));
        List<String> lines = Files.readAllLines(out);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).split(" ")).hasSize(3)
                .allMatch(n -> n.matches("[01]:[01]:fs[01]:.+"));
        assertThat(job.history()).extracting(t -> t.to()).containsExactly("QUEUED", "CLAIMING", "RUNNING", "FINISHED");
    }

    @Test
    void aNonFixedJobGoesWhereWorstFitSendsItAndASemiFixedOneKeepsItsPin() {
        JobView nonFixed = submit(client, "non-fixed", "+" + component(null, 3, "true") + component(null, 2, "true"));
        JobView semiFixed = submit(client, "semi-fixed", "+" + component("fs2", 2, "true") + component(null, 1, "true"));

        JobView a = awaitEnd(client, nonFixed.id(), Duration.ofSeconds(90));
        JobView b = awaitEnd(client, semiFixed.id(), Duration.ofSeconds(90));

        assertThat(a.state()).isEqualTo("FINISHED");
        assertThat(a.kind()).isEqualTo("NON_FIXED");
        assertThat(a.policy()).isEqualTo("worst-fit");
        assertThat(a.nodes()).hasSize(5);
        assertThat(b.state()).isEqualTo("FINISHED");
        assertThat(b.kind()).isEqualTo("SEMI_FIXED");
        assertThat(b.nodes()).filteredOn(n -> n.component() == 0).extracting(NodeView::site).containsOnly("fs2");
    }

    @Test
    void aFlexibleJobLargerThanAnyClusterIsSplitOverTheFewest() {
        JobView job = awaitEnd(client, submit(client, "flexible", "&(jobType = flexible)(count = 20)"
                + "(executable = \"/bin/true\")").id(), Duration.ofSeconds(120));

        assertThat(job.state()).isEqualTo("FINISHED");
        assertThat(job.policy()).isEqualTo("flexible-cluster-minimization");
        assertThat(job.nodes()).hasSize(20);
        assertThat(job.nodes().stream().map(NodeView::site).distinct().count()).isEqualTo(2);
    }

    @Test
    void componentsOnTwoClustersExchangeMessages() throws Exception {
        String jdf = Files.readString(Path.of("../jdf-examples/exchange.jdf"));
        Path home = koala.grid.Accounts.home("koala").orElseThrow();
        Files.deleteIfExists(home.resolve("koala-exchange-0.out"));
        Files.deleteIfExists(home.resolve("koala-exchange-1.out"));

        JobView job = awaitEnd(client, submit(client, "exchange.jdf", jdf).id(), Duration.ofSeconds(90));

        assertThat(job.state()).as(job.history().toString()).isEqualTo("FINISHED");
        assertThat(Files.readString(home.resolve("koala-exchange-0.out"))).contains("fs0 got: ping from fs1");
        assertThat(Files.readString(home.resolve("koala-exchange-1.out"))).contains("fs1 got: pong from fs0");
    }

    @Test
    void aComponentThatFailsFailsTheJobWithTheNodeAndStatus() {
        JobView job = awaitEnd(client, submit(client, "fails", "+" + component("fs1", 1, "exit 3")
                + component("fs2", 1, "true")).id(), Duration.ofSeconds(90));

        assertThat(job.state()).isEqualTo("FAILED");
        assertThat(job.history().get(job.history().size() - 1).reason()).isEqualTo("node " + job.id()
                + ".0.0 exited with 3");
    }

    @Test
    void aComponentPastItsMaxWallTimeIsStoppedAndFailsTheJobWithThatReason() {
        String overrun = "(&(resourceManagerContact = \"fs0\")(count = 1)(maxWallTime = 00:00:03)"
                + "(executable = \"/bin/sleep\")(arguments = \"600\"))";
        JobView job = awaitEnd(client, submit(client, "overrun", "+" + overrun).id(), Duration.ofSeconds(90));

        assertThat(job.state()).isEqualTo("FAILED");
        assertThat(job.history().get(job.history().size() - 1).reason()).isEqualTo("node " + job.id()
                + ".0.0 ran past its component's maxWallTime and was stopped");
    }

    /** SGE's pilots equal KOALA's nodes: a pilot of this scheduler's that no node owns (a kill that failed) goes. */
    @Test
    void aPilotNoNodeOwnsIsKilledByTheSweepWhileTheSchedulerRuns() throws Exception {
        JobView job = submit(client, "owner", "+" + component("fs1", 1, "sleep 600"));
        awaitState(client, job.id(), "RUNNING", Duration.ofSeconds(90));
        koala.grid.GridConfig grid = koala.grid.GridConfig.load(scheduler.config());
        String tag = TestScheduler.pilotsNamedFor(grid, job.id()).get(0).replaceFirst("^[^:]+:koala-([a-z0-9]+)-.*$", "$1");
        String orphan = koala.testbed.LocalUser.qsub(grid.site("fs0"), "koala-" + tag + "-9997-0-0-a1", "/bin/sleep", "600");
        try {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofSeconds(2))
                    .until(() -> TestScheduler.pilotsNamedFor(grid, 9997).isEmpty());
            assertThat(TestScheduler.pilotsNamedFor(grid, job.id())).as("the owned pilot stays").hasSize(1);
        } finally {
            if (!TestScheduler.pilotsNamedFor(grid, 9997).isEmpty()) {
                koala.testbed.LocalUser.qdel(grid.site("fs0"), java.util.List.of(orphan));
            }
            client.cancel(job.id());
        }
    }

    @Test
    void cancelKillsEveryComponentAndGivesTheNodesBack() {
        // pilots of other schedulers (an earlier test's, ending) may still hold nodes of fs1: count from here
        int before = client.sites().stream().filter(s -> s.site().equals("fs1")).mapToInt(s -> s.koala()).sum();
        JobView job = submit(client, "long", "+" + component("fs1", 2, "sleep 600") + component("fs2", 1, "sleep 600"));
        awaitState(client, job.id(), "RUNNING", Duration.ofSeconds(90));

        assertThat(client.cancel(job.id()).state()).isEqualTo("CANCELLED");

        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> client.sites().stream()
                .filter(s -> s.site().equals("fs1")).allMatch(s -> s.koala() <= before));
        assertThat(client.job(job.id()).nodes()).extracting(NodeView::state).containsOnly("RELEASED");
    }

    @Test
    void badJobsAreRefusedWithTheirErrorsAndUnknownJobsAre404() {
        assertThatThrownBy(() -> submit(client, "bad.jdf", "&(count = 2)(executable = \"/bin/true\")(colour = red)"))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).startsWith("bad.jdf:1:");
                });
        assertThatThrownBy(() -> client.job(999_999))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(404));
    }
}
