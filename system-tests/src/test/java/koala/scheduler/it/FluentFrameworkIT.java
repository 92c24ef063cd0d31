package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import koala.api.runner.RunnerClient;
import koala.api.runner.TokenSource;
import koala.api.scheduler.SchedulerClient;
import koala.fluent.client.FluentClient;
import koala.fluent.client.FluentJdf;
import koala.fluent.device.Words;
import koala.fluent.wire.FluentMessages.AppReply;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.fluent.wire.FluentMessages.MetricsReport;
import koala.fluent.wire.FluentMessages.MetricsSample;
import koala.grid.KoalaHome;
import koala.process.JavaCommand;
import koala.process.RuntimeImage;
import koala.runner.RunnerMain;
import koala.scheduler.it.TestHosts.Signal;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The reference framework end to end on the real testbed: its master, DeviceManagers and
 * applications run as KOALA framework entities, and OnDemand resizing is driven by the master's
 * own requests to its runner.
 */
@SharesScheduler
class FluentFrameworkIT {
    private static final AppRequest RL = new AppRequest("rl", 3_000L, 20.0, 1_000L, null, null);

    private static TestScheduler scheduler;
    private static SchedulerClient client;
    private static Path dir;

    @BeforeAll
    static void start() throws IOException {
        scheduler = TestScheduler.shared();
        client = scheduler.client();
        dir = TestScheduler.nodeDir("koala-fluent-it");
    }

    @AfterAll
    static void stop() {
        scheduler.close();
    }

