package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import koala.api.runner.RunnerClient;
import koala.api.runner.TokenSource;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.fluent.client.FluentClient;
import koala.fluent.client.FluentJdf;
import koala.runner.RunnerMain;
import koala.scheduler.it.TestHosts.Signal;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Medea's case for anti-affinity, on the testbed: a site goes dark, and an instance of the reference
 * framework whose master and orchestrator the scheduler kept on different sites keeps its master
 * serving, where the same instance with the two on one site loses both. "Dark" is every process on
 * the cell's head node and compute nodes stopped with {@code SIGSTOP} (its qmaster, its execds, the
 * pilots and the entities they run): from outside, a site whose power or network failed. The cell is
 * resumed ({@code SIGCONT}) before each test ends, and the instance closed, so its pilots leave.
 */
@SharesScheduler
class SiteOutageIT {
    private static final Duration LOST_WITHIN = Duration.ofSeconds(60);

    private static TestScheduler scheduler;
    private static SchedulerClient client;
    private static Path dir;

    @BeforeAll
    static void start() throws IOException {
        scheduler = TestScheduler.shared();
        client = scheduler.client();
        dir = TestScheduler.nodeDir("koala-outage-it");
    }

    @AfterAll
    static void stop() {
        scheduler.close();
    }

    /**
     * Hard anti-affinity of the master to the orchestrator over sites: they are placed on two sites.
     * The orchestrator's site goes dark; the runner finds the orchestrator lost, and the master, on a
     * site still up, answers all along and is never lost.
     */
    @Test
    void apartTheMasterKeepsServingWhenTheOrchestratorsSiteGoesDark() throws Exception {
        try (RunnerMain.Started runner = deploy("it-outage-apart", "anti-affinity role=orchestrator site", null)) {
            long id = runner.instance();
            RunnerClient rpc = new RunnerClient(runner.url(), TokenSource.of(runner::token));
            FluentClient master = FluentClient.of(client, id, runner::token).awaitServing(Duration.ofSeconds(60));
            NodeView m = held(id, "master");
            NodeView o = held(id, "orchestrator");
            assertThat(o.site()).as("the orchestrator's site").isNotEqualTo(m.site());

            List<Long> stopped = darken(o.site());
            try {
                Awaitility.await("the orchestrator " + o.id() + " found lost").atMost(LOST_WITHIN)
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> lostEvent(rpc, "orchestrator " + o.id() + " lost"));
                assertThat(master.status().instance()).as("the master answers while " + o.site() + " is dark")
                        .isEqualTo(id);
                assertThat(rpc.status().events()).as("the runner's events").noneMatch(e -> e.contains("master "
                        + m.id() + " lost"));
                assertThat(client.framework(id).master().node()).as("the master, never moved").isEqualTo(m.id());
                System.out.printf("apart: master %s on %s served while %s (orchestrator %s) was dark%n", m.id(),
                        m.site(), o.site(), o.id());
            } finally {
                resume(stopped);
            }
            client.closeAllocation(id);
        }
    }

    /**
     * The same instance with its master and orchestrator on one site (the orchestrator's hard affinity to
     * the master over site puts it there, as a placement blind to the risk may): that site goes dark and
     * the runner finds both lost.
     */
    @Test
    void togetherBothAreLostWhenTheirSiteGoesDark() throws Exception {
        try (RunnerMain.Started runner = deploy("it-outage-together", null, "affinity role=master site")) {
            long id = runner.instance();
            RunnerClient rpc = new RunnerClient(runner.url(), TokenSource.of(runner::token));
            FluentClient.of(client, id, runner::token).awaitServing(Duration.ofSeconds(60));
            NodeView m = held(id, "master");
            NodeView o = held(id, "orchestrator");
            assertThat(o.site()).as("the orchestrator's site").isEqualTo(m.site());

            List<Long> stopped = darken(m.site());
            try {
                Awaitility.await("master " + m.id() + " and orchestrator " + o.id() + " found lost").atMost(LOST_WITHIN)
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> lostEvent(rpc, "master " + m.id() + " lost")
                                && lostEvent(rpc, "orchestrator " + o.id() + " lost"));
                System.out.printf("together: master %s and orchestrator %s lost when %s went dark%n", m.id(), o.id(),
                        m.site());
            } finally {
                resume(stopped);
            }
            client.closeAllocation(id);
        }
    }

    /**
     * An OnDemand instance without workers, sampled every second, its master and orchestrator carrying the
     * constraints given (null for none).
     */
    private static RunnerMain.Started deploy(String name, String master, String orchestrator) throws IOException {
        FluentJdf jdf = new FluentJdf(name, "ondemand", 0, 4, "(samplePeriod = 1)"
                + (master == null ? "" : "(constraints = \"" + master + "\")"), 4, null, dir, null, List.of());
        String text = jdf.text();
        if (orchestrator != null) {
            String role = " ( &(role = orchestrator)\n";
            assertThat(text).contains(role);
            text = text.replace(role, role + "    (constraints = \"" + orchestrator + "\")\n");
        }
        return scheduler.runner(text, scheduler.config(), dir, Duration.ofSeconds(10));
    }

    private static NodeView held(long id, String role) {
        return client.heldNow(id).nodes().stream().filter(n -> role.equals(n.role())).findFirst()
                .orElseThrow(() -> new AssertionError("no " + role + " node held by instance " + id));
    }

    private static boolean lostEvent(RunnerClient rpc, String words) {
        return rpc.status().events().stream().anyMatch(e -> e.contains(words));
    }

    /** Stops every process of {@code site}'s hosts (network namespaces named {@code SITE-...}); their pids. */
    private static List<Long> darken(String site) throws IOException, InterruptedException {
        List<Long> pids = new ArrayList<>();
        for (String host : TestHosts.hostsOf(site)) {
            pids.addAll(TestHosts.pids(host));
        }
        assertThat(pids).as("processes on " + site + "'s hosts").isNotEmpty();
        TestHosts.signalThoseLeft(Signal.STOP, pids); // one that ended meanwhile is no matter
        System.out.printf("%s dark: %d processes stopped%n", site, pids.size());
        return pids;
    }

    private static void resume(List<Long> pids) throws IOException, InterruptedException {
        TestHosts.signalThoseLeft(Signal.CONT, pids);
    }
}
