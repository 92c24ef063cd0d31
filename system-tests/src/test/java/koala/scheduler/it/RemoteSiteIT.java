package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import koala.api.runner.RunnerClient;
import koala.api.runner.RunnerMessages;
import koala.api.runner.TokenSource;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SiteStatus;
import koala.common.time.Poll;
import koala.grid.Accounts;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.jdf.ClusterCatalog;
import koala.jdf.JdfParser;
import koala.runner.RunnerMain;
import koala.testbed.Progress;
import koala.testbed.Testbed;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A remote site for real: the testbed's cell fs2 is another cluster, reached only by SSH to its
 * head node {@code fs2-head}, whose compute nodes sit on a private network of their own. The agent
 * is copied there, started detached and reached through a port forward; the pilots, on fs2's
 * compute nodes, call back through the agent's relay on the head node's cluster address. A
 * co-allocated job runs across fs0 (local) and fs2 (remote); the head node's SSH server is then
 * stopped with its sessions and started again, and the site must go down and come back with its
 * agent and its nodes intact. A framework instance on fs2 outlives a 90 s cut of the head node's
 * link, and its runner's relay there ends with it.
 */
class RemoteSiteIT {
    private static final String REMOTE_DIR = ".koala-it"; // in fs2's koala home; jars are reused run to run
    /** How long fs2-head's link is cut: longer than the 120 s a launcher on this machine's network waits. */
    private static final Duration CUT = Duration.ofSeconds(90);
    private static TestScheduler scheduler;
    private static SchedulerClient client;
    private static Testbed testbed;

    @BeforeAll
    static void start() throws Exception {
        // tries to reconnect to fs2's head node at most 5 s apart, not 30: the cut's end is seen within seconds
        scheduler = TestScheduler.start(Map.of("scheduler.claimTimeout", "45", "site.fs2.ssh.dir", REMOTE_DIR,
                "site.fs2.ssh.retryMax", "5"));
        client = scheduler.client();
        testbed = new Testbed(KoalaHome.dir(), Progress.quiet(), Poll.system());
    }