    @Test
    void onDemandGrowsForAnRlBatchReleasesAfterTIdleAndRejectsWhatExceedsFMax() throws Exception {
        try (RunnerMain.Started runner = start("ondemand", 0, 3, "(tIdle = 4)(samplePeriod = 1)")) {
            RunnerClient rpc = new RunnerClient(runner.url(), TokenSource.of(runner::token));
            FluentClient fluent = FluentClient.of(client, runner.instance(), runner::token)
                    .awaitServing(Duration.ofSeconds(60));
            assertThat(rpc.status().role("worker")).isEmpty();

            JobReply two = fluent.submit(new JobRequest("two", List.of(RL, RL)));
            assertThat(two.apps()).extracting(AppReply::verdict).containsExactly("PLACED", "PLACED");
            assertThat(two.grow()).isEqualTo("asked to grow 2, granted 2; the new workers joined");
            assertThat(two.apps().get(0).workers()).doesNotContainAnyElementsOf(two.apps().get(1).workers());
            // each gets its orchestrator node as the runner answers the master (off the master's lock)
            Awaitility.await("each application has its orchestrator").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(100)).until(() -> fluent.job(two.job()).apps().stream()
                            .allMatch(a -> a.orchestrator() != null));
            // the master and the workers run on compute hosts of their own, and answer only on their addresses
            List<String> hosts = client.job(runner.instance()).nodes().stream()
                    .filter(n -> List.of("ARRIVED", "RUNNING").contains(n.state())).map(n -> n.host()).toList();
            assertThat(hosts).as("master, orchestrator node, two workers").hasSize(4).doesNotHaveDuplicates()
                    .allMatch(h -> h.matches("fs[01]-n\\d+"));
            assertThat(fluent.status().workers()).allSatisfy(w -> assertThat(w.url()).matches("http://fs[01]-n\\d+:\\d+"));
            hosts.forEach(h -> assertThat(TestScheduler.javaOnLoopback(h)).as("KOALA on %s's loopback", h).isEmpty());
            // a DeviceManager obeys only its master: a component sent by anyone else, even with the
            // instance's own token, is refused and nothing is started
            URI device = URI.create(fluent.status().workers().get(0).url());
            Map<String, Object> reader = Map.of("app", "x-steal", "role", "reader", "path", "/etc/shadow",
                    "target", "http://198.18.0.1:9/");
            for (koala.http.JsonHttpClient caller : List.of(new koala.http.JsonHttpClient(device,
                    Duration.ofSeconds(10)), new koala.http.JsonHttpClient(device, Duration.ofSeconds(10))
                    .withBearer(runner.token()))) {
                assertThatThrownBy(() -> caller.post("/components", reader, Map.class))
                        .isInstanceOfSatisfying(koala.http.ApiException.class,
                                e -> assertThat(e.status()).as(e.getMessage()).isEqualTo(401));
            }

            awaitEnded(fluent, two.job());
            assertThat(fluent.job(two.job()).apps()).allSatisfy(a -> {
                assertThat(a.state()).isEqualTo("FINISHED");
                assertThat(((Number) a.result().get("frames")).longValue()).isPositive();
            });
            Awaitility.await("workers released after t_idle").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500)).until(() -> rpc.status().role("worker").isEmpty());
            assertThat(fluent.status().workers()).isEmpty();
            assertThat(fluent.status().events()).anySatisfy(e -> assertThat(e.text()).contains("ask to release")
                    .contains(">= t_idle 4 s").contains("released"));
            assertThat(client.framework(runner.instance()).history())
                    .anySatisfy(t -> assertThat(t.reason()).contains("t_idle"));

            JobReply five = fluent.submit(new JobRequest("five", List.of(RL, RL, RL, RL, RL)));
            assertThat(five.grow()).startsWith("asked to grow 5, granted 3").contains("F_max 3");
            assertThat(five.count("PLACED")).isEqualTo(3);
            assertThat(five.count("REJECTED")).isEqualTo(2);
            assertThat(five.apps().get(4).reason()).contains("rejected");
            awaitEnded(fluent, five.job());

            MetricsReport metrics = fluent.metrics();
            assertThat(metrics.samples()).extracting(MetricsSample::allocated).contains(2, 3);
            assertThat(metrics.samples()).anySatisfy(s -> assertThat(s.busy()).isEqualTo(3));
            assertThat(metrics.samples().get(metrics.samples().size() - 1).rejected()).isEqualTo(2);
            assertThat(metrics.workerSeconds()).hasSize(5);
            Path csv = dir.resolve("instance-" + runner.instance()).resolve("metrics.csv");
            assertThat(Files.readAllLines(csv).get(0)).startsWith("at,allocated,busy,cpuPercent,accepted");
            assertThat(Files.readAllLines(csv)).hasSizeGreaterThan(5);
            client.closeAllocation(runner.instance());
        }
    }

    @Test
    void wordCountsQueueForTheOneStaticWorkerAndAllCountRight() throws Exception {
        List<String> lines = IntStream.range(0, 3000).mapToObj(i -> "stream " + i % 50 + " of words, word " + i)
                .toList();
        Path text = Files.write(dir.resolve("words.txt"), lines);
        Map<String, Long> expected = new HashMap<>();
        lines.forEach(l -> Words.count(l, expected));
        long words = expected.values().stream().mapToLong(Long::longValue).sum();
        AppRequest swc = new AppRequest("swc", 1_500L, null, null, 1, text.toString());

        try (RunnerMain.Started runner = start("static", 1, 4, "(samplePeriod = 1)")) {
            FluentClient fluent = FluentClient.of(client, runner.instance(), runner::token)
                    .awaitServing(Duration.ofSeconds(60));
            Awaitility.await("the static worker joined").atMost(Duration.ofSeconds(30))
                    .until(() -> fluent.status().workers().size() == 1);
            JobReply three = fluent.submit(new JobRequest("wc", List.of(swc, swc, swc)));
            assertThat(three.apps()).extracting(AppReply::verdict).containsExactly("PLACED", "QUEUED", "QUEUED");
            assertThat(three.grow()).contains("report only");

            awaitEnded(fluent, three.job());
            assertThat(fluent.job(three.job()).apps()).allSatisfy(a -> {
                assertThat(a.state()).isEqualTo("FINISHED");
                assertThat(a.result()).containsEntry("check", "ok").containsEntry("words", (int) words)
                        .containsEntry("distinct", expected.size());
            });
            assertThat(fluent.status().counters()).containsEntry("startedFromQueue", 2).containsEntry("finished", 3);
            client.closeAllocation(runner.instance());
        }
    }

    /**
     * Issue 14: the master is killed (kill -9 of its JVM on its node) while an RL and a word count
     * run and two word counts are queued. Its launcher starts it again on its node; it replays its
     * journal, its DeviceManagers report to it, and the instance goes on: the running applications
     * finish, the queued ones start in order, each exactly once, and the FJM names the new master.
     */
    @Test
    void aKilledMasterIsRestartedFromItsJournalAndLosesNothing() throws Exception {
        List<String> lines = IntStream.range(0, 2000).mapToObj(i -> "restart " + i % 40 + " words " + i).toList();
        Path text = Files.write(dir.resolve("restart-words.txt"), lines);
        Map<String, Long> expected = new HashMap<>();
        lines.forEach(l -> Words.count(l, expected));
        AppRequest longRl = new AppRequest("rl", 15_000L, 20.0, 1_000L, null, null);
        AppRequest swc = new AppRequest("swc", 5_000L, null, null, 1, text.toString());

        try (RunnerMain.Started runner = start("static", 2, 4, "(samplePeriod = 1)")) {
            RunnerClient rpc = new RunnerClient(runner.url(), TokenSource.of(runner::token));
            FluentClient fluent = FluentClient.of(client, runner.instance(), runner::token)
                    .awaitServing(Duration.ofSeconds(60));
            Awaitility.await("the static workers joined").atMost(Duration.ofSeconds(60))
                    .until(() -> fluent.status().workers().size() == 2);
            JobReply job = fluent.submit(new JobRequest("restart", List.of(longRl, swc, swc, swc)));
            assertThat(job.apps()).extracting(AppReply::verdict).containsExactly("PLACED", "PLACED", "QUEUED", "QUEUED");

            String masterNode = rpc.status().role("master").get(0).node();
            String host = client.job(runner.instance()).nodes().stream().filter(n -> n.id().equals(masterNode))
                    .findFirst().orElseThrow().host();
            long pid = masterPid(host);
            assertThat(pid).as("the master's JVM on %s", host).isGreaterThan(1);
            String before = client.framework(runner.instance()).master().address();
            long killed = System.nanoTime();
            TestHosts.signalThoseLeft(Signal.KILL, List.of(pid));

            // served again: the FJM names a master that answers, and it is another process
            FluentClient[] again = new FluentClient[1];
            Awaitility.await("the master serves again").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                    .ignoreExceptions().until(() -> {
                        again[0] = new FluentClient(URI.create("http://" + client.framework(runner.instance()).master()
                                .address()), runner::token);
                        return again[0].status().instance() == runner.instance()
                                && !ProcessHandle.of(pid).isPresent();
                    });
            double recovery = (System.nanoTime() - killed) / 1e9;
            FluentClient master = again[0];
            System.out.printf("master of instance %d killed (pid %d on %s, %s); served again at %s after %.2f s%n",
                    runner.instance(), pid, host, before, master.url(), recovery);
            assertThat(rpc.status().state()).isEqualTo("RUNNING");
            assertThat(masterPid(rpc.status().master().split(":")[0])).isGreaterThan(1).isNotEqualTo(pid);
            assertThat(client.framework(runner.instance()).master().address()).isEqualTo(rpc.status().master());
            assertThat(client.framework(runner.instance()).state()).isEqualTo("RUNNING");
            assertThat(rpc.status().events()).anySatisfy(e -> assertThat(e).contains("restarting it on its node")
                    .contains("restart 1 of 3"));
            assertThat(master.status().events()).anySatisfy(e -> assertThat(e.text()).contains("recovered from the journal"));

            awaitEnded(master, job.job());
            JobReply done = master.job(job.job());
            assertThat(done.apps()).extracting(AppReply::state).containsOnly("FINISHED");
            assertThat(done.apps().get(0).result()).containsKey("frames");
            done.apps().subList(1, 4).forEach(a -> assertThat(a.result()).containsEntry("check", "ok")
                    .containsEntry("distinct", expected.size()));
            // each exactly once: two started from the queue, four finished, nothing failed or run again
            assertThat(master.status().counters()).containsEntry("accepted", 2).containsEntry("queued", 2)
                    .containsEntry("startedFromQueue", 2).containsEntry("finished", 4);
            // the queue kept its order: swc2 started before swc3
            List<String> log = Files.readAllLines(dir.resolve("instance-" + runner.instance()).resolve("events.log"));
            int second = indexOf(log, job.job() + ".swc2 started from the queue");
            int third = indexOf(log, job.job() + ".swc3 started from the queue");
            assertThat(second).isNotNegative().isLessThan(third);
            // the journal is the instance owner's alone
            Path journal = dir.resolve("instance-" + runner.instance()).resolve("journal");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(journal))).isEqualTo("rwx------");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(journal.resolve("master.journal"))))
                    .isEqualTo("rw-------");
            client.closeAllocation(runner.instance());
        }
    }

    /**
     * The master's node goes: its launcher and the master are killed (kill -9), so no launcher
     * restarts it. The runner misses the node's heartbeats, gives the node back and deploys the
     * master on a new node; the FJM and the DeviceManagers (through the runner's status) find it
     * there, and the running and queued applications finish, each once.
     */
    @Test
    void aMasterWhoseNodeIsGoneIsRestartedOnANewNode() throws Exception {
        List<String> lines = IntStream.range(0, 2000).mapToObj(i -> "moved " + i % 30 + " words " + i).toList();
        Path text = Files.write(dir.resolve("moved-words.txt"), lines);
        AppRequest longRl = new AppRequest("rl", 20_000L, 20.0, 1_000L, null, null);
        AppRequest swc = new AppRequest("swc", 4_000L, null, null, 1, text.toString());

        try (RunnerMain.Started runner = start("static", 2, 4, "(samplePeriod = 1)")) {
            RunnerClient rpc = new RunnerClient(runner.url(), TokenSource.of(runner::token));
            FluentClient fluent = FluentClient.of(client, runner.instance(), runner::token)
                    .awaitServing(Duration.ofSeconds(60));
            Awaitility.await("the static workers joined").atMost(Duration.ofSeconds(60))
                    .until(() -> fluent.status().workers().size() == 2);
            JobReply job = fluent.submit(new JobRequest("moved", List.of(longRl, swc, swc, swc)));
            assertThat(job.apps()).extracting(AppReply::verdict).containsExactly("PLACED", "PLACED", "QUEUED", "QUEUED");

            String oldNode = rpc.status().role("master").get(0).node();
            String host = rpc.status().master().split(":")[0];
            long pid = masterPid(host);
            assertThat(pid).as("the master's JVM on %s", host).isGreaterThan(1);
            ProcessHandle launcher = ProcessHandle.of(pid).flatMap(ProcessHandle::parent).orElseThrow();
            assertThat(TestHosts.commandLine(launcher.pid())).as("the command line of the master's parent %d",
                    launcher.pid()).hasValueSatisfying(c -> assertThat(c).contains("koala.node.NodeLauncher"));
            long killed = System.nanoTime();
            TestHosts.signalThoseLeft(Signal.KILL, List.of(launcher.pid(), pid));

            FluentClient[] again = new FluentClient[1];
            Awaitility.await("the master serves on a new node").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(100)).ignoreExceptions().until(() -> {
                        // a new node, which KOALA may well place on the host the old one freed
                        again[0] = new FluentClient(URI.create("http://" + client.framework(runner.instance()).master()
                                .address()), runner::token);
                        return !client.framework(runner.instance()).master().node().equals(oldNode)
                                && again[0].status().instance() == runner.instance();
                    });
            System.out.printf("master of instance %d: node %s (%s) gone; served again on node %s at %s after %.2f s%n",
                    runner.instance(), oldNode, host, client.framework(runner.instance()).master().node(),
                    again[0].url(), (System.nanoTime() - killed) / 1e9);
            FluentClient master = again[0];
            assertThat(rpc.status().state()).isEqualTo("RUNNING");
            assertThat(rpc.status().role("master")).singleElement().satisfies(m -> assertThat(m.node()).isNotEqualTo(oldNode));
            assertThat(client.framework(runner.instance()).master().node()).isNotEqualTo(oldNode);
            assertThat(rpc.status().events()).anySatisfy(e -> assertThat(e).contains("restarting it on a new node"));

            awaitEnded(master, job.job());
            assertThat(master.job(job.job()).apps()).extracting(AppReply::state).containsOnly("FINISHED");
            assertThat(master.status().counters()).containsEntry("startedFromQueue", 2).containsEntry("finished", 4);
            assertThat(master.status().workers()).hasSize(2);
            client.closeAllocation(runner.instance());
        }
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        return -1;
    }

    /** The pid of the master's JVM on testbed host {@code host} (a network namespace), from its command line. */
    private static long masterPid(String host) throws IOException, InterruptedException {
        return TestHosts.find(host, cmd -> cmd.contains("koala.fluent.master.MasterMain") && cmd.contains(dir.toString()))
                .orElse(-1);
    }

    private static void awaitEnded(FluentClient fluent, String job) {
        Awaitility.await("job " + job + " ended").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> fluent.job(job).apps().stream().allMatch(a -> List.of("FINISHED", "FAILED", "REJECTED")
                        .contains(a.state())));
    }

    private static RunnerMain.Started start(String policy, int workers, int fMax, String settings) {
        FluentJdf jdf = new FluentJdf("it-fluent-" + policy, policy, workers, fMax, settings, 4, "fs1", dir, null,
                List.of());
        return scheduler.runner(jdf.text(), scheduler.config(), dir, Duration.ofSeconds(10));
    }
}
