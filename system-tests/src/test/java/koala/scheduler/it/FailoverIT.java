package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import koala.api.scheduler.AllocationRequest;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.ReleaseRequest;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SubmitRequest;
import koala.common.net.FreePort;
import koala.grid.GridConfig;
import koala.http.ApiException;
import koala.scheduler.SchedulerChild;
import koala.common.time.Poll;
import koala.grid.KoalaHome;
import koala.process.RuntimeImage;
import koala.scheduler.SchedulerDaemon;
import koala.testbed.PostgresServer;
import koala.testbed.Progress;
import koala.testbed.Testbed;
import koala.testbed.TestbedException;
import koala.testbed.TestbedPlan;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * Two schedulers on two hosts over one PostgreSQL store of their own: a on the testbed's standby host
 * {@code koala-b}, b on the KOALA host, where the test calls b's socket alone (a's is on koala-b): while b
 * stands by, it passes the test's calls on to a. a leads first. Then, each a take-over:
 * <ol>
 * <li>koala-b is cut from the network: b takes over, adopts the pilots and the allocation, starts site
 *     agents of its own host, and the MPI job running over fs0 and fs1 through the take-over finishes on it
 *     with every rank's result; a node on the remote site fs2 (an allocation's, granted under a) runs on under
 *     b, through the agent a used there, which b adopts (its class path names the jars otherwise: the agent is
 *     known by their contents), and its pilot leaves when the allocation is closed; the instance grows under b;
 *     a, cut off, steps down (exit status 3). A
 *     framework runner started before the cut is recorded, as b takes over, as one of another host that b
 *     cannot reach ({@link #replacedOnB}): b starts one in its place on its own host, the old one's next
 *     call is refused and it exits (status 3) ending nothing, every entity's launcher, its runner silent,
 *     learns the new one's address from b and beats to it, and the instance grows and shrinks under the
 *     new one. So for two instances: one whose master is on fs1, and one wholly on the remote site fs2, whose
 *     entities reach the new runner through a relay b makes on fs2's head node when their launchers ask;</li>
 * <li>a, started again (as systemd would), stands by; {@code kill -9} of b: a leads on koala-b, and b
 *     started again passes the test's calls to it; pilots == nodes, and the instance shrinks under a;</li>
 * <li>a is paused (SIGSTOP) for 30 s: b takes over and serves meanwhile; resumed, a finds its lease gone,
 *     steps down and writes nothing;</li>
 * <li>PostgreSQL is restarted while the test submits a job every 250 ms and grows the instance: whichever
 *     leads after it (a leader whose unit lost its connection steps down and is started again, as systemd
 *     would, as a standby) has every acknowledged submit once, none twice, and a pilot for every node.</li>
 * </ol>
 * Costs about 175 s (173-198 s, four take-overs, a pause of 30 s, three grows, seven scheduler starts, and koala-b added to the
 * testbed, 12 s, when an earlier test took it away). The framework runners add 25-40 s of it: the replacement of
 * the one whose master is on fs1, the old one's exit, a grow and a shrink 5.5-12 s (12 s at a load that made b lead
 * 14 s after the cut rather than 5); the same for the one on fs2 10-15 s, of which 5-11 s before its entities
 * reach the new runner (their beats to the relay that a's cut session held time out first, after 10 s); their
 * deployments, beside the MPI job's start, up to 17 s.
 */
class FailoverIT {
    private static final String PASSWORD = "failover-it";
    /** How long a is paused (SIGSTOP): the 30 s, well past its lease. */
    private static final Duration PAUSE = Duration.ofSeconds(30);
    /** How often the client under load submits: a rate, not a wait. */
    private static final Duration LOAD_EVERY = Duration.ofMillis(250);
    /** Acknowledged submits wanted before the store's restart, and again after it. */
    private static final int SUBMITS_AROUND_THE_RESTART = 8;
    private static final String B_HOST = TestbedPlan.STANDBY_NAME;

    /** Every scheduler process the test started, to be stopped at its end. */
    private final List<SchedulerChild> started = new CopyOnWriteArrayList<>();
    private Testbed testbed;

    @Test
    void theStandbyTakesOverFromALeaderCutOffKilledPausedOrAStoreRestartAndTheGridCarriesOn() throws Exception {
        Path pgDir = Files.createTempDirectory("koala-failover-pg-");
        // koala-b sees this machine's files but for /tmp: a's configuration and classes go where it sees them
        Path shared = Files.createTempDirectory(Path.of("/var/tmp"), "koala-failover-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        try (PostgresServer pg = PostgresServer.start(pgDir, FreePort.any(), List.of("127.0.0.1", TestbedPlan.KOALA_ADDRESS),
                List.of(TestbedPlan.STANDBY_ADDRESS + "/32"), List.of())) {
            pg.createDatabase("koala_failover", "koala", PASSWORD);
            Path password = Files.createFile(shared.resolve("store.password"),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(password, PASSWORD + "\n");
            int portA = FreePort.any();
            int portB = FreePort.any();
            String addresses = "http://" + TestbedPlan.STANDBY_ADDRESS + ":" + portA + ", http://"
                    + TestbedPlan.KOALA_ADDRESS + ":" + portB;
            Path configB = config(pg.jdbcUrl("127.0.0.1", "koala_failover"), password, portB, addresses, Map.of());
            Path configA = Files.copy(config(pg.jdbcUrl(TestbedPlan.KOALA_ADDRESS, "koala_failover"), password, portA,
                    addresses, Map.of("grid.host", B_HOST, "scheduler.socket", "/run/koala/failover-it-a.sock")),
                    shared.resolve("a.properties"));
            testbed = withStandbyHost();
            try {
                takeOver(pg, new Scheduler("a", configA, RuntimeImage.published(
                        KoalaHome.shared(KoalaHome.dir()).resolve("runtime"), RuntimeImage.currentClasspath())),
                        new Scheduler("b", configB, null));
            } finally {
                stopAll();
                endAgentsOnTheStandbyHost();
            }
        } finally {
            delete(pgDir);
            delete(shared);
        }
    }

    /**
     * A framework instance on the remote site fs2 (master, orchestrator and a worker there, its runner in this
     * JVM) through a {@code kill -9} of the leader, with both schedulers on the KOALA host, so that the runner
     * lives on at its address: the fs2 entities' launchers reach their runner through a relay on fs2's head
     * node and an SSH forward of the leader's session, which dies with it. b, taking over, connects to fs2 and
     * makes the runner's call-back again on the ports recorded there, the relay closing what it held: every
     * entity is heard from again (its launcher's beat reaches the runner after b led: none is lost as one is
     * after 45 s of silence on a remote site whose link the runner sees up), the instance grows by a node on fs2 and shrinks under b, a
     * pilot for every node, and once it ends its call-back goes from the head node.
     *
     * <p>Costs about 100 s (87-101 s in four runs): two scheduler starts, a deployment on fs2, the take-over (b
     * led, connected to fs2, 4-5 s after the kill), every launcher's beat heard again, a grow and a shrink.
     * Without the call-back made again no beat comes through: the master and orchestrator are lost 45 s after
     * the kill, and the test fails at 40 s waiting for their beats.
     */
    @Test
    void aFrameworkInstanceOnTheRemoteSiteCarriesOnThroughAKill9OfTheLeaderOnTheSameHost() throws Exception {
        Path pgDir = Files.createTempDirectory("koala-failover-pg-");
        try (PostgresServer pg = PostgresServer.start(pgDir, FreePort.any(), List.of("127.0.0.1"), List.of(), List.of())) {
            pg.createDatabase("koala_failover", "koala", PASSWORD);
            Path password = Files.createFile(pgDir.resolveSibling(pgDir.getFileName() + ".password"),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(password, PASSWORD + "\n");
            String jdbc = pg.jdbcUrl("127.0.0.1", "koala_failover");
            int portA = FreePort.any();
            int portB = FreePort.any();
            String addresses = "http://" + TestbedPlan.KOALA_ADDRESS + ":" + portA + ", http://"
                    + TestbedPlan.KOALA_ADDRESS + ":" + portB;
            Scheduler a = new Scheduler("a", config(jdbc, password, portA, addresses, Map.of()), null);
            Scheduler b = new Scheduler("b", config(jdbc, password, portB, addresses, Map.of()), null);
            try {
                remoteInstanceThroughAKill(a, b);
            } finally {
                stopAll();
                Files.deleteIfExists(password);
            }
        } finally {
            delete(pgDir);
        }
    }

    private void remoteInstanceThroughAKill(Scheduler a, Scheduler b) throws Exception {
        SchedulerChild aFirst = start(a);
        aFirst.ready().get(120, TimeUnit.SECONDS);
        SchedulerChild bFirst = start(b);
        SchedulerClient viaB = b.client();
        awaitPassingOnTo(viaB, aFirst);
        Awaitility.await("fs2 up through SSH").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .ignoreExceptions().until(() -> viaB.sites().stream().anyMatch(x -> x.site().equals("fs2")
                        && x.agent().equals("UP")));
        String jdf = "+( &(jobType = framework)(name = remote-failover)(role = master)(count = 1)"
                + "(resourceManagerContact = fs2)(executable = /bin/sleep)(arguments = 100000)"
                + "(provisioning = ondemand)(fMax = 4)(tIdle = 1)(samplePeriod = 1) )"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100000) )"
                + " ( &(role = worker)(count = 1)(executable = /bin/sleep)(arguments = 100000) )";
        Path dir = Files.createTempDirectory("koala-failover-remote-runner-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        koala.runner.RunnerMain.Setup setup = new koala.runner.RunnerMain.Setup(koala.jdf.JdfParser.parse("remote.jdf",
                jdf, new koala.jdf.ClusterCatalog(b.grid().nodeCounts())), jdf, b.config(), b.grid().schedulerAddress(), 0,
                dir, Duration.ofSeconds(30), Duration.ofSeconds(60)).actingFor(TestScheduler.OWNER);
        try (koala.runner.RunnerMain.Started runner = koala.runner.RunnerMain.start(setup, java.time.InstantSource.system())) {
            assertThat(runner.runner().deploy(Duration.ofSeconds(60))).as("the deployment on fs2").isTrue();
            long id = runner.instance();
            koala.api.runner.RunnerClient rpc = new koala.api.runner.RunnerClient(runner.url(),
                    koala.api.runner.TokenSource.of(runner::token));
            List<koala.api.runner.RunnerMessages.Entity> before = awaitRunning(rpc, 3);
            assertThat(before).extracting(koala.api.runner.RunnerMessages.Entity::site).containsOnly("fs2");
            Path recorded = remoteCallbacks(b);
            String endpoint = ":" + runner.url().getPort() + " ";
            assertThat(Files.readString(recorded)).as("the runner's call-back, recorded on fs2's head node")
                    .contains(endpoint);

            long kill = System.nanoTime();
            aFirst.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            assertThat(bFirst.ready().get(90, TimeUnit.SECONDS)).startsWith("READY");
            java.time.Instant led = java.time.Instant.now();
            System.out.printf("b led, connected to fs2, %.2f s after the kill of a%n", (System.nanoTime() - kill) / 1e9);
            // a silent entity on a remote site whose link is up is lost 45 s after its last beat (and a period): every
            // launcher's beat reaching the runner again after b led is what keeps them (none came without the fix)
            Awaitility.await("every entity on fs2 heard from after b led").atMost(Duration.ofSeconds(40))
                    .pollInterval(Duration.ofMillis(500)).until(() -> rpc.status().entities().stream()
                            .allMatch(e -> e.lastBeat() != null && e.lastBeat().isAfter(led)));
            System.out.printf("every entity on fs2 heard from %.2f s after the kill of a%n",
                    (System.nanoTime() - kill) / 1e9);
            assertThat(sameEntitiesRunning(rpc, before)).as("%s", rpc.status().events()).isTrue();
            awaitPilotsEqualNodes(viaB, b, id, 3);

            assertThat(rpc.grow(1).granted()).isEqualTo(1);
            koala.api.runner.RunnerMessages.Entity grown = awaitRunning(rpc, 4).stream()
                    .filter(e -> before.stream().noneMatch(x -> x.node().equals(e.node()))).findFirst().orElseThrow();
            assertThat(grown.site()).isEqualTo("fs2");
            awaitPilotsEqualNodes(viaB, b, id, 4);
            assertThat(Awaitility.await("the grown worker's shrink").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500)).until(() -> rpc.shrink(List.of(grown.node())),
                            r -> !r.released().isEmpty()).released()).containsExactly(grown.node());
            awaitPilotsEqualNodes(viaB, b, id, 3);
            assertThat(sameEntitiesRunning(rpc, before)).as("%s", rpc.status().events()).isTrue();
            System.out.printf("instance %d on fs2: every entity heard from again under b, grown and shrunk %.2f s after "
                    + "the kill of a%n", id, (System.nanoTime() - kill) / 1e9);

            viaB.closeAllocation(id);
            assertThat(runner.runner().awaitEnd(Duration.ofSeconds(20))).isTrue();
            Awaitility.await("the runner's call-back gone from the head node").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500)).until(() -> !Files.readString(recorded).contains(endpoint));
        } finally {
            try {
                viaB.jobs().stream().filter(j -> !j.ended()).forEach(j -> viaB.cancel(j.id()));
            } catch (RuntimeException e) {
                System.err.println("jobs left to the next test's sweep: " + e.getMessage());
            }
            delete(dir);
        }
    }

    /** The instance runs with the entities it had, each running, none lost or started again. */
    private static boolean sameEntitiesRunning(koala.api.runner.RunnerClient rpc,
                                               List<koala.api.runner.RunnerMessages.Entity> before) {
        koala.api.runner.RunnerMessages.Status now = rpc.status();
        java.util.function.Function<List<koala.api.runner.RunnerMessages.Entity>, List<String>> nodes =
                list -> list.stream().map(koala.api.runner.RunnerMessages.Entity::node).toList();
        return now.state().equals("RUNNING") && now.events().stream().noneMatch(e -> e.contains(" lost")
                || e.contains("(restart ") || e.contains("(restarted)"))
                && nodes.apply(now.entities()).equals(nodes.apply(before)) && now.entities().stream().allMatch(e -> e.state().equals("RUNNING"));
    }

    /** The process id of the agent that fs2's head node runs for the schedulers of {@code s}'s grid (its state file). */
    private static long remoteAgentPid(Scheduler s) throws java.io.IOException {
        Path state = remoteCallbacks(s).resolveSibling("agent-fs2.state");
        return Files.readAllLines(state).stream().filter(l -> l.startsWith("agent ")).map(l -> Long.parseLong(l.split(" ")[2]))
                .findFirst().orElseThrow(() -> new AssertionError("no agent in " + state));
    }

    /** The runners' call-backs that the head node of fs2 keeps for the schedulers of {@code s}'s grid. */
    private static Path remoteCallbacks(Scheduler s) {
        return Testbed.remoteHome("fs2", "koala").resolve(s.grid().site("fs2").ssh().orElseThrow().dir())
                .resolve("callback-fs2.runners");
    }

    private static Path config(String jdbc, Path password, int port, String addresses, Map<String, String> more)
            throws Exception {
        Map<String, String> settings = new java.util.HashMap<>(Map.of(
                "scheduler.port", Integer.toString(port),
                "scheduler.database", jdbc,
                "scheduler.database.passwordFile", password.toString(),
                "scheduler.addresses", addresses,
                // a runner of another host that does not answer is replaced after 3 s, not 30
                "scheduler.runnerHung", "3"));
        settings.putAll(more);
        return TestScheduler.config(settings);
    }

    /** The testbed, with its standby host (added when an earlier test's {@code up} took it away). */
    private static Testbed withStandbyHost() {
        Testbed testbed = new Testbed(KoalaHome.dir(), Progress.quiet(), Poll.system());
        try {
            testbed.commandOn(B_HOST);
        } catch (TestbedException e) {
            testbed.up(TestbedPlan.of(null, List.of(), 1, null).withStandbyHost(true));
        }
        return testbed;
    }

    /**
     * One of the two schedulers: its configuration, the class path it runs on when on koala-b (null: on this
     * host), and a client of its socket (b's; a's socket is on koala-b).
     */
    private record Scheduler(String name, Path config, List<Path> classpathOnB, GridConfig grid) {
        Scheduler(String name, Path config, List<Path> classpathOnB) {
            this(name, config, classpathOnB, GridConfig.load(config));
        }

        SchedulerClient client() {
            return new SchedulerClient(grid.schedulerAddress()).actingFor(TestScheduler.OWNER);
        }

        /** Where it serves nodes, and Prometheus. */
        URI nodeUrl() {
            return URI.create(grid.value("scheduler.addresses").orElseThrow().split(",")[name.equals("a") ? 0 : 1].strip());
        }
    }

    private SchedulerChild start(Scheduler scheduler) throws Exception {
        SchedulerChild child = scheduler.classpathOnB() == null
                ? SchedulerChild.start(scheduler.config(), ProcessBuilder.Redirect.INHERIT)
                : SchedulerChild.startOn(testbed.commandOn(B_HOST), scheduler.classpathOnB(), scheduler.config(),
                        ProcessBuilder.Redirect.INHERIT);
        started.add(child);
        return child;
    }

    private void takeOver(PostgresServer pg, Scheduler a, Scheduler b) throws Exception {
        SchedulerChild aFirst = start(a);
        aFirst.ready().get(120, TimeUnit.SECONDS);
        SchedulerChild bFirst = start(b);
        SchedulerClient viaB = b.client();
        awaitPassingOnTo(viaB, aFirst);
        Mpi mpi = Mpi.submit(viaB);
        long runnerStarted = System.nanoTime();
        Runner runner = Runner.start(b, "fs1");
        runners.add(runner);
        // and one wholly on the remote site fs2, whose entities reach a runner through a relay on fs2's head node
        Runner remoteRunner = Runner.start(b, "fs2");
        runners.add(remoteRunner);
        long allocation = viaB.allocate(new AllocationRequest("runner-failover")).id();
        viaB.grow(allocation, new GrowRequest(1, "worker", "/bin/sleep", List.of("600"), Map.of(), "fs0"));
        // the whole world up (each rank passed a barrier): its Open MPI daemons were started through a
        mpi.awaitRanksStarted();
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> viaB.job(allocation).nodes().stream()
                .allMatch(n -> n.state().equals("RUNNING")));
        awaitRunning(runner.rpc(), 2);
        assertThat(awaitRunning(remoteRunner.rpc(), 2)).extracting(koala.api.runner.RunnerMessages.Entity::site)
                .containsOnly("fs2");
        System.out.printf("the instances ran %.2f s after its runner was started (beside the MPI job's start)%n",
                (System.nanoTime() - runnerStarted) / 1e9);
        // a node on the remote site fs2 (an allocation of its own: fs2 is on another network), through the agent a
        // uses there: b, taking over on another host (its class path names the jars otherwise), adopts that agent
        long onFs2 = viaB.allocate(new AllocationRequest("on-fs2-through-a-take-over")).id();
        koala.api.scheduler.GrowResult fs2Grown = viaB.grow(onFs2, new GrowRequest(1, "worker", "/bin/sleep",
                List.of("600"), Map.of(), "fs2"));
        assertThat(fs2Grown.granted()).as("the grow on fs2 under a: %s", fs2Grown.reason()).isEqualTo(1);
        assertPilotsAreNodes(b.grid(), viaB, onFs2, "on fs2, under a");
        long fs2Agent = remoteAgentPid(b);

        // 1. a's host cut from the network: b takes over; a, which can renew its lease no more, steps down
        long cut = System.nanoTime();
        testbed.cutHostLink(B_HOST);
        // the runner, as b will see it (recorded before b leads and reads the store): on a host of its own, behind a
        // network that lets its calls out but none in (its health route at an address that takes a call and
        // never answers it)
        java.net.ServerSocket cutOff = new java.net.ServerSocket(0, 50, java.net.InetAddress.getByName(TestbedPlan.KOALA_ADDRESS));
        URI unreachable = URI.create("http://" + TestbedPlan.KOALA_ADDRESS + ":" + cutOff.getLocalPort());
        onAnotherHost(pg, runner.instance(), unreachable);
        onAnotherHost(pg, remoteRunner.instance(), unreachable);
        try {
            assertThat(bFirst.ready().get(30, TimeUnit.SECONDS)).startsWith("READY");
            System.out.printf("b led %.2f s after a's host was cut off%n", (System.nanoTime() - cut) / 1e9);
            assertThat(aFirst.process().waitFor(30, TimeUnit.SECONDS)).as("a, cut off, steps down").isTrue();
            assertThat(aFirst.process().exitValue()).as("a's exit status: stepped down").isEqualTo(3);
        } finally {
            testbed.mendHostLink(B_HOST);
        }
        assertThat(viaB.job(mpi.id()).state()).isIn("RUNNING", "FINISHED");
        assertPilotsAreNodes(b.grid(), viaB, onFs2, "on fs2, after the take-over from a host cut off");
        assertThat(remoteAgentPid(b)).as("fs2's agent, adopted by b rather than replaced").isEqualTo(fs2Agent);
        viaB.closeAllocation(onFs2);
        Awaitility.await("the pilot on fs2 leaves under b").atMost(Duration.ofSeconds(60))
                .until(() -> TestScheduler.pilotsNamedFor(b.grid(), onFs2).isEmpty());
        long after = TestScheduler.submit(viaB, "after-the-take-over", "&(resourceManagerContact = \"fs1\")"
                + "(count = 1)(executable = \"/bin/true\")").id();
        mpi.assertFinishedWithEveryRank(viaB);
        assertThat(TestScheduler.awaitEnd(viaB, after, Duration.ofSeconds(60)).state()).isEqualTo("FINISHED");
        viaB.grow(allocation, new GrowRequest(1, "worker", "/bin/sleep", List.of("600"), Map.of(), "fs1"));
        Awaitility.await("the grow under b").atMost(Duration.ofSeconds(60)).until(() -> {
            List<NodeView> nodes = viaB.job(allocation).nodes();
            return nodes.size() == 2 && nodes.stream().allMatch(n -> n.state().equals("RUNNING"));
        });
        assertPilotsAreNodes(b.grid(), viaB, allocation, "after the take-over from a host cut off");
        Awaitility.await("the MPI job's pilots leave").atMost(Duration.ofSeconds(60))
                .until(() -> TestScheduler.pilotsNamedFor(b.grid(), mpi.id()).isEmpty());
        long replacing = System.nanoTime();
        Runner replacement;
        Runner remoteReplacement;
        try (cutOff) {
            replacement = replacedOnB(viaB, runner, unreachable, b);
            System.out.printf("the runner's replacement, the old one's exit, a grow and a shrink took %.2f s%n",
                    (System.nanoTime() - replacing) / 1e9);
            replacing = System.nanoTime();
            remoteReplacement = replacedOnB(viaB, remoteRunner, unreachable, b);
            System.out.printf("the same for the instance on fs2, its entities reaching the new runner through a relay"
                    + " b made on fs2's head node: %.2f s%n", (System.nanoTime() - replacing) / 1e9);
        }

        // 2. a started again stands by; kill -9 of b: a leads on koala-b; b started again passes calls on to it
        SchedulerChild aAgain = start(a);
        awaitStandby(a);
        bFirst.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertThat(aAgain.ready().get(30, TimeUnit.SECONDS)).startsWith("READY");
        SchedulerChild bAgain = start(b); // once a leads: started at once, b could take the lease first
        awaitPassingOnTo(viaB, aAgain);
        assertPilotsAreNodes(b.grid(), viaB, allocation, "after the take-over on koala-b");
        // the instance shrinks under a: its first node, granted on fs0 by a before the cut, goes, and its pilot
        // with it (the node on fs1 stays: the jobs of the store's restart below wait for all of fs1)
        String onFs0 = viaB.heldNow(allocation).nodes().stream().filter(n -> n.site().equals("fs0")).findFirst()
                .orElseThrow().id();
        viaB.release(allocation, new ReleaseRequest(List.of(onFs0), "shrink after a take-over"));
        Awaitility.await("the shrink under a").atMost(Duration.ofSeconds(60))
                .until(() -> TestScheduler.pilotsNamedFor(b.grid(), allocation).size() == 1
                        && viaB.heldNow(allocation).nodes().size() == 1);

        // 3. a paused (SIGSTOP) for PAUSE, past its lease: b takes over and serves; a, resumed, is fenced and steps down
        java.time.Instant stopped = java.time.Instant.now();
        signal("STOP", aAgain.process());
        assertThat(bAgain.ready().get(30, TimeUnit.SECONDS)).startsWith("READY");
        Duration left = PAUSE.minus(Duration.between(stopped, java.time.Instant.now()));
        if (!left.isNegative()) {
            Awaitility.await("b serves while a is paused").during(left).atMost(left.plusSeconds(10))
                    .pollInterval(Duration.ofSeconds(1)).until(() -> viaB.heldNow(allocation).nodes().size() == 1);
        }
        signal("CONT", aAgain.process());
        assertThat(aAgain.process().waitFor(15, TimeUnit.SECONDS)).as("a steps down once it wakes").isTrue();
        assertThat(aAgain.process().exitValue()).as("a's exit status: stepped down").isEqualTo(3);
        SchedulerChild aThird = start(a); // as systemd would
        assertPilotsAreNodes(b.grid(), viaB, allocation, "after the second take-over");
        awaitStandby(a);

        // 4.
        storeRestartedUnderLoad(pg, viaB, allocation, new Child(b, bAgain), new Child(a, aThird));

        assertThat(viaB.closeAllocation(allocation).nodes()).extracting(NodeView::state).containsOnly("RELEASED");
        viaB.closeAllocation(replacement.instance());
        viaB.closeAllocation(remoteReplacement.instance());
        Awaitility.await("the allocation's and the instances' pilots leave").atMost(Duration.ofSeconds(60))
                .until(() -> TestScheduler.pilotsNamedFor(b.grid(), allocation).isEmpty()
                        && TestScheduler.pilotsNamedFor(b.grid(), replacement.instance()).isEmpty()
                        && TestScheduler.pilotsNamedFor(b.grid(), remoteReplacement.instance()).isEmpty());
    }

    /** The host a runner of another host is recorded on: none of the testbed's. */
    private static final String GONE_HOST = "koala-gone";

    /**
     * Instance {@code id}'s runner recorded as running on {@link #GONE_HOST} at {@code url}, as if it had been
     * started there: the scheduler taking over judges it by its health route alone, and cannot kill it.
     */
    private static void onAnotherHost(PostgresServer pg, long id, URI url) throws java.sql.SQLException {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(pg.jdbcUrl("127.0.0.1", "koala_failover"),
                "koala", PASSWORD);
             java.sql.PreparedStatement update = c.prepareStatement(
                     "UPDATE frameworks SET runner_host = ?, runner = ? WHERE id = ?")) {
            update.setString(1, GONE_HOST);
            update.setString(2, url.toString());
            update.setLong(3, id);
            assertThat(update.executeUpdate()).as("the instance's record").isEqualTo(1);
        }
    }

    /**
     * b, leading, finds the runner of {@link #GONE_HOST} silent at {@code unreachable} and starts one on its own
     * host in its place, of generation 2, at another address (the old one's port is still held). The old
     * runner, which lives on and calls b, is refused and exits with status 3, ending nothing; the instance
     * grows and shrinks under the new runner, a pilot for every node.
     */
    private Runner replacedOnB(SchedulerClient viaB, Runner old, URI unreachable, Scheduler b) throws Exception {
        long id = old.instance();
        // its address and generation are recorded before it starts; its restart, once it serves
        koala.api.scheduler.FrameworkView view = Awaitility.await("a runner started on b in the place of the silent one")
                .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> viaB.framework(id),
                        f -> f.history().stream().anyMatch(t -> t.event().equals("RUNNER_RESTARTED")));
        String newUrl = view.runner();
        assertThat(newUrl).isNotEqualTo(unreachable.toString());
        Runner replacement = new Runner(id, URI.create(newUrl), old.state(), null, old.log());
        runners.add(replacement);
        assertThat(view.history()).anySatisfy(t -> {
            assertThat(t.event()).isEqualTo("RUNNER_RESTARTED");
            assertThat(t.reason()).contains("it runs on " + GONE_HOST + ", whose processes this host cannot see, and "
                    + "its health route at " + unreachable + " did not answer").contains("generation 2, at " + newUrl);
        });
        String here = java.net.InetAddress.getLocalHost().getHostName();
        String refusal = "instance " + id + "'s runner was replaced by the one started on " + here + " at generation 2";
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> viaB.asRunner(1).heldNow(id))
                .as("a call of the runner replaced").isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(410);
                    assertThat(e.getMessage()).contains(refusal);
                });

        assertThat(old.process().waitFor(30, TimeUnit.SECONDS)).as("the replaced runner exits").isTrue();
        assertThat(old.process().exitValue()).as("its exit status: replaced").isEqualTo(3);
        // the entities' launchers beat to the old address; silent, they ask the scheduler, which names the new one
        java.time.Instant gone = java.time.Instant.now();
        // on fs2 about 50 s: the launchers' beats to the relay a's cut session held fail, then the scheduler is asked
        Awaitility.await("every entity heard from by the runner started on b, fs2's through a relay b made")
                .atMost(Duration.ofSeconds(120))
                .pollInterval(Duration.ofMillis(500)).until(() -> replacement.rpc().status().entities(), entities ->
                        entities.size() == 2 && entities.stream().allMatch(e -> e.state().equals("RUNNING")
                                && e.lastBeat() != null && e.lastBeat().isAfter(gone)));
        System.out.printf("every entity heard from by the runner on b %.2f s after the old one exited%n",
                Duration.between(gone, java.time.Instant.now()).toMillis() / 1e3);
        String stopped = Files.readAllLines(old.log()).stream().filter(l -> l.contains("this runner stops, ending nothing"
                + " and giving nothing back")).findFirst().orElseThrow();
        // its next call about the instance refused; or, when the new runner kept its state first, that state found
        System.out.println("the old runner: " + stopped);
        assertThat(stopped).containsAnyOf(refusal, "is a later runner's (generation 2; this one is of generation 1)");
        assertThat(viaB.job(id).state()).isEqualTo("RUNNING");
        assertThat(viaB.heldNow(id).nodes()).as("its master's and orchestrator's nodes, kept").hasSize(2);

        koala.api.runner.RunnerClient rpc = replacement.rpc();
        assertThat(rpc.grow(1).granted()).isEqualTo(1);
        String worker = awaitRunning(rpc, 3).stream().filter(e -> e.role().equals("worker")).findFirst().orElseThrow()
                .node();
        awaitPilotsEqualNodes(viaB, b, id, 3);
        // idle by its samples for t_idle (1 s), the worker is given back when the framework asks
        assertThat(Awaitility.await("the worker's shrink").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500))
                .until(() -> rpc.shrink(List.of(worker)), r -> !r.released().isEmpty()).released()).containsExactly(worker);
        awaitPilotsEqualNodes(viaB, b, id, 2);
        System.out.printf("instance %d: runner at %s replaced on b by %s; the old one exited with status 3%n", id,
                old.url(), newUrl);
        return replacement;
    }

    private static void awaitPilotsEqualNodes(SchedulerClient client, Scheduler s, long id, int nodes) {
        Awaitility.await(nodes + " nodes, a pilot each").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                .until(() -> client.heldNow(id).nodes().size() == nodes
                        && TestScheduler.pilotsNamedFor(s.grid(), id).size() == nodes);
    }

    private static List<koala.api.runner.RunnerMessages.Entity> awaitRunning(koala.api.runner.RunnerClient rpc,
                                                                            int count) {
        return Awaitility.await(count + " entities running").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(300)).ignoreExceptions().until(rpc::status,
                        st -> st.state().equals("RUNNING") && st.entities().size() == count
                                && st.entities().stream().allMatch(x -> x.state().equals("RUNNING"))).entities();
    }

    /** Every runner process the test started or had started, to be stopped at its end. */
    private final List<Runner> runners = new CopyOnWriteArrayList<>();

    /**
     * A framework runner of its own process on this host (master and orchestrator, no worker, on demand), as
     * {@code koala submit} starts one: root's, acting for the tests' owner, calling b's socket (b passes its
     * calls on to a while a leads), its state where koala-b sees it too, supervised.
     *
     * @param process the process the test started; null for one a scheduler started
     */
    private record Runner(long instance, URI url, Path state, Process process, Path log) {
        /** @param site where its master is: fs1 (its orchestrator wherever placement puts it), or fs2 (all of it there) */
        static Runner start(Scheduler b, String site) throws Exception {
            Path dir = Files.createTempDirectory(Path.of("/var/tmp"), "koala-failover-runner-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            String pinned = site.equals("fs2") ? "(resourceManagerContact = fs2)" : "";
            Path jdf = Files.writeString(dir.resolve("instance.jdf"), "+( &(jobType = framework)(name = failover)"
                    + "(role = master)(count = 1)(resourceManagerContact = " + site + ")(executable = /bin/sleep)"
                    + "(arguments = 100000)(provisioning = ondemand)(fMax = 4)(tIdle = 1)(samplePeriod = 1) )"
                    + " ( &(role = orchestrator)(count = 1)" + pinned + "(executable = /bin/sleep)(arguments = 100000) )"
                    + " ( &(role = worker)(count = 0)" + pinned + "(executable = /bin/sleep)(arguments = 100000) )");
            Path log = dir.resolve("runner.log");
            List<Path> classpath = java.util.Arrays.stream(System.getProperty("java.class.path").split(":")).map(Path::of)
                    .toList();
            List<String> line = new ArrayList<>(List.of("setsid"));
            line.addAll(koala.process.JavaCommand.of("koala.runner.RunnerMain", classpath, "--scheduler",
                    b.grid().schedulerAddress().toString(), "--jdf", jdf.toString(), "--config", b.config().toString(),
                    "--state", dir.toString(), "--deploy-timeout", "60", "--as", TestScheduler.OWNER).commandLine());
            Process process = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(log.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            String ready = Awaitility.await("READY from the runner").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200)).until(() -> Files.readAllLines(log).stream()
                            .filter(l -> l.startsWith("READY ")).findFirst(), r -> r.isPresent() || !process.isAlive())
                    .orElseThrow(() -> new IllegalStateException("the runner exited; see " + log));
            String[] words = ready.split(" ");
            long instance = Long.parseLong(words[1]);
            return new Runner(instance, URI.create(words[2]), dir.resolve("runner-" + instance + ".json"), process, log);
        }

        koala.api.runner.RunnerClient rpc() {
            return new koala.api.runner.RunnerClient(url, koala.api.runner.TokenSource.stateFile(state));
        }

        /** Kills the runner serving now (whose pid its state file holds) and the one the test started, if alive. */
        void stop() {
            if (process != null) {
                process.destroyForcibly();
            }
            try {
                long pid = koala.common.json.Json.mapper().readTree(state.toFile()).path("pid").asLong(-1);
                ProcessHandle.of(pid).filter(p -> p.info().commandLine().orElse("").contains("koala.runner.RunnerMain"))
                        .ifPresent(ProcessHandle::destroyForcibly);
            } catch (java.io.IOException e) {
                // no state: nothing started from it
            }
        }

        void deleteDirectory() {
            delete(state.getParent());
        }
    }

    /** Every node of the allocation running, each with its pilot in SGE, and no other pilot of it. */
    private static void assertPilotsAreNodes(GridConfig grid, SchedulerClient client, long allocation, String when) {
        Awaitility.await("pilots == nodes " + when).atMost(Duration.ofSeconds(60)).until(() -> {
            List<NodeView> nodes = client.heldNow(allocation).nodes();
            return nodes.stream().allMatch(n -> n.state().equals("RUNNING"))
                    && TestScheduler.pilotsNamedFor(grid, allocation).size() == nodes.size();
        });
    }

    /** A scheduler and its process now. */
    private record Child(Scheduler scheduler, SchedulerChild process) {
    }

    /** A submit the scheduler acknowledged: the job it made of it. */
    private record Acknowledged(String name, long id) {
    }

    /**
     * PostgreSQL stopped and started again on its directory and port while a client of both schedulers
     * submits a job every {@link #LOAD_EVERY}, each under a request id of its own, and grows the
     * allocation. The jobs ask for all of fs1, of which the allocation holds a node: they wait in the
     * placement queue, so the load is the scheduler's and the store's, not one pilot per job.
     */
    private void storeRestartedUnderLoad(PostgresServer pg, SchedulerClient following, long allocation, Child leader,
            Child standby) throws Exception {
        GridConfig grid = leader.scheduler().grid();
        String waiting = "&(resourceManagerContact = \"fs1\")(count = " + grid.nodeCounts().get("fs1")
                + ")(executable = \"/bin/true\")";
        String run = Long.toHexString(System.nanoTime());
        List<Acknowledged> acknowledged = new CopyOnWriteArrayList<>();
        List<String> givenUp = new CopyOnWriteArrayList<>();
        AtomicInteger submits = new AtomicInteger();
        ScheduledExecutorService load = Executors.newSingleThreadScheduledExecutor();
        CompletableFuture<GrowResult> grow;
        boolean tookOver;
        try {
            load.scheduleAtFixedRate(() -> {
                String name = "load-" + submits.incrementAndGet();
                try {
                    acknowledged.add(new Acknowledged(name, following.submit(
                            new SubmitRequest(name, waiting, name + "-" + run)).id()));
                } catch (RuntimeException e) {
                    givenUp.add(name + ": " + e.getMessage());
                }
            }, 0, LOAD_EVERY.toMillis(), TimeUnit.MILLISECONDS);
            Awaitility.await("submits before the restart").atMost(Duration.ofSeconds(60))
                    .until(() -> acknowledged.size() >= SUBMITS_AROUND_THE_RESTART);

            // the door of the test's calls: a leader that steps down is started again at once, as systemd would
            leader.process().process().onExit().thenAccept(p -> {
                if (p.exitValue() == SchedulerDaemon.STEPPED_DOWN) {
                    try {
                        start(leader.scheduler());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            long epochBefore = lease(pg).epoch();
            pg.stop();
            grow = CompletableFuture.supplyAsync(() -> following.grow(allocation,
                    new GrowRequest(1, "worker", "/bin/sleep", List.of("600"), Map.of(), "fs0")));
            pg.start();
            // the lease renewed or taken once the store is back decides who leads: the leader renewed it, or its
            // lease passed while the store was away (or a unit of its lost its connection) and the standby took it
            Lease back = lease(pg);
            Lease decided = Awaitility.await("the lease renewed or taken after the restart").atMost(Duration.ofSeconds(30))
                    .ignoreExceptions().until(() -> lease(pg), l -> !l.equals(back));
            tookOver = decided.epoch() != epochBefore;
            int before = acknowledged.size();
            Awaitility.await("submits after the restart").atMost(Duration.ofSeconds(90))
                    .until(() -> acknowledged.size() >= before + SUBMITS_AROUND_THE_RESTART);
        } finally {
            load.shutdown();
            assertThat(load.awaitTermination(SchedulerClient.RETRY_FOR.toSeconds() + 15, TimeUnit.SECONDS)).isTrue();
        }
        // a grow answered is granted once, however often it was tried; one given up may have been granted or not
        Integer granted;
        String grown;
        try {
            granted = grow.get(SchedulerClient.RETRY_FOR.toSeconds() + 15, TimeUnit.SECONDS).granted();
            grown = "was granted " + granted + " node";
        } catch (ExecutionException e) {
            granted = null;
            grown = "was given up: " + e.getCause().getMessage();
        }

        // a leader that lost its lease stepped down, and was started again (as systemd would)
        Child leading = tookOver ? standby : leader;
        if (tookOver) {
            assertThat(leader.process().process().waitFor(15, TimeUnit.SECONDS)).as(leader.scheduler().name()
                    + " steps down").isTrue();
            assertThat(leader.process().process().exitValue()).as(leader.scheduler().name() + "'s exit status")
                    .isEqualTo(3);
            assertThat(standby.process().ready().get(30, TimeUnit.SECONDS)).startsWith("READY");
        }
        Awaitility.await("the leader's answer through b").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .until(() -> following.scheduler().name(), n -> n.endsWith(":" + leading.process().process().pid()));
        System.out.printf("the store restarted under load: %s leads after it (%s); %d submits acknowledged, %d given up %s;"
                + " the grow %s%n", leading.scheduler().name(), leading == leader ? "it led before"
                : leader.scheduler().name() + " stepped down and came back as a standby", acknowledged.size(),
                givenUp.size(), givenUp, grown);

        SchedulerClient viaLeader = following;
        List<JobView> loadJobs = viaLeader.jobs().stream().filter(j -> j.name().startsWith("load-")).toList();
        Map<String, List<Long>> made = loadJobs.stream()
                .collect(Collectors.groupingBy(JobView::name, Collectors.mapping(JobView::id, Collectors.toList())));
        assertThat(made).as("the jobs made of each submit").allSatisfy((name, ids) -> assertThat(ids).hasSize(1));
        assertThat(acknowledged).allSatisfy(s -> assertThat(made.get(s.name())).as(s.name()).containsExactly(s.id()));
        List<NodeView> held = Awaitility.await("pilots == nodes after the store's restart").atMost(Duration.ofSeconds(60))
                .until(() -> {
                    List<NodeView> nodes = viaLeader.heldNow(allocation).nodes();
                    boolean settled = nodes.stream().allMatch(n -> n.state().equals("RUNNING"))
                            && TestScheduler.pilotsNamedFor(grid, allocation).size() == nodes.size();
                    return settled ? nodes : null;
                }, java.util.Objects::nonNull);
        if (granted != null) {
            assertThat(held).as("the allocation's nodes after a grow of " + granted).hasSize(1 + granted);
        }
        // they would wait 150 placement rounds, and take fs1 once the allocation leaves it
        loadJobs.stream().filter(j -> !j.ended()).forEach(j -> viaLeader.cancel(j.id()));
    }

    /** The lease's row in the store: who holds it, at which epoch, until when (the database's clock). */
    private record Lease(String holder, long epoch, java.time.OffsetDateTime expiresAt) {
    }

    private static Lease lease(PostgresServer pg) throws java.sql.SQLException {
        java.sql.DriverManager.setLoginTimeout(10);
        try (java.sql.Connection c = java.sql.DriverManager.getConnection(pg.jdbcUrl("127.0.0.1", "koala_failover"),
                "koala", PASSWORD);
             java.sql.ResultSet r = c.createStatement().executeQuery("SELECT holder, epoch, expires_at FROM leader")) {
            assertThat(r.next()).as("the lease's row").isTrue();
            return new Lease(r.getString(1), r.getLong(2), r.getObject(3, java.time.OffsetDateTime.class));
        }
    }

    /**
     * An Open MPI job over both clusters (2 ranks on fs0, 1 on fs1): the ranks pass a barrier, say so,
     * sleep 12 s and sum their ranks, which each prints; its output goes to a directory the nodes share.
     */
    private record Mpi(long id, Path out, Path err) {
        private static final int RANKS = 3;

        static Mpi submit(SchedulerClient client) throws Exception {
            Path dir = TestScheduler.nodeDir("koala-failover-mpi");
            Path program = Files.writeString(dir.resolve("ranks.py"), """
                    import time
                    from mpi4py import MPI
                    world = MPI.COMM_WORLD
                    world.Barrier()
                    print(f"rank {world.Get_rank()} of {world.Get_size()} started", flush=True)
                    time.sleep(12)
                    total = world.allreduce(world.Get_rank())
                    print(f"rank {world.Get_rank()} of {world.Get_size()}: {total}", flush=True)
                    """);
            Path out = dir.resolve("ranks.out");
            Path err = dir.resolve("ranks.err");
            String component = "(&%s(resourceManagerContact = \"%s\")(count = %d)(executable = \"/usr/bin/python3\")"
                    + "(arguments = \"" + program + "\")(stdout = \"" + out + "\")(stderr = \"" + err + "\"))";
            String jdf = "+" + String.format(component, "(runner = mpi)", "fs0", 2) + String.format(component, "", "fs1", 1);
            return new Mpi(TestScheduler.submit(client, "mpi-through-a-take-over", jdf).id(), out, err);
        }

        void awaitRanksStarted() {
            Awaitility.await("the MPI job's ranks start").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                    .until(() -> ranks(" started").size() == RANKS);
        }

        void assertFinishedWithEveryRank(SchedulerClient client) throws Exception {
            JobView finished = TestScheduler.awaitEnd(client, id, Duration.ofSeconds(90));
            assertThat(finished.state()).as(finished.history() + "\n" + read(err)).isEqualTo("FINISHED");
            assertThat(finished.nodes()).extracting(NodeView::exitStatus).containsOnly(0);
            // every rank's sum of the ranks 0 + 1 + 2, as mpirun forwards them (two may share a line of the file)
            assertThat(ranks(": \\d+")).containsExactly("rank 0 of 3: 3", "rank 1 of 3: 3", "rank 2 of 3: 3");
        }

        private List<String> ranks(String saying) throws Exception {
            return Pattern.compile("rank \\d+ of \\d+" + saying).matcher(read(out)).results().map(MatchResult::group)
                    .sorted().toList();
        }

        private static String read(Path file) throws Exception {
            return Files.exists(file) ? Files.readString(file) : "";
        }
    }

    /**
     * Stops every scheduler the test started, the standbys first: a standby stopped after the leader would
     * take over and start all over again.
     */
    private void stopAll() throws Exception {
        List<SchedulerChild> order = new ArrayList<>(started);
        order.sort(java.util.Comparator.comparing(c -> c.ready().isDone()));
        for (SchedulerChild child : order) {
            Process p = child.process();
            signal("CONT", p);
            p.destroy();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        // then the runners, which no scheduler starts again now
        for (Runner runner : runners) {
            runner.stop();
        }
        runners.stream().findFirst().ifPresent(Runner::deleteDirectory);
    }

    /** The site agents a started on koala-b, which would otherwise end only after 10 idle minutes. */
    private static void endAgentsOnTheStandbyHost() throws Exception {
        Process pids = new ProcessBuilder("ip", "netns", "pids", B_HOST).redirectErrorStream(true).start();
        String out = new String(pids.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        pids.waitFor(10, TimeUnit.SECONDS);
        for (String pid : out.split("\\s+")) {
            if (pid.matches("\\d+")) {
                ProcessHandle.of(Long.parseLong(pid)).filter(p -> p.info().command().map(c -> c.endsWith("/java"))
                        .orElse(false)).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    private static void signal(String name, Process p) throws Exception {
        if (p.isAlive()) {
            new ProcessBuilder("kill", "-" + name, Long.toString(p.pid())).inheritIO().start().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Waits until the scheduler {@code client} calls is answered by {@code leader}'s process, on its host or through a standby. */
    private static void awaitPassingOnTo(SchedulerClient client, SchedulerChild leader) {
        Awaitility.await("answers of pid " + leader.process().pid()).atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                .until(() -> client.scheduler().name(), name -> name.endsWith(":" + leader.process().pid()));
    }

    /** Waits until {@code scheduler} says, in its metrics on the grid's network, that it stands by. */
    private static void awaitStandby(Scheduler scheduler) throws Exception {
        String token = Files.readString(KoalaHome.dir().resolve("metrics.token")).strip();
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        java.net.http.HttpRequest scrape = java.net.http.HttpRequest.newBuilder(scheduler.nodeUrl().resolve("/metrics"))
                .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(10)).build();
        Awaitility.await(scheduler.name() + " stands by").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().until(() -> http.send(scrape, java.net.http.HttpResponse.BodyHandlers.ofString()).body(),
                        body -> body.contains("koala_scheduler_leading 0"));
    }

    private static void delete(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (java.io.IOException ignored) {
            // a temporary directory: the system's to clean up then
        }
    }
}