    @AfterAll
    static void stop() throws Exception {
        if (testbed != null && client != null) {
            testbed.mendLink("fs2"); // if a check failed during the cut
            testbed.startSshd("fs2"); // if a check failed during the outage: the link comes back so the cancel reaches fs2
            Awaitility.await("fs2 back").atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(250))
                    .until(() -> site("fs2").agent().equals("UP"));
            client.jobs().stream().filter(j -> !j.ended()).forEach(j -> client.cancel(j.id()));
        }
        if (scheduler != null) {
            scheduler.close();
        }
    }

    @Test
    void aCoAllocatedJobRunsAcrossALocalAndARemoteSiteAndOutlivesAnSshOutage() throws Exception {
        Awaitility.await("fs2 up through SSH").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> site("fs2").agent().equals("UP"));
        List<ProcessHandle> agent = remoteAgent();
        assertThat(agent).as("one agent on the head node").hasSize(1);

        // each site's nodes write in their own home: fs0's is this machine's, fs2's the remote site's own
        String name = "koala-remote-it-" + Long.toHexString(System.nanoTime());
        Path local = Accounts.directoryOf("koala", name);
        Path remote = Testbed.remoteHome("fs2", "koala").resolve(name);
        Files.createDirectories(remote);
        Files.setOwner(remote, local.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("koala"));
        String command = "echo $KOALA_SITE $KOALA_NODE_ID $(hostname) >> $HOME/" + name + "/nodes.out; "
                + "while [ ! -f $HOME/" + name + "/go ]; do sleep 0.2; done";
        String jdf = "+" + component("fs0", 1, command) + component("fs2", 2, command);
        long id = TestScheduler.submit(client, "across-ssh", jdf).id();

        assertThat(TestScheduler.awaitState(client, id, "RUNNING", Duration.ofSeconds(60)).state()).isEqualTo("RUNNING");
        Awaitility.await("every node started its command").atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(200)).until(() -> lines(local).size() + lines(remote).size() == 3);
        assertThat(lines(local)).extracting(l -> l.split(" ")[0]).containsExactly("fs0");
        assertThat(lines(remote)).extracting(l -> l.split(" ")[0]).containsExactly("fs2", "fs2");
        assertThat(lines(remote)).extracting(l -> l.split(" ")[2]).allMatch(h -> h.matches("fs2-n\\d+"));
        // fs2's launchers run from the jars copied to the head node and call back through the agent's relay there
        String relay = java.util.regex.Pattern.quote(relayHost());
        List<String> fs2Launchers = ProcessHandle.allProcesses().map(p -> koala.process.CommandLines.of(p).orElse(""))
                .filter(c -> c.contains("koala.node.NodeLauncher") && c.contains("--node " + id + ".1.")
                        && c.contains(REMOTE_DIR + "/lib/")).toList(); // not another test's scheduler's, still ending
        assertThat(fs2Launchers).hasSize(2).allSatisfy(c -> assertThat(c)
                .doesNotContain("--scheduler " + client.base())
                .containsPattern("--scheduler http://" + relay + ":\\d+ "));

        testbed.stopSshd("fs2");
        try {
            Awaitility.await("fs2 down").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                    .until(() -> site("fs2").agent().equals("DOWN") && site("fs2").agentReason()
                            .contains("SSH connection to koala@fs2-head:22 lost"));
            assertThat(site("fs0").agent()).isEqualTo("UP");
            JobView during = client.job(id);
            assertThat(during.state()).isEqualTo("RUNNING");
            assertThat(during.nodes()).filteredOn(n -> n.site().equals("fs2")).extracting(NodeView::state)
                    .containsOnly("RUNNING").hasSize(2);
        } finally {
            testbed.startSshd("fs2"); // also after a failed check: the class's other tests need fs2
        }
        Awaitility.await("fs2 back").atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(250))
                .until(() -> site("fs2").agent().equals("UP"));
        assertThat(remoteAgent()).as("re-attached to the same agent, no second one").isEqualTo(agent);
        assertThat(client.job(id).nodes()).extracting(NodeView::state).containsOnly("RUNNING");

        Files.writeString(local.resolve("go"), "");
        Files.writeString(remote.resolve("go"), "");
        JobView done = TestScheduler.awaitEnd(client, id, Duration.ofSeconds(60));
        assertThat(done.state()).as("%s", done.history()).isEqualTo("FINISHED");
        assertThat(done.nodes()).extracting(NodeView::site, NodeView::exitStatus).containsExactlyInAnyOrder(
                org.assertj.core.groups.Tuple.tuple("fs0", 0), org.assertj.core.groups.Tuple.tuple("fs2", 0),
                org.assertj.core.groups.Tuple.tuple("fs2", 0));
    }

    @Test
    void aFrameworkMasterOnTheRemoteSiteReportsToItsRunnerThroughTheHeadNode() throws Exception {
        Awaitility.await("fs2 up through SSH").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> site("fs2").agent().equals("UP"));
        String name = "koala-remote-runner-url-" + Long.toHexString(System.nanoTime());
        Path runnerUrl = Testbed.remoteHome("fs2", "koala").resolve(name); // the master's node sees it as $HOME/name
        String jdf = "+( &(jobType = framework)(name = it-remote)(role = master)(count = 1)(resourceManagerContact = fs2)"
                + "(executable = /bin/sh)(arguments = \"-c\" \"echo $KOALA_RUNNER_URL > $HOME/" + name + "; sleep 100000\")"
                + "(provisioning = static)(samplePeriod = 1))"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100000) )"
                + " ( &(role = worker)(count = 0)(executable = /bin/sleep)(arguments = 100000) )";
        GridConfig grid = GridConfig.load(scheduler.config());
        Path dir = Files.createTempDirectory("koala-remote-runner-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        RunnerMain.Setup setup = new RunnerMain.Setup(JdfParser.parse("remote.jdf", jdf,
                new ClusterCatalog(grid.nodeCounts())), jdf, scheduler.config(), client.base(), 0, dir,
                Duration.ofSeconds(5), Duration.ofSeconds(60)).actingFor(TestScheduler.OWNER);
        try (RunnerMain.Started runner = RunnerMain.start(setup, InstantSource.system())) {
            assertThat(runner.runner().deploy(Duration.ofSeconds(60))).as("initial deployment").isTrue();
            RunnerMessages.Status status = new RunnerClient(runner.url(), TokenSource.of(runner::token)).status();
            assertThat(status.role("master")).singleElement().satisfies(m -> {
                assertThat(m.site()).isEqualTo("fs2");
                assertThat(m.state()).isEqualTo("RUNNING");
            });
            // the master was told a relay on the head node, to a port forwarded to the runner, not the runner's own
            String told = Awaitility.await("the master wrote its KOALA_RUNNER_URL").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(200)).until(() -> Files.exists(runnerUrl) ? Files.readString(runnerUrl).trim()
                            : "", t -> !t.isEmpty());
            assertThat(told).startsWith("http://" + relayHost() + ":").isNotEqualTo(runner.url().toString());
            int relayPort = java.net.URI.create(told).getPort();
            assertThat(listensOnHead(relayPort)).as("the runner's relay on the head node").isTrue();
            client.closeAllocation(runner.instance());
            assertThat(runner.runner().awaitEnd(Duration.ofSeconds(20))).isTrue();
            // the instance ended: its relay ends with it, rather than accepting call-backs and cutting them off
            Awaitility.await("the relay on port " + relayPort + " closed").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500)).until(() -> !listensOnHead(relayPort));
            assertThat(Files.readString(Testbed.remoteHome("fs2", "koala").resolve(REMOTE_DIR).resolve("agent-fs2.state")))
                    .as("the agent's state file, from which a restarted agent opens its relays again")
                    .doesNotContainPattern("(?m)^relay \\d+ " + relayPort + "$");
        }
    }

    /**
     * A cut of the head node's link of 90 s costs a framework instance on the remote site nothing: its
     * master (same process, same address at the FrameworkJobManager), orchestrator and two workers carry
     * on, no entity is lost or restarted, and each is heard from again once the link is back. The
     * runner's launchers wait 30 s here for a silent runner on this machine's network (120 s by default):
     * the cut lasts three times that, and on a remote site they wait longer, and the runner waits for them.
     * The link is fs2-head's end of its veth pair on the grid's bridge, taken down and up again
     * ({@link Testbed#cutLink}).
     *
     * <p>Costs about 100 s: the 90 s cut, up to 15 s for the scheduler to reconnect (its tries back off
     * to 5 s here, {@code site.fs2.ssh.retryMax}; 30 s by default) and a few seconds to deploy and for the
     * beats to come through again.
     */
    @Test
    void aFrameworkInstanceOnTheRemoteSiteOutlivesA90SecondCutOfTheHeadNodesLink() throws Exception {
        Awaitility.await("fs2 up through SSH").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> site("fs2").agent().equals("UP"));
        String name = "koala-remote-cut-" + Long.toHexString(System.nanoTime());
        Path masterPid = Testbed.remoteHome("fs2", "koala").resolve(name);
        String jdf = "+( &(jobType = framework)(name = it-cut)(role = master)(count = 1)(resourceManagerContact = fs2)"
                + "(executable = /bin/sh)(arguments = \"-c\" \"echo $$ > $HOME/" + name + "; exec sleep 100000\")"
                + "(provisioning = static)(samplePeriod = 2))"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100000) )"
                + " ( &(role = worker)(count = 2)(executable = /bin/sleep)(arguments = 100000) )";
        GridConfig grid = GridConfig.load(scheduler.config());
        Path dir = Files.createTempDirectory("koala-remote-cut-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        RunnerMain.Setup setup = new RunnerMain.Setup(JdfParser.parse("cut.jdf", jdf,
                new ClusterCatalog(grid.nodeCounts())), jdf, scheduler.config(), client.base(), 0, dir,
                Duration.ofSeconds(30), Duration.ofSeconds(60)).actingFor(TestScheduler.OWNER);
        try (RunnerMain.Started runner = RunnerMain.start(setup, InstantSource.system())) {
            assertThat(runner.runner().deploy(Duration.ofSeconds(60))).as("initial deployment").isTrue();
            long id = runner.instance();
            RunnerClient rpc = new RunnerClient(runner.url(), TokenSource.of(runner::token));
            List<RunnerMessages.Entity> before = rpc.status().entities();
            assertThat(before).hasSize(4).allSatisfy(e -> {
                assertThat(e.site()).isEqualTo("fs2");
                assertThat(e.state()).isEqualTo("RUNNING");
            });
            String master = Awaitility.await("the FrameworkJobManager has the master's address")
                    .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200))
                    .until(() -> java.util.Optional.ofNullable(client.framework(id).master())
                            .map(koala.api.scheduler.MasterAddress::address).orElse(""), a -> !a.isEmpty());
            long pid = Long.parseLong(Awaitility.await("the master wrote its pid").atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(200)).until(() -> Files.exists(masterPid)
                            ? Files.readString(masterPid).trim() : "", t -> !t.isEmpty()));
            assertThat(ProcessHandle.of(pid)).as("the master's process").isPresent();

            java.time.Instant cut = java.time.Instant.now();
            testbed.cutLink("fs2");
            try {
                // the SSH keep-alive gives up after 15 s and the agent check tries again before the session counts
                // as down (about 30 s); then the information service's next look: 40 s was too tight on a loaded CI
                // machine. The cut lasts CUT whatever this wait takes, so a longer bound does not lengthen the test.
                Awaitility.await("fs2 down").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                        .until(() -> site("fs2").agent().equals("DOWN"));
                Duration left = CUT.minus(Duration.between(cut, java.time.Instant.now()));
                Awaitility.await("nothing lost while fs2 is cut off").during(left).atMost(left.plusSeconds(10))
                        .pollInterval(Duration.ofSeconds(1)).until(() -> nothingLost(rpc, before));
            } finally {
                testbed.mendLink("fs2");
            }
            System.out.printf("fs2-head's link cut for %d s%n", Duration.between(cut, java.time.Instant.now()).toSeconds());
            Awaitility.await("fs2 back").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> site("fs2").agent().equals("UP"));
            Awaitility.await("every entity heard from again").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500)).until(() -> before.stream().allMatch(e -> rpc.status().events()
                            .stream().anyMatch(line -> line.contains(e.role() + " " + e.node() + " heard from again"))));

            assertThat(nothingLost(rpc, before)).as("%s", rpc.status().events()).isTrue();
            assertThat(rpc.status().events()).as("the runner waited for them behind the cut link")
                    .anyMatch(line -> line.contains("while the link to fs2 is down"))
                    .noneMatch(line -> line.contains("(restart ") || line.contains("(restarted)"));
            assertThat(client.framework(id).master().address()).as("the master's address").isEqualTo(master);
            assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("the same master process").isPresent();
            client.closeAllocation(id);
            assertThat(runner.runner().awaitEnd(Duration.ofSeconds(20))).isTrue();
        }
    }

    /** The instance runs with the entities it had, each running, none lost. */
    private static boolean nothingLost(RunnerClient rpc, List<RunnerMessages.Entity> before) {
        RunnerMessages.Status now = rpc.status();
        return now.state().equals("RUNNING") && now.events().stream().noneMatch(e -> e.contains(" lost"))
                && now.entities().stream().map(RunnerMessages.Entity::node).toList()
                .equals(before.stream().map(RunnerMessages.Entity::node).toList())
                && now.entities().stream().allMatch(e -> e.state().equals("RUNNING"));
    }

    /** Whether something listens on {@code port} of fs2's head node (its relays listen on its cluster address). */
    private static boolean listensOnHead(int port) throws Exception {
        TestHosts.Ran ran = TestHosts.run(TestHosts.WITHIN, List.of("ip", "netns", "exec", "fs2-head", "ss", "-Hltn",
                "sport = :" + port));
        return !ran.checked().isBlank();
    }

    /**
     * fs2 runs every user's pilots as its one account, so it holds one owner's work at a time. Alice's
     * instance holds it (master and orchestrator node); Bob's, pinned there too, waits for its master,
     * its status saying why; once Alice's ends, Bob's master is asked for again within 10 s and gets fs2.
     * Costs about 17 s: two deployments on fs2, the hand-over within one retry (10 s).
     */
    @Test
    void aRemoteSiteHeldByOneUsersInstanceHandsOverToAnothersWhenItEnds() throws Exception {
        Awaitility.await("fs2 up through SSH").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> site("fs2").agent().equals("UP"));
        String jdf = "+( &(jobType = framework)(name = it-remote-turns)(role = master)(count = 1)"
                + "(resourceManagerContact = fs2)(executable = /bin/sleep)(arguments = 100000)"
                + "(provisioning = static)(samplePeriod = 1))"
                + " ( &(role = orchestrator)(count = 1)(resourceManagerContact = fs2)(executable = /bin/sleep)"
                + "(arguments = 100000) )"
                + " ( &(role = worker)(count = 0)(executable = /bin/sleep)(arguments = 100000) )";
        try (RunnerMain.Started alice = runner(jdf, "alice")) {
            assertThat(alice.runner().deploy(Duration.ofSeconds(60))).as("alice's deployment").isTrue();
            try (RunnerMain.Started bob = runner(jdf, "bob")) {
                java.util.concurrent.CompletableFuture<Boolean> deployed = java.util.concurrent.CompletableFuture
                        .supplyAsync(() -> bob.runner().deploy(Duration.ofSeconds(60)));
                RunnerClient bobs = new RunnerClient(bob.url(), TokenSource.of(bob::token));
                RunnerMessages.Status waiting = Awaitility.await("bob's instance waits for its master")
                        .atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250))
                        .until(bobs::status, s -> !s.waiting().isEmpty());
                assertThat(waiting.state()).isEqualTo("DEPLOYING");
                assertThat(waiting.waiting()).singleElement().asString().startsWith("waiting for its master: ")
                        .contains("fs2 runs every user's pilots as one account and holds another user's work now");

                scheduler.asRoot().closeAllocation(alice.instance()); // alice's: an admin may end it
                assertThat(alice.runner().awaitEnd(Duration.ofSeconds(20))).isTrue();
                assertThat(deployed.get(90, java.util.concurrent.TimeUnit.SECONDS)).as("bob's deployment").isTrue();
                RunnerMessages.Status running = bobs.status();
                assertThat(running.waiting()).isEmpty();
                assertThat(running.role("master")).singleElement().satisfies(m -> {
                    assertThat(m.site()).isEqualTo("fs2");
                    assertThat(m.state()).isEqualTo("RUNNING");
                });
                scheduler.asRoot().closeAllocation(bob.instance());
                assertThat(bob.runner().awaitEnd(Duration.ofSeconds(20))).isTrue();
            }
        }
    }

    /** A runner of {@code jdf} for {@code owner}, started (its deployment not yet). */
    private static RunnerMain.Started runner(String jdf, String owner) throws java.io.IOException {
        GridConfig grid = GridConfig.load(scheduler.config());
        Path dir = Files.createTempDirectory("koala-remote-runner-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        RunnerMain.Setup setup = new RunnerMain.Setup(JdfParser.parse("remote.jdf", jdf,
                new ClusterCatalog(grid.nodeCounts())), jdf, scheduler.config(), client.base(), 0, dir,
                Duration.ofSeconds(5), Duration.ofSeconds(60)).actingFor(owner);
        return RunnerMain.start(setup, InstantSource.system());
    }

    private static List<String> lines(Path dir) throws java.io.IOException {
        Path out = dir.resolve("nodes.out");
        return Files.exists(out) ? Files.readAllLines(out) : List.of();
    }

    private static String component(String cluster, int count, String command) {
        return "(&(resourceManagerContact = \"" + cluster + "\")(count = " + count + ")"
                + "(executable = \"/bin/sh\")(arguments = \"-c\" \"" + command + "\"))";
    }

    /** The agent JVM started on fs2's head node: it reads the site file the scheduler copied there. */
    private static List<ProcessHandle> remoteAgent() {
        return ProcessHandle.allProcesses().filter(p -> koala.process.CommandLines.of(p).map(c -> c.contains("koala.site.AgentMain")
                && c.contains(REMOTE_DIR + "/site-fs2.properties")).orElse(false)).toList();
    }

    private static SiteStatus site(String name) {
        return client.sites().stream().filter(s -> s.site().equals(name)).findFirst().orElseThrow();
    }

    /**
     * Where fs2's agent relays the pilots' call-backs: {@code site.fs2.ssh.relayHost} if the testbed
     * sets it, else the name {@code hostname} prints on the "head node", which is this machine.
     */
    private static String relayHost() throws java.io.IOException {
        java.util.Optional<String> configured = GridConfig.load(scheduler.config()).site("fs2").ssh().orElseThrow()
                .relayHost();
        if (configured.isPresent()) {
            return configured.get();
        }
        Process hostname = new ProcessBuilder("hostname").start();
        return new String(hostname.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).trim();
    }
}
