package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import koala.api.runner.RunnerClient;
import koala.api.runner.RunnerMessages;
import koala.api.runner.TokenSource;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.common.json.Json;
import koala.grid.GridConfig;
import koala.http.JsonHttpClient;
import koala.process.JavaCommand;
import koala.testbed.LocalUser;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A framework runner killed with SIGKILL on the real testbed: the scheduler starts it again, and
 * the new one serves the same instance at the same address with the same token, on the same nodes
 * (the same SGE pilots: none killed, none submitted again); one that cannot be started again fails
 * its instance with the reason and gives its nodes back.
 */
@SharesScheduler
class RunnerFailoverIT {
    private static TestScheduler scheduler;
    private static SchedulerClient client;
    private static Path dir;

    @BeforeAll
    static void start() throws IOException {
        scheduler = TestScheduler.shared();
        client = scheduler.client();
        dir = Files.createTempDirectory("koala-runner-failover-",
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
    }

    @AfterAll
    static void stop() {
        scheduler.close();
    }

    @Test
    void aKilledRunnerIsStartedAgainAndServesTheSameInstanceOnTheSameNodesAndGrowsAfter() throws Exception {
        Runner runner = Runner.start(jdf("ondemand", 1, "(fMax = 4)(samplePeriod = 1)"));
        RunnerClient rpc = runner.rpc();
        awaitRunning(rpc, 3);
        RunnerMessages.GrowResult grew = rpc.grow(1);
        assertThat(grew.granted()).isEqualTo(1);
        List<RunnerMessages.Entity> before = awaitRunning(rpc, 4);
        List<String> pilots = pilots(runner.instance);
        long oldPid = runner.pid();

        Instant killed = Instant.now();
        ProcessHandle.of(oldPid).orElseThrow().destroyForcibly();
        RunnerMessages.Status served = Awaitility.await("served again").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50)).ignoreExceptions().until(rpc::status, s -> s != null);
        Duration took = Duration.between(killed, Instant.now());
        System.out.println("runner " + oldPid + " killed; instance " + runner.instance + " served again after "
                + took.toMillis() + " ms");
        assertThat(took).isLessThan(Duration.ofSeconds(15));
        assertThat(runner.pid()).isNotEqualTo(oldPid);
        assertThat(served.state()).isEqualTo("RUNNING");
        assertThat(served.entities()).extracting(RunnerMessages.Entity::node)
                .containsExactlyInAnyOrderElementsOf(before.stream().map(RunnerMessages.Entity::node).toList());
        assertThat(served.events()).anySatisfy(e -> assertThat(e).contains("runner started again"));

        // every launcher beats to the new runner: none lost, no pilot killed or submitted again
        awaitRunning(rpc, 4);
        Awaitility.await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                .until(() -> rpc.status().events().stream().noneMatch(e -> e.contains(" lost: ")));
        assertThat(pilots(runner.instance)).isEqualTo(pilots);
        assertThat(client.framework(runner.instance).history()).anySatisfy(t -> {
            assertThat(t.event()).isEqualTo("RUNNER_RESTARTED");
            assertThat(t.reason()).contains("its process is gone").contains("pid " + runner.pid());
        });

