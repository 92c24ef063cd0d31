package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SchedulerClient;
import koala.common.time.Poll;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.testbed.LocalUser;
import koala.testbed.Progress;
import koala.testbed.Testbed;
import koala.testbed.TestbedPlan;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Jobs that ask for cores, memory and GPUs, on a testbed of unequal hosts: fs0 with 12 hosts of 4
 * cores and 8 GiB ({@code fs0-n1}..{@code n12}) and 4 of 16 cores, 64 GiB and 2 GPUs ({@code n13}..
 * {@code n16}), fs1 with 2 hosts of 8 cores and 16 GiB ({@code fs1-n1}, {@code n2}) and 6 of one core and
 * 2 GiB (the example has 8 large ones; two are enough for these tests, and framework instances
 * fill them with two workers). The GPUs are SGE's
 * consumable {@code gpu}: no device is needed to test who gets which. {@code fs0-n13}'s devices are
 * declared {@code 2,5} in the grid configuration ({@code site.fs0.gpuDevices.fs0-n13}), the others are
 * 0 and 1. One scheduler process for the class, killed with SIGKILL and started again once; framework
 * instances share the grid by {@code fair}.
 *
 * <p>Cost: 45-60 s: shaping the testbed (about 18 s) and putting the default back (about 9 s),
 * the scheduler's starts, and jobs of a few seconds each; and about 40 s for a Dask instance.
 */
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class ResourcesIT {
    private static final List<String> SHAPE = List.of("fs0=12x4c/8G+4x16c/64G/2gpu", "fs1=2x8c/16G+6x1c/2G");
    private static final List<String> GPU_HOSTS = List.of("fs0-n13", "fs0-n14", "fs0-n15", "fs0-n16");
    /** The first GPU host's devices as the grid configuration declares them; the others have SGE's 0 and 1. */
    private static final List<Integer> DECLARED = List.of(2, 5);
    private static Testbed testbed;
    private static Path config;
    private static GridConfig grid;
    private static Process scheduler;
    private static SchedulerClient client;

    @BeforeAll
    static void shapeTheTestbed() throws Exception {
        testbed = new Testbed(KoalaHome.dir(), Progress.quiet(), Poll.system());
        testbed.up(TestScheduler.defaultPlan(testbed.status()).withShapes(SHAPE));
        config = TestScheduler.config(Map.of("scheduler.arbitration.policy", "fair",
                "scheduler.arbitration.maxTakeBack", "100", "scheduler.arbitration.round", "2",
                "site.fs0.gpuDevices.fs0-n13", "2,5"));
        grid = GridConfig.load(config);
        scheduler = TestScheduler.process(config);
        client = new SchedulerClient(grid.schedulerAddress()).actingFor(TestScheduler.OWNER);
        // the agents report the shaped hosts before anything is submitted: the JDF is checked against them
        Awaitility.await("the shaped hosts reported").atMost(Duration.ofSeconds(60))
                .until(() -> client.sites().stream().filter(s -> s.site().equals("fs0") || s.site().equals("fs1"))
                        .mapToInt(s -> s.total()).sum() == 112 + 22);
    }

    @AfterAll
    static void putTheDefaultBack() throws Exception {
        if (scheduler != null) {
            TestScheduler.endAll(client, config);
            scheduler.destroy();
            scheduler.waitFor(30, TimeUnit.SECONDS);
        }
        testbed.up(TestScheduler.defaultPlan(testbed.status()));
    }

    /**
     * Component 0 (2 nodes of 8 cores and 12G) fits on fs0's big hosts and fs1's; component 1 (2 nodes
     * of 4 cores, 16G and a GPU) only on fs0's GPU hosts. Each node lands where it fits, its pilot
     * holds the host's slots for its cores in SGE, and it is told its cores and its own GPU.
     */
    @Test
    void aCoAllocatedJobsComponentsLandOnlyWhereEachFits() throws Exception {
        Path dir = TestScheduler.nodeDir("koala-resources-it");
        String report = "echo $KOALA_NODE_ID $(hostname) cores=$KOALA_NODE_CORES memory=$KOALA_NODE_MEMORY_MIB"
                + " gpus=$CUDA_VISIBLE_DEVICES > " + dir + "/$KOALA_NODE_ID.out; sleep 3";
        String jdf = "+(&(count = 2)(cores = 8)(memory = 12G)(executable = \"/bin/sh\")(arguments = \"-c\" \"" + report
                + "\"))(&(count = 2)(cores = 4)(memory = 16G)(gpus = 1)(executable = \"/bin/sh\")(arguments = \"-c\" \""
                + report + "\"))";
        long id = TestScheduler.submit(client, "mixed", jdf).id();
        JobView running = TestScheduler.awaitState(client, id, "RUNNING", Duration.ofSeconds(90));
        // while they run, SGE holds each pilot's cores on one host
        for (NodeView n : running.nodes()) {
            String asked = LocalUser.run(grid.site(n.site()), "qstat", "-j", n.pilot());
            assertThat(asked).as(n.id()).containsPattern("parallel environment:\\s+smp range:\\s+"
                    + (n.component() == 0 ? 8 : 4));
        }
        JobView job = TestScheduler.awaitEnd(client, id, Duration.ofSeconds(90));

        assertThat(job.state()).as(job.history().toString()).isEqualTo("FINISHED");
        for (NodeView n : job.nodes()) {
            String line = Files.readString(dir.resolve(n.id() + ".out")).strip();
            if (n.component() == 0) {
                assertThat(n.host()).as(n.id()).matches("fs0-n1[3-6]|fs1-n[12]");
                // on a GPU host it is told it has none (CUDA_VISIBLE_DEVICES empty), elsewhere nothing is said
                assertThat(line).isEqualTo(n.id() + " " + n.host() + " cores=8 memory=12288 gpus=");
            } else {
                assertThat(n.host()).as(n.id()).isIn(GPU_HOSTS);
                assertThat(n.gpus()).as(n.id()).hasSize(1);
                assertThat(devices(n.host())).as(n.id()).containsAll(n.gpus());
                assertThat(line).isEqualTo(n.id() + " " + n.host() + " cores=4 memory=16384 gpus=" + n.gpus().get(0));
            }
        }
        List<String> devices = job.nodes().stream().filter(n -> n.component() == 1)
                .map(n -> n.host() + ":" + n.gpus()).toList();
        assertThat(devices).as("no device given twice").doesNotHaveDuplicates();
    }

    /**
     * A GPU node runs on the first GPU host (all hold it alike; ties go by name), {@code fs0-n13}, with
     * its first declared device, 2; the scheduler is killed (SIGKILL) and started again, reading the
     * declaration again; a second node sent to the same host (best fit: the host with the fewest GPUs
     * free that holds it) gets the other declared device, 5, never the first node's, which keeps 2.
     */
    @Test
    void gpuNodesNeverShareADeviceAlsoAfterTheSchedulerIsKilled() throws Exception {
        String jdf = "&(resourceManagerContact = \"fs0\")(count = 1)(cores = 2)(gpus = 1)(executable = \"/bin/sleep\")"
                + "(arguments = \"600\")";
        long first = TestScheduler.submit(client, "gpu-1", jdf).id();
        NodeView held = awaitGpus(first);
        assertThat(held.host()).isEqualTo("fs0-n13");
        assertThat(held.gpus()).containsExactly(2);

        scheduler.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        scheduler = TestScheduler.process(config);

        long second = TestScheduler.submit(client, "gpu-2", jdf).id();
        NodeView next = awaitGpus(second);
        try {
            assertThat(next.host()).isEqualTo(held.host());
            assertThat(next.gpus()).containsExactly(5);
            assertThat(client.job(first).nodes().get(0).gpus()).containsExactly(2);
        } finally {
            client.cancel(first);
            client.cancel(second);
        }
    }

    /**
     * A node that claimed 2G runs two processes of 1.2G each: each stays under SGE's limit per process
     * (the claim), together they pass it, so SGE's execution daemon stops the pilot (SIGKILL); the job
     * breaks and its history says why in the user's terms, from the site's accounting. (One process
     * asking more than its claim at once fails its own allocation instead, and the job ends with the
     * program's exit status.)
     */
    @Test
    void aMemoryHogIsStoppedAndTheJobSaysSo() {
        String grow = "python3 -c 'import time; b = bytearray(1200 * 1024 ** 2); time.sleep(60)'";
        long id = TestScheduler.submit(client, "hog", "&(resourceManagerContact = \"fs1\")(count = 1)(memory = 2G)"
                + "(executable = \"/bin/sh\")(arguments = \"-c\" \"" + grow + " & " + grow + "; wait\")").id();
        JobView ended = TestScheduler.awaitEnd(client, id, Duration.ofSeconds(90));
        assertThat(ended.state()).isEqualTo("FAILED");
        JobView said = Awaitility.await("the job says how its node ended").atMost(Duration.ofSeconds(60))
                .until(() -> client.job(id), j -> j.history().stream().anyMatch(t -> t.event().equals("PILOT_ENDED")));
        assertThat(said.history()).filteredOn(t -> t.event().equals("PILOT_ENDED")).singleElement()
                .satisfies(t -> assertThat(t.reason()).startsWith("node " + id + ".0.0 on fs1-n")
                        .contains("exceeded its 2G memory (its pilot claimed 2.13G with the launcher's share and used at most")
                        .endsWith("): stopped by SGE"));
    }

    /**
     * An MPI job of 2 nodes of 5 cores on fs1 (hosts of 8 cores: one node each) runs one world of 10
     * ranks, 5 on each node's host: the host file gives each node as many slots as it has cores.
     */
    @Test
    void anMpiJobRunsARankPerCoreOfEachNode() throws Exception {
        Path dir = TestScheduler.nodeDir("koala-resources-mpi");
        Path program = Files.writeString(dir.resolve("size.py"), """
                from mpi4py import MPI
                import socket
                world = MPI.COMM_WORLD
                print(f"rank {world.Get_rank()} of {world.Get_size()} on {socket.gethostname()}", flush=True)
                """);
        Path out = dir.resolve("ranks.out");
        long id = TestScheduler.submit(client, "ranks", "&(runner = mpi)(resourceManagerContact = \"fs1\")(count = 2)"
                + "(cores = 5)(executable = \"/usr/bin/python3\")(arguments = \"" + program + "\")(stdout = \"" + out
                + "\")(stderr = \"" + dir.resolve("ranks.err") + "\")").id();

        JobView job = TestScheduler.awaitEnd(client, id, Duration.ofSeconds(120));

        assertThat(job.state()).as(job.history().toString()).isEqualTo("FINISHED");
        // the ranks' lines, as mpirun forwards them (two may share a line of the file)
        List<String> hosts = java.util.regex.Pattern.compile("rank \\d+ of 10 on (fs1-n\\d+)").matcher(Files.readString(out))
                .results().map(m -> m.group(1)).sorted().toList();
        List<String> nodeHosts = job.nodes().stream().map(NodeView::host).sorted().toList();
        assertThat(nodeHosts).doesNotHaveDuplicates();
        assertThat(hosts).hasSize(10).containsOnlyElementsOf(nodeHosts);
        assertThat(hosts.stream().filter(nodeHosts.get(0)::equals).count()).isEqualTo(5);
    }

    /**
     * A Dask worker sized by its JDF ({@code python/testbed/dask_sized.py}): a Static instance of one worker
     * of 4 cores and 2G on fs1, made by {@code KoalaCluster(worker_nthreads=4, worker_memory="2G")}. The
     * runner asks for the worker with them, SGE holds 4 of a host's slots for its pilot, and the worker
     * runs 4 threads with a 2 GiB limit, from what its node was given. Cost: about 40 s (the instance's
     * start and end).
     */
    @Test
    void aDaskWorkerIsSizedByItsJdf() throws Exception {
        Path repo = Path.of("").toAbsolutePath().getParent();
        Path dir = TestScheduler.nodeDir("koala-resources-dask");
        ProcessBuilder python = new ProcessBuilder("/usr/bin/python3",
                repo.resolve("python/testbed/dask_sized.py").toString()).redirectErrorStream(true)
                .directory(dir.toFile());
        python.environment().putAll(Map.of("PYTHONPATH", repo.resolve("python").toString(),
                "KOALA_CONFIG", config.toString(), "KOALA_AS", TestScheduler.OWNER,
                "KOALA_BIN", repo.resolve("bin/koala").toString(), "OUT_DIR", dir.toString()));
        Process p = python.start();
        p.getOutputStream().close();
        List<String> lines = new java.util.concurrent.CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> new BufferedReader(new InputStreamReader(p.getInputStream())).lines()
                .forEach(l -> {
                    System.out.println("[dask] " + l);
                    lines.add(l);
                }));
        reader.start();
        // while the instance runs, its worker's pilot holds 4 slots of one fs1 host
        long instance = Long.parseLong(Awaitility.await("the instance's id").atMost(Duration.ofMinutes(5))
                .until(() -> lines.stream().filter(l -> l.startsWith("instance ")).findFirst().orElse(null),
                        l -> l != null).substring("instance ".length()).trim());
        NodeView worker = Awaitility.await("instance " + instance + "'s worker").atMost(Duration.ofMinutes(3))
                .until(() -> client.job(instance).nodes().stream().filter(n -> "worker".equals(n.role())
                        && n.pilot() != null).findFirst().orElse(null), n -> n != null);
        String asked = LocalUser.run(grid.site(worker.site()), "qstat", "-j", worker.pilot());
        Files.writeString(dir.resolve("sge-checked"), worker.pilot() + "\n");
        boolean ended = p.waitFor(5, TimeUnit.MINUTES);
        if (!ended) {
            p.destroyForcibly();
        }
        reader.join(5_000);

        assertThat(ended).as("the Dask check ended within 5 minutes: " + lines).isTrue();
        assertThat(p.exitValue()).as(String.join("\n", lines)).isZero();
        assertThat(worker.site()).isEqualTo("fs1");
        assertThat(asked).as(worker.id()).containsPattern("parallel environment:\\s+smp range:\\s+4\\b");
        assertThat(lines).anyMatch(l -> l.startsWith("ok   the worker runs 4 threads"))
                .anyMatch(l -> l.startsWith("ok   its memory limit is 2 GiB"))
                .anyMatch(l -> l.startsWith("ok   what KOALA gave its node"))
                .anyMatch(l -> l.startsWith("ok   it computes"))
                .anyMatch(l -> l.startsWith("closed instance " + instance));
    }

    /**
     * Two instances of the reference framework share fs1 (22 cores, 44G: 2G a core) by {@code fair}, counted
     * by what their workers ask for. Instance a holds the two large hosts with 2 idle workers of 1 core and
     * 15G: each takes 8 of fs1's 22 grid nodes (15G is 7.5 cores' memory), and no host has 4 cores and 4G
     * left. Instance b's workers ask
     * for 4 cores and 4G (4 nodes each); its framework gets two applications and asks for 2 workers. No
     * host holds one, so a's idle workers above its share (it uses none) are taken back: one worker of a's
     * makes room for two of b's, on its host, so one is ended, not two. Masters and orchestrators are on
     * fs0. Cost: about 15 s (two instances' start and end). Last of the class: the instances' pilots take
     * some seconds to leave SGE, and a test after it would wait for fs1's large hosts.
     */
    @Test
    @org.junit.jupiter.api.Order(Integer.MAX_VALUE)
    void frameworkInstancesShareAFullSiteByWhatTheirWorkersAskFor() throws Exception {
        Path dir = TestScheduler.nodeDir("koala-resources-share");
        try (koala.runner.RunnerMain.Started a = fluent(dir, "a", "static", 2, "(memory = 15G)", "");
             koala.runner.RunnerMain.Started b = fluent(dir, "b", "ondemand", 0, "(cores = 4)(memory = 4G)",
                     "(tIdle = 120)(samplePeriod = 1)")) {
            koala.fluent.client.FluentClient fa = master(a);
            koala.fluent.client.FluentClient fb = master(b);
            Awaitility.await("a's 2 workers joined").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                    .until(() -> fa.status().workers().size() == 2);

            koala.fluent.wire.FluentMessages.JobReply asked = fb.submit(new koala.fluent.wire.FluentMessages.JobRequest(
                    "b1", List.of(FairCell.rl(300_000), FairCell.rl(300_000))));

            assertThat(asked.grow()).startsWith("asked to grow 2, granted 2");
            assertThat(client.framework(a.instance()).history()).filteredOn(t -> t.event().equals("TAKEN_BACK"))
                    .singleElement().satisfies(t -> assertThat(t.reason()).startsWith("idle ")
                            .contains("taken back for " + b.instance()).contains("a worker counts 8"));
            Awaitility.await("b's two applications run on the room one of a's workers left")
                    .atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> fb.job(asked.job()).apps().stream().allMatch(app -> app.state().equals("RUNNING")));
            List<NodeView> bWorkers = client.job(b.instance()).nodes().stream()
                    .filter(n -> "worker".equals(n.role()) && n.host() != null).toList();
            assertThat(bWorkers).hasSize(2).extracting(NodeView::host).containsOnly(bWorkers.get(0).host());
            // the runner's own count: the master's token changed when the worker was taken back
            assertThat(new koala.api.runner.RunnerClient(a.url(), koala.api.runner.TokenSource.of(a::token)).status()
                    .role("worker")).hasSize(1);
            // once its runner reports both busy (each second), b's share is its 8 nodes: 2 of its workers
            Awaitility.await("b's share, its workers busy").atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                    .until(() -> client.framework(b.instance()).share(), share -> share.uses() == 2 && share.share() == 2);
        }
    }

    /**
     * An instance of the reference framework with its workers on fs1, asking for {@code perWorker} each,
     * and its master and orchestrator on fs0.
     */
    private static koala.runner.RunnerMain.Started fluent(Path dir, String name, String policy, int workers,
                                                          String perWorker, String settings) {
        String jdf = new koala.fluent.client.FluentJdf("it-resources-" + name, policy, workers, 2,
                "(weight = 1)" + settings, 4, "fs0", dir, null, List.of(), 0).text()
                .replace(" ( &(role = orchestrator)\n", " ( &(role = orchestrator)\n    (resourceManagerContact = fs0)\n")
                .replace(" ( &(role = worker)\n", " ( &(role = worker)\n    (resourceManagerContact = fs1)\n    "
                        + perWorker + "\n");
        return TestScheduler.runner(jdf, config, client.base(), dir, Duration.ofSeconds(10));
    }

    private static koala.fluent.client.FluentClient master(koala.runner.RunnerMain.Started instance) {
        return koala.fluent.client.FluentClient.serving(client, instance.instance(), instance::token,
                Duration.ofSeconds(60));
    }

    /** A GPU host's devices: those declared for it, else SGE's 0 and 1. */
    private static List<Integer> devices(String host) {
        return host.equals(GPU_HOSTS.get(0)) ? DECLARED : List.of(0, 1);
    }

    private static NodeView awaitGpus(long job) {
        return Awaitility.await("job " + job + "'s node given its GPU").atMost(Duration.ofSeconds(90))
                .until(() -> client.job(job).nodes().stream().filter(n -> n.gpus() != null).findFirst().orElse(null),
                        n -> n != null);
    }

}
