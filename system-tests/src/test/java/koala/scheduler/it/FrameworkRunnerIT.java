package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import koala.api.runner.RunnerClient;
import koala.api.runner.RunnerMessages;
import koala.api.runner.TokenSource;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SiteStatus;
import koala.grid.GridConfig;
import koala.http.ApiException;
import koala.runner.RunnerMain;
import koala.testbed.LocalUser;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Framework runners on the real testbed, with a minimal framework whose entities are shell
 * programs: the master sleeps; a worker burns CPU while the test's flag file exists.
 */
@SharesScheduler
class FrameworkRunnerIT {
    private static TestScheduler scheduler;
    private static SchedulerClient client;
    private static Path dir;

    @BeforeAll
    static void start() throws IOException {
        scheduler = TestScheduler.shared();
        client = scheduler.client();
        // the workers look for their burn flag here: a directory the nodes see
        dir = TestScheduler.nodeDir("koala-runner-it");
    }

    @AfterAll
    static void stop() {
        scheduler.close();
    }

    @Test
    void onDemandGrowsWhenAskedUpToFMaxAndShrinksWorkersIdleForTIdle() throws Exception {
        try (RunnerMain.Started runner = start(jdf("ondemand", 0, "(fMax = 3)(tIdle = 4)(samplePeriod = 1)"))) {
            RunnerClient rpc = rpc(runner);
            RunnerMessages.Status status = rpc.status();
            assertThat(status.state()).isEqualTo("RUNNING");
            assertThat(status.role("worker")).isEmpty();
            FrameworkView registered = client.framework(runner.instance());
            assertThat(registered.master().address()).isEqualTo(status.master());
            assertThat(registered.nodesPerRole()).containsEntry("master", 1).containsEntry("orchestrator", 1);

            RunnerMessages.GrowResult grew = rpc.grow(2);
            assertThat(grew.granted()).isEqualTo(2);
            awaitWorkers(rpc, 2);

            RunnerMessages.GrowResult partial = rpc.grow(5);
            assertThat(partial.granted()).isEqualTo(1);
            assertThat(partial.reason()).contains("F_max 3");
            RunnerMessages.GrowResult refused = rpc.grow(1);
            assertThat(refused.granted()).isZero();
            assertThat(refused.reason()).contains("F_max");
            awaitWorkers(rpc, 3);

            String first = grew.nodes().get(0);
            RunnerMessages.ShrinkResult early = rpc.shrink(List.of(first));
            assertThat(early.released()).isEmpty();
            assertThat(early.refused()).singleElement().satisfies(r -> assertThat(r.reason()).contains("t_idle"));

            RunnerMessages.ShrinkResult later = Awaitility.await().atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500)).until(() -> rpc.shrink(List.of(first)),
                            r -> !r.released().isEmpty());
            assertThat(later.released()).containsExactly(first);
            assertThat(rpc.status().role("worker")).hasSize(2);
            assertThat(client.framework(runner.instance()).history())
                    .anySatisfy(t -> assertThat(t.reason()).contains("released " + first).contains("t_idle"));

