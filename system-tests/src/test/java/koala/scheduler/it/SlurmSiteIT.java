package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.api.runner.RunnerClient;
import koala.api.runner.RunnerMessages;
import koala.api.runner.TokenSource;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SiteStatus;
import koala.grid.GridConfig;
import koala.common.time.Poll;
import koala.grid.KoalaHome;
import koala.runner.RunnerMain;
import koala.testbed.LocalUser;
import koala.testbed.Progress;
import koala.testbed.Testbed;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A grid of an SGE cluster and a Slurm cluster: the testbed with its Slurm cell ({@code testbed up --slurm 2},
 * fs3: Debian's slurmctld on its head node, a slurmd on each of 2 compute nodes of 2 CPUs), whose site agent
 * drives Slurm with its commands. One co-allocated job runs a component on fs0 (SGE) and one on fs3 (Slurm), as
 * its owner on both, and the two talk over TCP; a local user's job on fs3 is seen as load there; once the job
 * ended no pilot of it is left in either cluster; an MPI world spans both clusters; a framework instance grows
 * onto fs3 and shrinks there, through a stop and a start of Slurm's controller; fs3's site agent killed under a
 * running job is started again and takes up its pilot; a Proactive instance grows onto fs3 while its workers burn
 * CPU and shrinks when they idle; a job's components keep off each other's hosts there by a placement constraint;
 * a Dask cluster runs wholly on fs3, grows and shrinks. The testbed goes back to its three SGE cells afterwards.
 *
 * <p>Costs about 135 s: the Slurm cell up (about 10 s) and down, a scheduler's start, the jobs (5-10 s each),
 * the instances (about 20 s and 30 s), the agent's restart (about 12 s), the Dask cluster (about 15 s).
 */
class SlurmSiteIT {
    private static Testbed testbed;
    private static TestScheduler scheduler;

    @BeforeAll
    static void withASlurmCell() throws Exception {
        testbed = new Testbed(KoalaHome.dir(), Progress.quiet(), Poll.system());
        testbed.up(TestScheduler.defaultPlan(testbed.status()).withSlurmCell(2));
        scheduler = TestScheduler.start(Map.of());
    }

    @AfterAll
    static void backToSgeAlone() {
        try {
            if (scheduler != null) {
                scheduler.close();
            }
        } finally {
            testbed.up(TestScheduler.defaultPlan(testbed.status()));
        }
    }

    @Test
    void aJobCoAllocatedOverAnSgeAndASlurmClusterRunsAsItsOwnerOnBoth() throws Exception {
        SchedulerClient client = scheduler.client();
        GridConfig grid = GridConfig.load(scheduler.config());
        Awaitility.await("fs3 up").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> site(client, "fs3").agent().equals("UP"));
        assertThat(site(client, "fs3").manager()).startsWith("slurm ");
        assertThat(site(client, "fs0").manager()).startsWith("SGE ");
        assertThat(site(client, "fs3").total()).isEqualTo(4);

        String tag = Long.toHexString(System.nanoTime());
        String owner = Testbed.USERS.get(0);
        SchedulerClient asOwner = scheduler.asRoot().actingFor(owner);
        JobView job = TestScheduler.submit(asOwner, "sge-and-slurm", exchange(tag));
        JobView end = TestScheduler.awaitEnd(asOwner, job.id(), Duration.ofSeconds(120));

        assertThat(end.state()).as(end.history().toString()).isEqualTo("FINISHED");
        assertThat(end.nodes()).extracting(NodeView::site).containsExactly("fs0", "fs3");
        assertThat(end.nodes()).extracting(NodeView::exitStatus).containsOnly(0);
        assertThat(end.nodes().get(1).host()).startsWith("fs3-n");
        assertThat(end.owner()).isEqualTo(owner);
        Path home = Path.of("/home", owner);
        assertThat(Files.readString(home.resolve("koala-slurm-" + tag + "-0.out"))).isEqualTo("fs0 got: ping from fs3\n");
        assertThat(Files.readString(home.resolve("koala-slurm-" + tag + "-1.out"))).isEqualTo("fs3 got: pong from fs0\n");
        Awaitility.await("no pilot of the job left in SGE or Slurm").atMost(Duration.ofSeconds(30))
                .until(() -> TestScheduler.pilotsNamedFor(grid, job.id()).isEmpty());
    }

    @Test
    void aLocalUsersJobOnTheSlurmClusterIsLoadThere() throws Exception {
        SchedulerClient client = scheduler.client();
        GridConfig grid = GridConfig.load(scheduler.config());
        String local = LocalUser.sbatch(grid.site("fs3"), "local-load", "sleep", "600");
        try {
            SiteStatus loaded = Awaitility.await("the local job seen on fs3").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500)).until(() -> site(client, "fs3"), s -> s.others() == 1);
            assertThat(loaded.koala()).isZero();
        } finally {
            LocalUser.run(grid.site("fs3"), "scancel", local);
        }
        Awaitility.await("the local job gone").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
                .until(() -> site(client, "fs3").others() == 0);
    }

    /**
     * kill -9 of fs3's site agent under a job running there: the scheduler starts the agent again, which takes up
     * the job's pilot as Slurm has it (the same Slurm job, none submitted again, the node still running); the job
     * ends FINISHED once told to, and no pilot of it is left. About 15 s.
     */
    @Test
    void aKilledSlurmAgentIsStartedAgainAndTakesUpTheRunningPilot() throws Exception {
        SchedulerClient client = scheduler.client();
        GridConfig grid = GridConfig.load(scheduler.config());
        String owner = Testbed.USERS.get(0);
        SchedulerClient asOwner = scheduler.asRoot().actingFor(owner);
        Path go = Path.of("/home", owner, "koala-slurm-go-" + Long.toHexString(System.nanoTime()));
        JobView job = TestScheduler.submit(asOwner, "through-an-agent-restart", "&(resourceManagerContact = \"fs3\")"
                + "(count = 1)(executable = \"/bin/sh\")(arguments = \"-c\" \"while [ ! -e " + go + " ]; do sleep 0.2; "
                + "done\")");
        try {
            Awaitility.await("the job running on fs3").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                    .until(() -> client.job(job.id()).nodes(), n -> n.size() == 1 && n.get(0).state().equals("RUNNING"));
            List<String> pilots = slurmJobsOf(grid, job.id());
            assertThat(pilots).hasSize(1);
            List<ProcessHandle> agent = agentOf("fs3");
            assertThat(agent).isNotEmpty();

            agent.forEach(ProcessHandle::destroyForcibly);

            Awaitility.await("fs3's agent started again, and the site up").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500)).until(() -> !agentOf("fs3").isEmpty()
                            && java.util.Collections.disjoint(agentOf("fs3"), agent) && site(client, "fs3").agent().equals("UP"));
            assertThat(slurmJobsOf(grid, job.id())).as("the pilot, taken up rather than submitted again").isEqualTo(pilots);
            assertThat(client.job(job.id()).nodes()).extracting(NodeView::state).containsExactly("RUNNING");

            Files.createFile(go);
            JobView end = TestScheduler.awaitEnd(client, job.id(), Duration.ofSeconds(60));
            assertThat(end.state()).as(end.history().toString()).isEqualTo("FINISHED");
            assertThat(end.nodes()).extracting(NodeView::exitStatus).containsExactly(0);
            Awaitility.await("no pilot of the job left in Slurm").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500)).until(() -> slurmJobsOf(grid, job.id()).isEmpty());
        } finally {
            Files.deleteIfExists(go);
        }
    }

    /**
     * Placement constraints over hosts on the Slurm cell: two components of two nodes each on fs3, the first
     * (store) kept off the second's (compute) hosts, hard. Worst-Fit alone would spread each component over
     * both hosts; kept per host, the store nodes share one host and the compute nodes the other, each pilot
     * pinned to its host ({@code sbatch -w}). About 6 s.
     */
    @Test
    void aJobsComponentsKeepOffEachOthersHostsOnTheSlurmCluster() throws Exception {
        SchedulerClient client = scheduler.client();
        // every core of fs3 free and known: after a restart of Slurm's controller (another test) a host's slurmd
        // registers again a moment later, and a site seen smaller than the job refuses it at submit
        Awaitility.await("fs3's 4 cores free").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> site(client, "fs3"), f -> f.agent().equals("UP") && f.total() == 4 && f.idle() == 4);
        String jdf = "+( &(resourceManagerContact = \"fs3\")(count = 2)(executable = /bin/hostname)(tags = \"store\")"
                + "(constraints = \"anti-affinity compute host\") )"
                + " ( &(resourceManagerContact = \"fs3\")(count = 2)(executable = /bin/hostname)(tags = \"compute\") )";

        JobView end = TestScheduler.awaitEnd(client, TestScheduler.submit(client, "slurm-hosts", jdf).id(),
                Duration.ofSeconds(120));

        assertThat(end.state()).as(end.history().toString()).isEqualTo("FINISHED");
        List<String> store = hostsOf(end, 0);
        List<String> compute = hostsOf(end, 1);
        assertThat(store).as("the store's hosts").hasSize(2).doesNotContainNull().containsOnly(store.get(0));
        assertThat(compute).as("the compute nodes' hosts").hasSize(2).containsOnly(compute.get(0))
                .doesNotContainAnyElementsOf(store);
        GridConfig grid = GridConfig.load(scheduler.config());
        Awaitility.await("no pilot of the job left in Slurm").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500)).until(() -> slurmJobsOf(grid, end.id()).isEmpty());
    }

    /**
     * A Dask cluster wholly on the Slurm cell ({@code KoalaCluster(site="fs3")}, {@code python/testbed/dask_on_site.py}):
     * Dask's scheduler, the orchestrator and the workers are Slurm pilots, the cluster speaks TLS as on SGE; it
     * grows from one worker to two (fs3's 4 cores, one node each), computes, shrinks back to one worker and closes,
     * and no pilot of it is left in Slurm. About 15 s.
     */
    @Test
    void aDaskClusterRunsWhollyOnTheSlurmClusterGrowsAndShrinks() throws Exception {
        SchedulerClient client = scheduler.client();
        Awaitility.await("fs3's 4 cores free").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> site(client, "fs3"), f -> f.agent().equals("UP") && f.total() == 4 && f.idle() == 4);
        Path repo = Path.of("").toAbsolutePath().getParent();
        Path out = TestScheduler.nodeDir("koala-slurm-dask");
        ProcessBuilder python = new ProcessBuilder("/usr/bin/python3", repo.resolve("python/testbed/dask_on_site.py")
                .toString()).redirectErrorStream(true).directory(out.toFile());
        python.environment().putAll(Map.of("PYTHONPATH", repo.resolve("python").toString(), "KOALA_CONFIG",
                scheduler.config().toString(), "KOALA_AS", TestScheduler.OWNER, "KOALA_BIN",
                repo.resolve("bin/koala").toString(), "OUT_DIR", out.toString(), "SITE", "fs3"));
        Process p = python.start();
        p.getOutputStream().close();
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream()))
                .lines().forEach(l -> {
                    System.out.println("[dask on fs3] " + l);
                    lines.add(l);
                }));
        reader.start();
        boolean ended = p.waitFor(5, java.util.concurrent.TimeUnit.MINUTES);
        if (!ended) {
            p.destroyForcibly();
        }
        reader.join(5_000);
        assertThat(ended).as("the Dask check ended within 5 minutes: " + lines).isTrue();
        assertThat(p.exitValue()).as(String.join("\n", lines)).isZero();
        assertThat(lines).anyMatch(l -> l.startsWith("ok   Dask's scheduler runs on fs3"))
                .anyMatch(l -> l.startsWith("ok   both workers run on fs3"))
                .anyMatch(l -> l.startsWith("ok   it computes over TLS"))
                .anyMatch(l -> l.startsWith("ok   shrunk back to one worker"));
        long instance = Long.parseLong(lines.stream().filter(l -> l.startsWith("closed instance ")).findFirst()
                .orElseThrow().substring("closed instance ".length()).trim());
        GridConfig grid = GridConfig.load(scheduler.config());
        Awaitility.await("no pilot of the Dask cluster left in Slurm").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500)).until(() -> slurmJobsOf(grid, instance).isEmpty());
    }

    private static List<String> hostsOf(JobView job, int component) {
        return job.nodes().stream().filter(n -> n.component() == component).map(NodeView::host).toList();
    }

    /** Slurm's ids of the pilots of {@code job} on fs3. */
    private static List<String> slurmJobsOf(GridConfig grid, long job) {
        return LocalUser.jobs(grid.site("fs3")).stream().map(l -> l.split("\\s+"))
                .filter(f -> f[1].matches("koala-[a-z0-9]+-" + job + "-.*")).map(f -> f[0]).toList();
    }

    /** The agent JVM of {@code site} started for this class's scheduler (its configuration file is its own). */
    private static List<ProcessHandle> agentOf(String site) {
        String config = scheduler.config().toString();
        return ProcessHandle.allProcesses().filter(p -> koala.process.CommandLines.of(p).map(c ->
                c.contains("koala.site.AgentMain") && c.contains(config) && c.contains("--site " + site)).orElse(false))
                .toList();
    }

    /**
     * An OnDemand instance with its master on fs0 (SGE) and its workers pinned to fs3 (Slurm) grows by 2 workers
     * there; Slurm's controller is stopped under it: the site is seen down, the workers go on and their launchers
     * keep beating; once it runs again the site is up, a worker shrinks away and its Slurm job with it. Pilots
     * equal nodes on both clusters throughout, and nothing is left once the instance ends. About 20 s.
     */
    @Test
    void aFrameworkInstanceGrowsOntoTheSlurmClusterAndShrinksThroughAControllerRestart() throws Exception {
        SchedulerClient client = scheduler.client();
        GridConfig grid = GridConfig.load(scheduler.config());
        Path dir = Files.createTempDirectory("koala-slurm-runner-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        String jdf = "+( &(jobType = framework)(name = slurm-grow)(role = master)(count = 1)(resourceManagerContact = fs0)"
                + "(executable = /bin/sleep)(arguments = 100000)(provisioning = ondemand)(fMax = 4)(samplePeriod = 1)"
                + "(tIdle = 1))"
                + " ( &(role = orchestrator)(count = 1)(resourceManagerContact = fs0)(executable = /bin/sleep)"
                + "(arguments = 100000) )"
                + " ( &(role = worker)(count = 0)(resourceManagerContact = fs3)(executable = /bin/sleep)"
                + "(arguments = 100000) )";
        try (RunnerMain.Started runner = scheduler.runner(jdf, scheduler.config(), dir, Duration.ofSeconds(30))) {
            long id = runner.instance();
            RunnerClient rpc = new RunnerClient(runner.url(), TokenSource.of(runner::token));
            assertThat(rpc.grow(2).granted()).isEqualTo(2);
            List<RunnerMessages.Entity> workers = awaitWorkers(rpc, 2);
            assertThat(workers).extracting(RunnerMessages.Entity::site).containsOnly("fs3");
            assertThat(workers).allSatisfy(w -> assertThat(w.host()).startsWith("fs3-n"));
            awaitPilotsEqualNodes(client, grid, id, 4);

            Instant stopped = Instant.now();
            testbed.stopSlurmController("fs3");
            try {
                SiteStatus down = Awaitility.await("fs3 seen down").atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(500)).until(() -> site(client, "fs3"), x -> x.agent().equals("DOWN"));
                System.out.println("fs3 with Slurm's controller stopped: " + down.agentReason());
                // the probe's reason (squeue -u's own words, or its time-out) stays once it is given: the snapshot's
                // commands, failing too, say less ("sinfo --json: Unspecified error")
                SiteStatus probed = Awaitility.await("fs3's reason from the agent's probe").atMost(Duration.ofSeconds(30))
                        .pollInterval(Duration.ofMillis(500)).until(() -> site(client, "fs3"),
                                x -> x.agentReason() != null && x.agentReason().contains("squeue -u "));
                System.out.println("fs3's reason, from the probe: " + probed.agentReason());
                Awaitility.await("the workers on fs3 heard from while Slurm's controller is down")
                        .atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(500))
                        .until(() -> rpc.status().role("worker"), w -> w.size() == 2 && w.stream().allMatch(e ->
                                e.state().equals("RUNNING") && e.lastBeat() != null && e.lastBeat().isAfter(stopped)));
            } finally {
                testbed.startSlurmController("fs3");
            }
            Awaitility.await("fs3 up again").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> site(client, "fs3").agent().equals("UP"));
            awaitPilotsEqualNodes(client, grid, id, 4);
            String gone = workers.get(0).node();
            assertThat(Awaitility.await("the shrink of " + gone).atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500)).until(() -> rpc.shrink(List.of(gone)),
                            r -> !r.released().isEmpty()).released()).containsExactly(gone);
            awaitPilotsEqualNodes(client, grid, id, 3);
            assertThat(rpc.status().events()).noneMatch(e -> e.contains(" lost"));
            client.closeAllocation(id);
            assertThat(runner.runner().awaitEnd(Duration.ofSeconds(20))).isTrue();
            Awaitility.await("no pilot of the instance left in SGE or Slurm").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500)).until(() -> TestScheduler.pilotsNamedFor(grid, id).isEmpty());
        }
    }

    /**
     * A Proactive instance with its master on fs0 (SGE) and its workers on fs3 (Slurm): while its one worker burns
     * CPU above U_max the runner grows onto fs3 by itself, to F_max; once they idle below U_min for t_idle it
     * shrinks back to its initial worker. Pilots equal nodes on both clusters at each step. About 30 s.
     */
    @Test
    void aProactiveInstanceGrowsOnTheSlurmClusterWhileItsWorkersBurnCpuAndShrinksWhenTheyIdle() throws Exception {
        SchedulerClient client = scheduler.client();
        GridConfig grid = GridConfig.load(scheduler.config());
        Path dir = Files.createTempDirectory("koala-slurm-proactive-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Path burn = TestScheduler.nodeDir("koala-slurm-proactive").resolve("burn"); // the nodes' /tmp is their own
        String worker = "while true; do if [ -e " + burn + " ]; then while [ -e " + burn + " ]; do :; done; "
                + "else sleep 0.2; fi; done";
        // CPU is a share of the node's cores, here the machine's two, shared with everything else it runs
        String jdf = "+( &(jobType = framework)(name = slurm-proactive)(role = master)(count = 1)"
                + "(resourceManagerContact = fs0)(executable = /bin/sleep)(arguments = 100000)(provisioning = proactive)"
                + "(fMax = 3)(uMin = 5)(uMax = 10)(tIdle = 3)(samplePeriod = 2))"
                + " ( &(role = orchestrator)(count = 1)(resourceManagerContact = fs0)(executable = /bin/sleep)"
                + "(arguments = 100000) )"
                + " ( &(role = worker)(count = 1)(resourceManagerContact = fs3)(executable = /bin/sh)(arguments = \"-c\" \""
                + worker + "\") )";
        try (RunnerMain.Started runner = scheduler.runner(jdf, scheduler.config(), dir, Duration.ofSeconds(30))) {
            long id = runner.instance();
            try {
                burnAndIdle(client, grid, new RunnerClient(runner.url(), TokenSource.of(runner::token)), id, burn);
            } finally {
                client.closeAllocation(id); // its nodes on fs3 go, whatever happened: the tests after need them
            }
            assertThat(runner.runner().awaitEnd(Duration.ofSeconds(20))).isTrue();
            Awaitility.await("no pilot of the instance left in SGE or Slurm").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(500)).until(() -> TestScheduler.pilotsNamedFor(grid, id).isEmpty());
        } finally {
            Files.deleteIfExists(burn);
        }
    }

    /** The instance's one worker burns CPU: it grows to F_max on fs3; idle again, it shrinks to its initial worker. */
    private static void burnAndIdle(SchedulerClient client, GridConfig grid, RunnerClient rpc, long id, Path burn)
            throws Exception {
        awaitWorkers(rpc, 1);
        awaitPilotsEqualNodes(client, grid, id, 3);

        Files.writeString(burn, "burn");
        List<RunnerMessages.Entity> grown = awaitWorkers(rpc, 3);
        assertThat(grown).extracting(RunnerMessages.Entity::site).containsOnly("fs3");
        assertThat(rpc.status().events()).anySatisfy(e -> assertThat(e).contains("U_max"));
        awaitPilotsEqualNodes(client, grid, id, 5);

        Files.delete(burn);
        awaitWorkers(rpc, 1);
        assertThat(rpc.status().events()).anySatisfy(e -> assertThat(e).contains("U_min"));
        awaitPilotsEqualNodes(client, grid, id, 3);
    }

    /**
     * An MPI world over both clusters: mpi4py's allreduce with 2 ranks on fs3 (Slurm), where mpirun runs, and 2 on
     * fs0 (SGE), run as its owner, mpirun starting its daemons through KOALA's node launchers on both. About 5 s.
     */
    @Test
    void anMpiWorldSpansTheSgeAndTheSlurmCluster() throws Exception {
        String owner = Testbed.USERS.get(0);
        SchedulerClient asOwner = scheduler.asRoot().actingFor(owner);
        String tag = Long.toHexString(System.nanoTime());
        Path home = Path.of("/home", owner);
        Path program = home.resolve("koala-slurm-mpi-" + tag + ".py");
        Files.writeString(program, """
                from mpi4py import MPI
                import socket
                world = MPI.COMM_WORLD
                total = world.allreduce(world.Get_rank())
                print(f"rank {world.Get_rank()} of {world.Get_size()} on {socket.gethostname()}: {total}", flush=True)
                """);
        Files.setOwner(program, program.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(owner));
        Path out = home.resolve("koala-slurm-mpi-" + tag + ".out");
        String component = "(&%s(resourceManagerContact = \"%s\")(count = 2)(executable = \"/usr/bin/python3\")"
                + "(arguments = \"" + program + "\")(stdout = \"" + out + "\")(stderr = \"" + home.resolve(
                "koala-slurm-mpi-" + tag + ".err") + "\")(environment = (OMPI_MCA_mpi_yield_when_idle 1)))";
        // mpirun runs on the first component's first node: in a Slurm job, whose allocation it must not take for the world's
        String jdf = "+" + String.format(component, "(runner = mpi)", "fs3") + String.format(component, "", "fs0");

        JobView job = TestScheduler.submit(asOwner, "mpi-sge-and-slurm", jdf);
        JobView end = TestScheduler.awaitEnd(asOwner, job.id(), Duration.ofSeconds(120));

        assertThat(end.state()).as(end.history().toString()).isEqualTo("FINISHED");
        assertThat(end.nodes()).extracting(NodeView::exitStatus).containsOnly(0);
        List<String> ranks = java.util.regex.Pattern.compile("rank \\d+ of \\d+ on fs[03]-n\\d+: \\d+")
                .matcher(Files.readString(out)).results().map(java.util.regex.MatchResult::group).sorted().toList();
        assertThat(ranks).hasSize(4).allSatisfy(l -> assertThat(l).matches("rank \\d of 4 on fs[03]-n\\d+: 6"));
        assertThat(ranks).extracting(l -> l.replaceFirst(".* on (\\S+):.*", "$1"))
                .containsExactlyInAnyOrderElementsOf(end.nodes().stream().map(NodeView::host).toList());
        GridConfig grid = GridConfig.load(scheduler.config());
        Awaitility.await("no pilot of the MPI job left in SGE or Slurm").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500)).until(() -> TestScheduler.pilotsNamedFor(grid, job.id()).isEmpty());
    }

    private static List<RunnerMessages.Entity> awaitWorkers(RunnerClient rpc, int count) {
        return Awaitility.await(count + " workers running").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(300)).until(() -> rpc.status().role("worker"), w -> w.size() == count
                        && w.stream().allMatch(e -> e.state().equals("RUNNING")));
    }

    /** KOALA's held nodes of {@code id} and its pilots in SGE and Slurm, as many of each. */
    private static void awaitPilotsEqualNodes(SchedulerClient client, GridConfig grid, long id, int nodes) {
        Awaitility.await(nodes + " nodes, a pilot each").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500)).ignoreExceptions().until(() ->
                        client.heldNow(id).nodes().size() == nodes
                                && TestScheduler.pilotsNamedFor(grid, id).size() == nodes);
    }

    /** Two components, one on fs0 that listens and one on fs3 that finds it in KOALA_NODES and connects. */
    private static String exchange(String tag) {
        String listen = "import os, socket\n"
                + "port = 40000 + int(os.environ['KOALA_JOB_ID']) % 20000\n"
                + "s = socket.socket()\n"
                + "s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
                + "s.bind(('', port))\n"
                + "s.listen(1)\n"
                + "s.settimeout(60)\n"
                + "c, _ = s.accept()\n"
                + "print(os.environ['KOALA_SITE'], 'got:', c.recv(100).decode(), flush=True)\n"
                + "c.sendall(('pong from ' + os.environ['KOALA_SITE']).encode())\n"
                + "c.close()\n";
        String connect = "import os, socket, time\n"
                + "peer = [n.split(':') for n in os.environ['KOALA_NODES'].split() if n.startswith('0:')][0]\n"
                + "port = 40000 + int(os.environ['KOALA_JOB_ID']) % 20000\n"
                + "for attempt in range(300):\n"
                + "    try:\n"
                + "        c = socket.create_connection((peer[3], port))\n"
                + "        break\n"
                + "    except OSError:\n"
                + "        time.sleep(0.2)\n"
                + "c.sendall(('ping from ' + os.environ['KOALA_SITE']).encode())\n"
                + "print(os.environ['KOALA_SITE'], 'got:', c.recv(100).decode(), flush=True)\n";
        return "+( &(resourceManagerContact = \"fs0\")(count = 1)(executable = \"/usr/bin/python3\")"
                + "(arguments = \"-c\" \"" + listen + "\")(stdout = \"${HOME}/koala-slurm-" + tag + "-0.out\") )"
                + " ( &(resourceManagerContact = \"fs3\")(count = 1)(executable = \"/usr/bin/python3\")"
                + "(arguments = \"-c\" \"" + connect + "\")(stdout = \"${HOME}/koala-slurm-" + tag + "-1.out\") )";
    }

    private static SiteStatus site(SchedulerClient client, String name) {
        return client.sites().stream().filter(s -> s.site().equals(name)).findFirst().orElseThrow();
    }
}