        RunnerMessages.GrowResult after = rpc.grow(1, "after-the-restart");
        assertThat(after.granted()).isEqualTo(1);
        awaitRunning(rpc, 5);
        // a grow repeated under its id, to the runner and to the scheduler, is granted once
        assertThat(rpc.grow(1, "after-the-restart")).isEqualTo(after);
        awaitRunning(rpc, 5);
        koala.api.scheduler.GrowRequest named = new koala.api.scheduler.GrowRequest(1, "worker", "/bin/sleep",
                List.of("600"), Map.of(), null, "a test", "named-grow");
        koala.api.scheduler.GrowResult once = client.grow(runner.instance, named);
        assertThat(client.grow(runner.instance, named)).isEqualTo(once);
        assertThat(client.job(runner.instance).nodes()).hasSize(6);
        assertThat(client.job(runner.instance).state()).isEqualTo("RUNNING");
        client.closeAllocation(runner.instance);
        assertThat(ProcessHandle.of(runner.pid()).map(p -> p.onExit().orTimeout(15, TimeUnit.SECONDS).join())
                .map(ProcessHandle::isAlive).orElse(false)).as("the runner exits once its allocation is closed").isFalse();
    }

    @Test
    void aRunnerThatCannotBeStartedAgainFailsItsInstanceWithTheReasonAndGivesItsNodesBack() throws Exception {
        Runner runner = Runner.start(jdf("static", 1, "(samplePeriod = 1)"));
        awaitRunning(runner.rpc(), 3);
        List<NodeView> nodes = client.job(runner.instance).nodes();
        long pid = runner.pid();
        Files.delete(runner.state);
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();

        JobView ended = TestScheduler.awaitEnd(client, runner.instance, Duration.ofSeconds(30));
        assertThat(ended.state()).isEqualTo("FAILED");
        assertThat(ended.history().get(ended.history().size() - 1).reason())
                .startsWith("the instance failed: its framework runner died").contains("could not be started again")
                .contains("try 3: ").contains(runner.state.toString());
        GridConfig grid = GridConfig.load(scheduler.config());
        Awaitility.await("its pilots gone from SGE").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1))
                .until(() -> nodes.stream().noneMatch(n -> inQstat(grid, n)));
        assertThat(client.job(runner.instance).nodes())
                .noneMatch(n -> List.of("SUBMITTED", "ARRIVED", "RUNNING").contains(n.state()));
    }

    private static boolean inQstat(GridConfig grid, NodeView node) {
        return LocalUser.run(grid.site(node.site()), "qstat", "-xml", "-u", "*")
                .contains("<JB_job_number>" + node.pilot() + "</JB_job_number>");
    }

    @Test
    void aRunnerOfAUserIsStartedAgainAsThatUser() throws Exception {
        // alice's agent on fs1 starts on her first job there and refuses pilots until its DRMAA session is
        // open; a job retries its claim, an allocation's node does not: her first job opens it
        Users.Reply warm = Users.call("alice", GridConfig.load(scheduler.config()).schedulerSocket(), "POST", "/jobs",
                "{\"file\":\"warm.jdf\",\"jdf\":\"&(resourceManagerContact = fs1)(count = 1)(executable = /bin/true)\"}");
        assertThat(warm.status()).as(warm.body()).isEqualTo(201);
        long job = Json.mapper().readTree(warm.body()).get("id").asLong();
        assertThat(TestScheduler.awaitEnd(client, job, Duration.ofSeconds(90)).state()).isEqualTo("FINISHED");
        Runner runner = Runner.start(jdf("ondemand", 0, "(samplePeriod = 1)"), "alice");
        awaitRunning(runner.rpc(), 2);
        long oldPid = runner.pid();
        assertThat(ProcessHandle.of(oldPid).flatMap(p -> p.info().user())).hasValue("alice");
        ProcessHandle.of(oldPid).orElseThrow().destroyForcibly();

        Awaitility.await("served again").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .ignoreExceptions().until(() -> runner.rpc().status() != null);
        long pid = runner.pid();
        assertThat(pid).isNotEqualTo(oldPid);
        assertThat(ProcessHandle.of(pid).flatMap(p -> p.info().user())).hasValue("alice");
        assertThat(Files.getOwner(runner.state).getName()).isEqualTo("alice");
        assertThat(Files.getOwner(runner.state.resolveSibling("runner-" + runner.instance + ".log")).getName())
                .as("its log, opened by a shell running as alice").isEqualTo("alice");
        awaitRunning(runner.rpc(), 2);
        scheduler.asRoot().closeAllocation(runner.instance); // alice's: the tests' own client acts for koala
    }

    private static List<String> pilots(long instance) {
        return client.job(instance).nodes().stream().filter(n -> n.state().equals("RUNNING"))
                .map(n -> n.id() + "=" + n.pilot()).sorted().toList();
    }

    private static List<RunnerMessages.Entity> awaitRunning(RunnerClient rpc, int count) {
        // the instance too: its entities run a moment before its runner ends the deployment
        return Awaitility.await(count + " entities running").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300)).ignoreExceptions().until(rpc::status,
                        s -> s.state().equals("RUNNING") && s.entities().size() == count
                                && s.entities().stream().allMatch(x -> x.state().equals("RUNNING"))).entities();
    }

    private static String jdf(String policy, int workers, String settings) {
        return "+( &(jobType = framework)(name = failover-" + policy + ")(role = master)(count = 1)"
                + "(resourceManagerContact = fs1)(executable = /bin/sleep)(arguments = 100000)"
                + "(provisioning = " + policy + ")" + settings + ")"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100000) )"
                + " ( &(role = worker)(count = " + workers + ")(executable = /bin/sleep)(arguments = 100000) )";
    }

    /** A runner process of its own, as {@code koala submit} starts one: supervised by the scheduler. */
    private record Runner(long instance, URI url, Path state) {
        static Runner start(String jdf) throws IOException {
            return start(jdf, null);
        }

        /**
         * As {@code user} (null: this test's account) on the class path published for other accounts,
         * its state in a directory of that user's own.
         */
        static Runner start(String jdf, String user) throws IOException {
            Path home = dir;
            List<Path> classpath = java.util.Arrays.stream(System.getProperty("java.class.path").split(":"))
                    .map(Path::of).toList();
            if (user != null) {
                home = Files.createTempDirectory("koala-runner-" + user + "-");
                classpath = koala.process.RuntimeImage.publishedClasspath(koala.grid.KoalaHome.dir(),
                        koala.process.ProcessClasspath.RUNNER);
            }
            Path file = Files.writeString(home.resolve("failover.jdf"), jdf);
            if (user != null) {
                var owner = home.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(user);
                Files.setOwner(home, owner);
                Files.setOwner(file, owner);
            }
            Path log = Files.createTempFile(dir, "runner-", ".log");
            List<String> args = new java.util.ArrayList<>(List.of("--scheduler", client.base().toString(), "--jdf",
                    file.toString(), "--config", scheduler.config().toString(), "--state", home.toString(),
                    "--deploy-timeout", "60"));
            if (user == null) { // root's runner acts for the tests' owner: KOALA runs nothing as root
                args.addAll(List.of("--as", TestScheduler.OWNER));
            }
            JavaCommand command = JavaCommand.of("koala.runner.RunnerMain", classpath, args.toArray(String[]::new));
            List<String> line = (user == null ? command : command.as(user)).commandLine();
            List<String> detached = new java.util.ArrayList<>(List.of("setsid"));
            detached.addAll(line);
            Process process = new ProcessBuilder(detached).redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            String ready = Awaitility.await("READY from the runner").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200)).until(() -> readyLine(log), r -> r.isPresent()
                            || !process.isAlive()).orElseThrow(() -> new IllegalStateException("runner exited; see "
                            + log));
            long instance = Long.parseLong(ready.split(" ")[1]);
            Path state = home.resolve("runner-" + instance + ".json");
            JsonNode json = Json.mapper().readTree(state.toFile());
            return new Runner(instance, URI.create(json.get("url").asText()), state);
        }

        /** The instance's token in force, from its state file (the runner replaces it when a node is lost). */
        String token() {
            return TokenSource.stateFile(state).get();
        }

        RunnerClient rpc() {
            return new RunnerClient(url, TokenSource.stateFile(state));
        }

        /** The pid serving now, as the runner itself says. */
        long pid() {
            return JsonHttpClient.shortLived(url, Duration.ofSeconds(2)).get("/health", RunnerMessages.Health.class).pid();
        }

        private static Optional<String> readyLine(Path log) {
            try {
                return Files.readAllLines(log).stream().filter(l -> l.startsWith("READY ")).findFirst();
            } catch (IOException | java.io.UncheckedIOException e) {
                return Optional.empty();
            }
        }
    }
}