            client.closeAllocation(runner.instance());
            assertThat(runner.runner().awaitEnd(Duration.ofSeconds(10))).isTrue();
        }
    }

    @Test
    void orchestratorsSpillToANewNodeAboveTheThresholdAndAnEmptyOneIsReturnedAfterTIdle() throws Exception {
        try (RunnerMain.Started runner = start(jdf("ondemand", 0, "(orchestratorThreshold = 1)(tIdle = 3)"
                + "(samplePeriod = 1)"))) {
            RunnerClient rpc = rpc(runner);
            String first = rpc.status().role("orchestrator").get(0).node();
            RunnerMessages.OrchestratorPlace reuse = rpc.orchestrator();
            assertThat(reuse.node()).isEqualTo(first);
            assertThat(reuse.newNode()).isFalse();
            RunnerMessages.OrchestratorPlace spill = rpc.orchestrator();
            assertThat(spill.newNode()).isTrue();
            assertThat(spill.reason()).contains("> threshold 1");
            Awaitility.await().atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(300))
                    .until(() -> rpc.status().role("orchestrator").stream().allMatch(e -> e.state().equals("RUNNING"))
                            && rpc.status().role("orchestrator").size() == 2);

            rpc.orchestratorDone(first);
            rpc.orchestratorDone(spill.node());
            assertThatThrownBy(() -> rpc.orchestratorDone(first))
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(409));
            Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(300))
                    .until(() -> rpc.status().role("orchestrator").size() == 1);
            assertThat(rpc.status().events()).anySatisfy(e -> assertThat(e).contains("return ").contains("empty since")
                    .contains(">= t_idle 3 s"));
            client.closeAllocation(runner.instance());
        }
    }

    @Test
    void refusedCallsChangeNothing() throws Exception {
        try (RunnerMain.Started runner = start(jdf("ondemand", 0, "(fMax = 2)"))) {
            RunnerClient rpc = rpc(runner);
            assertThat(http(runner, "/status", null, null).statusCode()).isEqualTo(401);
            assertThatThrownBy(() -> new RunnerClient(runner.url(), "not-the-token").grow(1))
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401));
            HttpResponse<String> malformed = http(runner, "/grow", runner.token(), "{\"nodes\": \"many\"}");
            assertThat(malformed.statusCode()).isEqualTo(400);
            assertThat(malformed.body()).contains("\"field\":\"nodes\"");
            assertThat(http(runner, "/grow", runner.token(), "{\"nodes\": 1, \"role\": \"master\"}").body())
                    .contains("\"field\":\"role\"");
            assertThatThrownBy(() -> rpc.shrink(List.of("999.0.0")))
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(409));
            String master = rpc.status().role("master").get(0).node();
            assertThatThrownBy(() -> rpc.shrink(List.of(master)))
                    .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(409));
            assertThat(rpc.status().entities()).hasSize(2);
            assertThat(client.job(runner.instance()).nodes()).hasSize(2);
            client.closeAllocation(runner.instance());
        }
    }

    @Test
    void staticStaysPutAndReplacesAWorkerKilledWithQdelAndAMasterKilledWithQdelOnANewNode() throws Exception {
        try (RunnerMain.Started runner = start(jdf("static", 2, "(samplePeriod = 2)"))) {
            RunnerClient rpc = rpc(runner);
            List<RunnerMessages.Entity> workers = awaitWorkers(rpc, 2);
            RunnerMessages.GrowResult refused = rpc.grow(1);
            assertThat(refused.granted()).isZero();
            assertThat(refused.reason()).contains("static");

            NodeView victim = node(runner.instance(), workers.get(0).node());
            LocalUser.qdel(GridConfig.load(scheduler.config()).site(victim.site()), List.of(victim.pilot()));
            Instant killed = Instant.now(); // qdel itself may take a second on a loaded machine
            Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                    .until(() -> rpc.status().events().stream().anyMatch(e -> e.contains(victim.id() + " lost")));
            assertThat(Duration.between(killed, Instant.now())).isLessThanOrEqualTo(Duration.ofSeconds(5));
            List<RunnerMessages.Entity> now = awaitWorkers(rpc, 2);
            assertThat(now).extracting(RunnerMessages.Entity::node).doesNotContain(victim.id());

            // the master's node is gone: the master is deployed on a new node and the FJM points there
            NodeView master = node(runner.instance(), rpc.status().role("master").get(0).node());
            LocalUser.qdel(GridConfig.load(scheduler.config()).site(master.site()), List.of(master.pilot()));
            Awaitility.await("a new master").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                    .until(() -> rpc.status().role("master").stream().anyMatch(m -> !m.node().equals(master.id())
                            && m.state().equals("RUNNING")));
            String now2 = rpc.status().role("master").get(0).node();
            assertThat(rpc.status().state()).isEqualTo("RUNNING");
            assertThat(rpc.status().events()).anySatisfy(e -> assertThat(e).contains("restarting it on a new node"));
            Awaitility.await("the FJM re-pointed").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(300))
                    .until(() -> client.framework(runner.instance()).master().node().equals(now2));
            assertThat(client.framework(runner.instance()).master().address()).isEqualTo(rpc.status().master());
            client.closeAllocation(runner.instance());
        }
    }

    /**
     * A master whose command keeps exiting is restarted on its node 3 times; the 4th death within
     * a minute of its start fails the instance, with that reason, and gives every node back.
     */
    @Test
    void aMasterThatKeepsDyingIsRestartedThreeTimesAndThenFailsTheInstanceWithTheReason() throws Exception {
        // the first life outlasts the deployment (about 3 s); the restarted ones die after 2 s
        Path lived = dir.resolve("master-lived-" + System.nanoTime());
        String jdf = jdf("static", 1, "(samplePeriod = 1)").replace("(executable = /bin/sleep)(arguments = 100000)"
                + "(provisioning", "(executable = /bin/sh)(arguments = \"-c\" \"if [ -e " + lived + " ]; then sleep 2; "
                + "else touch " + lived + "; sleep 6; fi; exit 4\")(provisioning");
        try (RunnerMain.Started runner = start(jdf)) {
            RunnerClient rpc = rpc(runner);
            String node = rpc.status().role("master").get(0).node();
            assertThat(runner.runner().awaitEnd(Duration.ofSeconds(90))).isTrue();
            JobView allocation = TestScheduler.awaitEnd(client, runner.instance(), Duration.ofSeconds(15));
            assertThat(allocation.nodes()).noneMatch(n -> List.of("SUBMITTED", "ARRIVED", "RUNNING").contains(n.state()));
            assertThat(runner.runner().state()).isEqualTo(koala.runner.FrameworkRunner.State.FAILED);
            assertThat(allocation.state()).isEqualTo("FAILED");
            assertThat(allocation.history().get(allocation.history().size() - 1).reason()).isEqualTo(
                    "the instance failed: its master was lost (its entity exited with status 4) and could not be "
                            + "restarted: it died 4 times, each within 60 s of its start");
            for (int i = 1; i <= 3; i++) {
                String restart = "master " + node + " lost (its entity exited with status 4); restarting it "
                        + "on its node (restart " + i + " of 3)";
                assertThat(rpc.status().events()).anySatisfy(e -> assertThat(e).contains(restart));
            }
        }
    }

    @Test
    void aWorkerWhoseCommandExitsIsReportedWithItsStatusAndStaticReplacesIt() throws Exception {
        String jdf = jdf("static", 1, "(samplePeriod = 1)").replace("(executable = /bin/sh)(arguments = \"-c\" \"",
                "(executable = /bin/sh)(arguments = \"-c\" \"sleep 2; exit 3; ");
        try (RunnerMain.Started runner = start(jdf)) {
            RunnerClient rpc = rpc(runner);
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                    .until(() -> rpc.status().events().stream().anyMatch(e -> e.contains("exited with status 3")));
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                    .until(() -> rpc.status().events().stream().anyMatch(e -> e.contains("keeps its 1 initial workers")));
            client.closeAllocation(runner.instance());
        }
    }

    @Test
    void proactiveGrowsWhileWorkersBurnCpuAndShrinksToItsInitialWorkersWhenTheyIdle() throws Exception {
        Path burn = dir.resolve("burn-proactive");
        // CPU is a share of the node's cores, here the machine's two, which the busy workers share with
        // everything else the machine runs: two burners got 17-20% each in a clean-clone run
        try (RunnerMain.Started runner = start(jdf("proactive", 1,
                "(fMax = 3)(uMin = 5)(uMax = 10)(tIdle = 3)(samplePeriod = 2)", burn))) {
            RunnerClient rpc = rpc(runner);
            awaitWorkers(rpc, 1);
            Files.writeString(burn, "burn");
            awaitWorkers(rpc, 3, Duration.ofSeconds(60));
            assertThat(rpc.status().events()).anySatisfy(e -> assertThat(e).contains("U_max"));
            Files.delete(burn);
            Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> rpc.status().role("worker").size() == 1);
            assertThat(rpc.status().events()).anySatisfy(e -> assertThat(e).contains("U_min"));
            client.closeAllocation(runner.instance());
        } finally {
            Files.deleteIfExists(burn);
        }
    }

    @Test
    void anAdminsEditOfTheSiteDefaultsReachesARunningInstanceAndABadOneIsRefused() throws Exception {
        Path grid = dir.resolve("grid-edited.properties");
        Files.copy(scheduler.config(), grid);
        try (RunnerMain.Started runner = start(jdf("ondemand", 0, "(fMax = 10)(samplePeriod = 1)"), grid)) {
            RunnerClient rpc = rpc(runner);
            assertThat(rpc.status().settings()).anySatisfy(s -> assertThat(s).startsWith("fMax = 10 from jdf"));
            Files.writeString(grid, "\nsite.fs1.provisioning.fMax = 1\n", StandardOpenOption.APPEND);
            Awaitility.await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(200))
                    .until(() -> rpc.status().settings().stream().anyMatch(s -> s.startsWith("fMax = 1 from site fs1")));
            assertThat(rpc.grow(2).granted()).isEqualTo(1);

            Files.writeString(grid, "\nsite.fs1.provisioning.uMin = 150\n", StandardOpenOption.APPEND);
            Awaitility.await().atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(200))
                    .until(() -> rpc.status().events().stream().anyMatch(e -> e.contains("uMin") && e.contains("refused")));
            assertThat(rpc.status().settings()).anySatisfy(s -> assertThat(s).startsWith("fMax = 1 from site fs1"));
            client.closeAllocation(runner.instance());
        }
    }

    @Test
    void aFullGridRefusesAGrowSayingSo() throws Exception {
        GridConfig grid = GridConfig.load(scheduler.config());
        List<String[]> local = new ArrayList<>();
        try (RunnerMain.Started runner = start(jdf("ondemand", 0, "(fMax = 20)"))) {
            RunnerClient rpc = rpc(runner);
            for (SiteStatus site : client.sites()) {
                for (int i = 0; i < site.idle(); i++) {
                    local.add(new String[] {site.site(), LocalUser.qsub(grid.site(site.site()), "fill", "/bin/sleep", "300")});
                }
            }
            Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                    .until(() -> client.sites().stream().mapToInt(SiteStatus::idle).sum() == 0);
            RunnerMessages.GrowResult refused = rpc.grow(2);
            assertThat(refused.granted()).isZero();
            assertThat(refused.reason()).contains("grid");
            client.closeAllocation(runner.instance());
        } finally {
            for (String[] job : local) {
                LocalUser.qdel(grid.site(job[0]), List.of(job[1]));
            }
            // the grid free again as the scheduler sees it, before the next test asks it for nodes (one
            // that ran at once was once refused an orchestrator for this test's jobs still in the cells)
            Awaitility.await("the local jobs gone from the scheduler's view").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> client.sites().stream().mapToInt(SiteStatus::others).sum() == 0);
        }
    }

    @Test
    void whenItsRunnerDiesTheLaunchersGiveTheNodesBack() throws Exception {
        RunnerMain.Started runner = scheduler.runner(jdf("ondemand", 0, "(samplePeriod = 1)"), scheduler.config(), dir,
                Duration.ofSeconds(2));
        long instance = runner.instance();
        runner.close();
        JobView after = Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> client.job(instance), j -> j.nodes().stream().noneMatch(n -> n.state().equals("RUNNING")));
        assertThat(after.nodes()).hasSize(2);
        client.closeAllocation(instance);
    }

    private static RunnerMain.Started start(String jdf) throws IOException {
        return start(jdf, scheduler.config());
    }

    private static RunnerMain.Started start(String jdf, Path grid) {
        return scheduler.runner(jdf, grid, dir, Duration.ofSeconds(5));
    }

    private static String jdf(String policy, int workers, String settings, Path burn) {
        String worker = "while true; do if [ -e " + burn + " ]; then while [ -e " + burn + " ]; do :; done; "
                + "else sleep 0.2; fi; done";
        return "+( &(jobType = framework)(name = it-" + policy + ")(role = master)(count = 1)"
                + "(resourceManagerContact = fs1)(executable = /bin/sleep)(arguments = 100000)"
                + "(provisioning = " + policy + ")" + settings + ")"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100000) )"
                + " ( &(role = worker)(count = " + workers + ")(executable = /bin/sh)(arguments = \"-c\" \"" + worker
                + "\") )";
    }

    private static String jdf(String policy, int workers, String settings) {
        return jdf(policy, workers, settings, dir.resolve("no-burn"));
    }

    private static RunnerClient rpc(RunnerMain.Started runner) {
        return new RunnerClient(runner.url(), TokenSource.of(runner::token));
    }

    private static List<RunnerMessages.Entity> awaitWorkers(RunnerClient rpc, int count) {
        return awaitWorkers(rpc, count, Duration.ofSeconds(40));
    }

    private static List<RunnerMessages.Entity> awaitWorkers(RunnerClient rpc, int count, Duration within) {
        return Awaitility.await(count + " workers running").atMost(within).pollInterval(Duration.ofMillis(300))
                .until(() -> rpc.status().role("worker"), w -> w.size() == count
                        && w.stream().allMatch(e -> e.state().equals("RUNNING")));
    }

    private static NodeView node(long instance, String id) {
        return client.job(instance).nodes().stream().filter(n -> n.id().equals(id)).findFirst().orElseThrow();
    }

    private static HttpResponse<String> http(RunnerMain.Started runner, String path, String token, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(runner.url() + path));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        request = body == null ? request.GET() : request.POST(HttpRequest.BodyPublishers.ofString(body));
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
