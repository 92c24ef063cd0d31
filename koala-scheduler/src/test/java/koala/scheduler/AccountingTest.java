package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.ShareReport;
import koala.api.scheduler.ShareReport.WorkerActivity;
import koala.api.scheduler.UsageRecord;
import koala.scheduler.accounting.AccountingFile;
import koala.scheduler.accounting.AccountingQuery;
import koala.scheduler.accounting.AccountingWriter;
import koala.scheduler.accounting.UsageSink;
import koala.scheduler.accounting.UsageTotals;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Usage records as worked examples on a clock the test moves: what a job or an instance was granted
 * (each node from its arrival to its end), what it kept busy and the CPU it used, written once when
 * it ends. Sites of one-slot nodes; fs0's nodes have 4 cores unless a test says otherwise.
 */
class AccountingTest {
    private static final Duration SECOND = Duration.ofSeconds(1);
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    /**
     * Two nodes on fs0 arrive at 10:00:01, run their commands at once, and end at 10:01:31 with
     * status 0, their launchers reporting 150 and 210 CPU seconds: 2 × 90 = 180 node-seconds, all
     * busy; on 4-core nodes 720 core-seconds, of which the 360 CPU seconds are 50%.
     */
    @Test
    void aJobOnTwoNodesForNinetySecondsEachHadOneHundredAndEightyNodeSeconds() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60)).cores("fs0", 4)) {
            long job = grid.scheduler.submit("two.jdf", "&(count = 2)(executable = \"/bin/true\")", "alice", null).id();
            grid.tick(SECOND);
            run(grid, job);
            grid.clock.advance(Duration.ofSeconds(90));
            List<NodeClaim> nodes = grid.store.nodes(job);
            grid.nodes().exited(nodes.get(0).id(), nodes.get(0).token(), 0, null, 150.0);
            grid.nodes().exited(nodes.get(1).id(), nodes.get(1).token(), 0, null, 210.0);

            assertThat(grid.accounted).hasSize(1);
            UsageRecord r = grid.accounted.get(0);
            assertThat(r.id()).isEqualTo(job);
            assertThat(r.kind()).isEqualTo("job");
            assertThat(r.name()).isEqualTo("two");
            assertThat(r.owner()).isEqualTo("alice");
            assertThat(r.policy()).isEqualTo("worst-fit");
            assertThat(r.state()).isEqualTo("FINISHED");
            assertThat(r.exitStatus()).isZero();
            assertThat(r.reason()).isEqualTo("every component ended with status 0");
            assertThat(r.submittedAt()).isEqualTo(T0);
            assertThat(r.startedAt()).isEqualTo(T0.plusSeconds(1));
            assertThat(r.endedAt()).isEqualTo(T0.plusSeconds(91));
            assertThat(r.elapsedSeconds()).isEqualTo(90.0);
            assertThat(r.sites()).containsExactly("fs0");
            assertThat(r.nodes()).isEqualTo(2);
            assertThat(r.peakNodes()).isEqualTo(2);
            assertThat(r.nodeSeconds()).isEqualTo(180.0);
            assertThat(r.busyNodeSeconds()).isEqualTo(180.0);
            assertThat(r.busyEfficiency()).isEqualTo(1.0);
            assertThat(r.coreSeconds()).isEqualTo(720.0);
            assertThat(r.cpuSeconds()).isEqualTo(360.0);
            assertThat(r.cpuEfficiency()).isEqualTo(0.5);
            assertThat(r.cpuFrom()).isEqualTo(UsageRecord.FROM_LAUNCHERS);
            assertThat(r.roles()).isNull();
            assertThat(r.grows()).isZero();
            assertThat(r.shrinks()).isZero();
            assertThat(r.reportedNodeSeconds()).isNull();
        }
    }

    /**
     * Slurm's TRES-seconds, on fs0 whose nodes have 2 cores ({@code node.cores}). A job of 2 nodes of 4
     * cores and 8G held 90 s each: 2 × 90 = 180 node-seconds, 180 × 4 = 720 core-seconds (what it asked
     * for, not the site's 2), 180 × 8 = 1440 GB-seconds, no GPU-seconds. A node of 2 GPUs and 512M held
     * 30 s: 30 core-seconds (one core), 30 × 0.5 = 15 GB-seconds, 60 GPU-seconds. A node that asked for
     * nothing held 30 s: a whole node of fs0, 60 core-seconds, and no memory or GPU.
     */
    @Test
    void coresMemoryAndGpusAreChargedAsEachNodeAskedAndANodeThatAskedNothingAsItsSitesNode() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 16), Duration.ofSeconds(60)).cores("fs0", 2)) {
            long big = grid.scheduler.submit("big.jdf", "&(count = 2)(cores = 4)(memory = 8G)(executable = /bin/true)",
                    "alice", null).id();
            long gpu = grid.scheduler.submit("gpu.jdf", "&(count = 1)(gpus = 2)(memory = 512M)(executable = /bin/true)",
                    "alice", null).id();
            long plain = grid.scheduler.submit("plain.jdf", "&(count = 1)(executable = /bin/true)", "bob", null).id();
            grid.tick(SECOND);
            run(grid, big);
            run(grid, gpu);
            run(grid, plain);
            grid.clock.advance(Duration.ofSeconds(30));
            exit(grid, gpu);
            exit(grid, plain);
            grid.clock.advance(Duration.ofSeconds(60));
            exit(grid, big);

            assertThat(grid.accounted).extracting(UsageRecord::id).containsExactly(gpu, plain, big);
            UsageRecord g = grid.accounted.get(0);
            assertThat(List.of(g.nodeSeconds(), g.coreSeconds(), g.memoryGbSeconds(), g.gpuSeconds()))
                    .containsExactly(30.0, 30.0, 15.0, 60.0);
            UsageRecord p = grid.accounted.get(1);
            assertThat(List.of(p.nodeSeconds(), p.coreSeconds(), p.memoryGbSeconds(), p.gpuSeconds()))
                    .containsExactly(30.0, 60.0, 0.0, 0.0);
            UsageRecord b = grid.accounted.get(2);
            assertThat(List.of(b.nodeSeconds(), b.coreSeconds(), b.memoryGbSeconds(), b.gpuSeconds()))
                    .containsExactly(180.0, 720.0, 1440.0, 0.0);
        }
    }

    /**
     * An instance's nodes are its grows, which name no resources: each is charged what its role's
     * component in the framework JDF asks for. Workers of 2 cores and 4G, a master that asks nothing
     * (fs0's nodes have 8 cores). Master held 100 s, two workers 60 s each from 10:00:40:
     *
     * <pre>
     * node-seconds   100 + 2 × 60 = 220
     * core-seconds   100 × 8 + 120 × 2 = 1040
     * GB-seconds     120 × 4 = 480
     * </pre>
     * While it runs, {@code /metrics} shows what it has been granted so far: at 10:01:10, 70 + 2 × 30 =
     * 130 node-seconds, 70 × 8 + 60 × 2 = 680 core-seconds, 60 × 4 = 240 GB-seconds.
     */
    @Test
    void anInstancesNodesAreChargedWhatTheirRoleAsksForInItsFrameworkJdf() {
        String jdf = """
                +( &(jobType = framework)(role = master)(count = 1)(executable = /bin/sleep)(provisioning = ondemand) )
                 ( &(role = orchestrator)(count = 1)(executable = /bin/sleep) )
                 ( &(role = worker)(count = 0)(cores = 2)(memory = 4G)(executable = /bin/sleep) )
                """;
        try (TestGrid grid = new TestGrid(Map.of("fs0", 8), Duration.ofSeconds(60)).cores("fs0", 8)) {
            long id = grid.allocations().open("runner-a", "alice").id();
            grid.frameworks().register(new FrameworkRegistration(id, "sized", "sized.jdf", jdf, "ondemand", Map.of(),
                    "http://127.0.0.1:7601"));
            grid.allocations().grow(id, new GrowRequest(1, "master", "/bin/master", List.of(), Map.of(), null));
            run(grid, id);
            grid.clock.advance(Duration.ofSeconds(40));
            grid.allocations().grow(id, new GrowRequest(2, "worker", "/bin/worker", List.of(), Map.of(), null));
            run(grid, id);
            grid.clock.advance(Duration.ofSeconds(30));
            grid.tick(Duration.ZERO);
            assertThat(grid.scrape()).contains(
                    "koala_instance_node_seconds_total{framework_instance=\"" + id + "\"} 130.0\n",
                    "koala_instance_core_seconds_total{framework_instance=\"" + id + "\"} 680.0\n",
                    "koala_instance_memory_gb_seconds_total{framework_instance=\"" + id + "\"} 240.0\n",
                    "koala_instance_gpu_seconds_total{framework_instance=\"" + id + "\"} 0.0\n");
            grid.clock.advance(Duration.ofSeconds(30));
            grid.allocations().close(id);

            UsageRecord r = only(grid);
            assertThat(List.of(r.nodeSeconds(), r.coreSeconds(), r.memoryGbSeconds(), r.gpuSeconds()))
                    .containsExactly(220.0, 1040.0, 480.0, 0.0);
            grid.tick(Duration.ZERO);
            assertThat(grid.scrape()).doesNotContain("koala_instance_core_seconds_total{")
                    .contains("koala_usage_core_seconds_total{kind=\"instance\",owner=\"alice\"} 1040.0\n");
        }
    }

    /**
     * A grow that says what its nodes need (its runner sends its role's cores, memory and GPUs) is
     * charged that, and its workers' CPU reports are shares of those cores, as their launchers are told
     * them. One worker of 4 cores, 2G and 1 GPU on fs0 (whose nodes have 2 cores), busy at 50% for 20 s:
     * 20 node-seconds, 80 core-seconds, 40 GB-seconds, 20 GPU-seconds; CPU 20 × 50% × 4 = 40 of its 80
     * core-seconds (50%).
     */
    @Test
    void aGrowThatSaysWhatItsNodesNeedIsChargedThatAndItsCpuIsAShareOfThoseCores() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 8), Duration.ofSeconds(60)).cores("fs0", 2)) {
            long id = grid.allocations().open("runner-a", "alice").id();
            String w = grid.allocations().grow(id, new GrowRequest(1, "worker", "/bin/worker", List.of(), Map.of(), null)
                    .withResources(4, 2048L, 1)).nodes().get(0);
            run(grid, id);
            for (int s = 0; s < 20; s++) {
                report(grid, id, busy(w, 50));
                grid.clock.advance(SECOND);
            }
            report(grid, id, busy(w, 50));
            grid.allocations().close(id);

            UsageRecord r = only(grid);
            assertThat(List.of(r.nodeSeconds(), r.coreSeconds(), r.memoryGbSeconds(), r.gpuSeconds()))
                    .containsExactly(20.0, 80.0, 40.0, 20.0);
            assertThat(r.cpuSeconds()).isEqualTo(40.0);
            assertThat(r.cpuEfficiency()).isEqualTo(0.5);
        }
    }

    /**
     * What each owner's records add up to is kept: a scheduler killed and started again counts on
     * from it. Alice's two jobs of one 4-core node for 10 s and Bob's of one 2-GPU node for 10 s, then a
     * restart, then one more of Alice's: alice 3 records, 30 node-seconds, 120 core-seconds; bob 1
     * record, 10 core-seconds, 20 GPU-seconds.
     */
    @Test
    void eachOwnersTotalsOutliveARestart() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 6), Duration.ofSeconds(60))) {
            finished(grid, "alice", "(cores = 4)");
            finished(grid, "alice", "(cores = 4)");
            finished(grid, "bob", "(gpus = 2)");
            grid.scheduler = grid.start();
            grid.recovery().reload(Duration.ofMinutes(10));
            assertThat(grid.scrape()).contains("koala_usage_records_total{kind=\"job\",owner=\"alice\"} 2.0\n");
            finished(grid, "alice", "(cores = 4)");

            assertThat(grid.store.usageTotals()).containsExactly(
                    Map.entry(new UsageTotals.Key("alice", "job"), new UsageTotals(3, 30, 120, 0, 0)),
                    Map.entry(new UsageTotals.Key("bob", "job"), new UsageTotals(1, 10, 10, 0, 20)));
            assertThat(grid.scrape()).contains(
                    "koala_usage_records_total{kind=\"job\",owner=\"alice\"} 3.0\n",
                    "koala_usage_node_seconds_total{kind=\"job\",owner=\"alice\"} 30.0\n",
                    "koala_usage_core_seconds_total{kind=\"job\",owner=\"alice\"} 120.0\n",
                    "koala_usage_core_seconds_total{kind=\"job\",owner=\"bob\"} 10.0\n",
                    "koala_usage_memory_gb_seconds_total{kind=\"job\",owner=\"bob\"} 0.0\n",
                    "koala_usage_gpu_seconds_total{kind=\"job\",owner=\"bob\"} 20.0\n");
        }
    }

    /**
     * A co-allocated job's first node arrives at 10:00:01 and waits for the second, which arrives at
     * 10:00:31; both run until 10:01:31, the second exiting with 3. The wait is granted but not busy:
     * 90 + 60 = 150 node-seconds, 60 + 60 = 120 busy (80%). No launcher reported CPU time: unknown.
     */
    @Test
    void aNodeWaitingForTheRestOfItsJobIsGrantedButNotBusyAndUnreportedCpuIsUnknown() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60)).cores("fs0", 4)) {
            long job = grid.scheduler.submit("two.jdf", "&(count = 2)(executable = \"/bin/true\")", "alice", null).id();
            grid.tick(SECOND);
            List<NodeClaim> nodes = grid.store.nodes(job);
            grid.nodes().arrive(nodes.get(0).id(), nodes.get(0).token(), "fs0-n1");
            grid.clock.advance(Duration.ofSeconds(30));
            grid.nodes().arrive(nodes.get(1).id(), nodes.get(1).token(), "fs0-n2");
            nodes.forEach(n -> grid.nodes().task(n.id(), n.token()));
            grid.clock.advance(Duration.ofSeconds(60));
            grid.nodes().exited(nodes.get(0).id(), nodes.get(0).token(), 0);
            grid.nodes().exited(nodes.get(1).id(), nodes.get(1).token(), 3);

            UsageRecord r = only(grid);
            assertThat(r.state()).isEqualTo("FAILED");
            assertThat(r.exitStatus()).isEqualTo(3);
            assertThat(r.reason()).isEqualTo("node " + job + ".0.1 exited with 3");
            assertThat(r.startedAt()).isEqualTo(T0.plusSeconds(31));
            assertThat(r.nodeSeconds()).isEqualTo(150.0);
            assertThat(r.busyNodeSeconds()).isEqualTo(120.0);
            assertThat(r.busyEfficiency()).isEqualTo(0.8);
            assertThat(r.coreSeconds()).isEqualTo(600.0);
            assertThat(r.cpuSeconds()).isNull();
            assertThat(r.cpuEfficiency()).isNull();
            assertThat(r.cpuFrom()).isNull();
        }
    }

    /**
     * Cancelled at 10:00:21 while one of its two nodes had arrived (at 10:00:01) and the other's pilot
     * still waited in SGE: one node, 20 node-seconds, none busy, no exit status, never started. The
     * site's cores are not configured: core-seconds unknown.
     */
    @Test
    void aJobCancelledWhileClaimingWasGrantedOnlyWhatArrived() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4), Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("two.jdf", "&(count = 2)(executable = \"/bin/true\")", "alice", null).id();
            grid.tick(SECOND);
            NodeClaim first = grid.store.nodes(job).get(0);
            grid.nodes().arrive(first.id(), first.token(), "fs0-n1");
            grid.clock.advance(Duration.ofSeconds(20));
            grid.scheduler.cancel(job);

            UsageRecord r = only(grid);
            assertThat(r.state()).isEqualTo("CANCELLED");
            assertThat(r.exitStatus()).isNull();
            assertThat(r.startedAt()).isNull();
            assertThat(r.elapsedSeconds()).isNull();
            assertThat(r.nodes()).isEqualTo(1);
            assertThat(r.nodeSeconds()).isEqualTo(20.0);
            assertThat(r.busyNodeSeconds()).isZero();
            assertThat(r.busyEfficiency()).isZero();
            assertThat(r.coreSeconds()).isNull();
        }
    }

    /**
     * Instance "demo" (OnDemand) on fs0, 2-core nodes, opened at 10:00:00: its master arrives at once;
     * at 10:00:10 it grows by 3 workers, which arrive. Its runner reports every second: until 10:01:10
     * w1 and w2 busy at 50%, w3 idle; at 10:01:10 it gives w3 back (shrunk after 60 s); then w1 busy
     * at 100%, w2 idle, until it is closed at 10:02:10.
     *
     * <pre>
     * granted    master 130 s; workers 120 + 120 + 60 = 300 s; in all 430 node-seconds (860 core-seconds)
     * busy       60 s × 2 workers + 60 s × 1 = 180 of the workers' 300: 60%
     * CPU        60 s × (50% + 50%) × 2 cores + 60 s × 100% × 2 cores = 240 of the workers' 600 core-seconds: 40%
     * reported   60 s × 3 workers + 60 s × 2 = 300 worker node-seconds: all of them
     * </pre>
     */
    @Test
    void anInstanceGrownToThreeWorkersOneShrunkAfterSixtySeconds() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 8), Duration.ofSeconds(60)).cores("fs0", 2)) {
            long id = grid.allocations().open("runner-a", "alice").id();
            grid.frameworks().register(new FrameworkRegistration(id, "demo", "demo.jdf", "&(...)",
                    "ondemand", Map.of(), "http://127.0.0.1:7601"));
            grid.allocations().grow(id, new GrowRequest(1, "master", "/bin/master", List.of(), Map.of(), null));
            run(grid, id);
            grid.clock.advance(Duration.ofSeconds(10));
            List<String> workers = grid.allocations().grow(id, new GrowRequest(3, "worker", "/bin/worker",
                    List.of(), Map.of(), null)).nodes();
            run(grid, id);
            for (int s = 10; s < 70; s++) {
                report(grid, id, busy(workers.get(0), 50), busy(workers.get(1), 50), idle(workers.get(2)));
                grid.clock.advance(SECOND);
            }
            grid.allocations().release(id, List.of(workers.get(2)), "idle for 60 s");
            for (int s = 70; s < 130; s++) {
                report(grid, id, busy(workers.get(0), 100), idle(workers.get(1)));
                grid.clock.advance(SECOND);
            }
            report(grid, id, busy(workers.get(0), 100), idle(workers.get(1)));
            grid.tick(Duration.ZERO);
            grid.allocations().close(id);

            UsageRecord r = only(grid);
            assertThat(r.kind()).isEqualTo("instance");
            assertThat(r.name()).isEqualTo("demo");
            assertThat(r.policy()).isEqualTo("ondemand");
            assertThat(r.state()).isEqualTo("FINISHED");
            assertThat(r.exitStatus()).isNull();
            assertThat(r.reason()).isEqualTo("closed by its owner");
            assertThat(r.startedAt()).isEqualTo(T0);
            assertThat(r.elapsedSeconds()).isEqualTo(130.0);
            assertThat(r.nodes()).isEqualTo(4);
            assertThat(r.peakNodes()).isEqualTo(4);
            assertThat(r.nodeSeconds()).isEqualTo(430.0);
            assertThat(r.roles()).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "master", new UsageRecord.RoleUsage(1, 130.0), "worker", new UsageRecord.RoleUsage(3, 300.0)));
            assertThat(r.busyNodeSeconds()).isEqualTo(180.0);
            assertThat(r.reportedNodeSeconds()).isEqualTo(300.0);
            assertThat(r.busyEfficiency()).isEqualTo(0.6);
            assertThat(r.coreSeconds()).isEqualTo(860.0);
            assertThat(r.cpuSeconds()).isEqualTo(240.0);
            assertThat(r.cpuEfficiency()).isEqualTo(0.4);
            assertThat(r.cpuFrom()).isEqualTo(UsageRecord.FROM_RUNNER);
            assertThat(r.grows()).isEqualTo(2);
            assertThat(r.grownNodes()).isEqualTo(4);
            assertThat(r.shrinks()).isEqualTo(1);
            assertThat(r.shrunkNodes()).isEqualTo(1);
            assertThat(r.refusedGrows()).isZero();
        }
    }

    /**
     * A runner silent for 30 s (restarting) has not said what its worker did then: that time counts
     * neither busy nor CPU, and the reports cover 20 of the worker's 50 node-seconds. An instance whose
     * runner never reported has unknown busy and CPU figures, not zeros.
     */
    @Test
    void timeNoReportCoversCountsNeitherBusyNorCpuAndNoReportsAtAllIsUnknown() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 8), Duration.ofSeconds(60)).cores("fs0", 2)) {
            long id = grid.allocations().open("runner-a", "alice").id();
            String w = grid.allocations().grow(id, new GrowRequest(1, "worker", "/bin/worker", List.of(),
                    Map.of(), null)).nodes().get(0);
            run(grid, id);
            everySecond(grid, 10, () -> report(grid, id, busy(w, 100))); // 10:00:00 to 10:00:10: 10 s covered
            grid.clock.advance(Duration.ofSeconds(30)); // silent until 10:00:40
            everySecond(grid, 10, () -> report(grid, id, busy(w, 100))); // 10:00:40 to 10:00:50: 10 s more
            grid.allocations().close(id);

            long silent = grid.allocations().open("runner-b", "bob").id();
            grid.allocations().grow(silent, new GrowRequest(1, "worker", "/bin/worker", List.of(), Map.of(),
                    null));
            run(grid, silent);
            grid.clock.advance(Duration.ofSeconds(30));
            grid.allocations().close(silent);

            assertThat(grid.accounted).hasSize(2);
            UsageRecord r = grid.accounted.get(0);
            assertThat(r.name()).as("not registered with the FrameworkJobManager: the runner's name").isEqualTo("runner-a");
            assertThat(r.policy()).isNull();
            assertThat(r.nodeSeconds()).isEqualTo(50.0);
            assertThat(r.reportedNodeSeconds()).isEqualTo(20.0);
            assertThat(r.busyNodeSeconds()).isEqualTo(20.0);
            assertThat(r.busyEfficiency()).isEqualTo(0.4);
            assertThat(r.cpuSeconds()).isEqualTo(40.0);
            assertThat(r.cpuEfficiency()).isEqualTo(0.4);
            UsageRecord none = grid.accounted.get(1);
            assertThat(none.nodeSeconds()).isEqualTo(30.0);
            assertThat(none.reportedNodeSeconds()).isZero();
            assertThat(none.busyNodeSeconds()).isNull();
            assertThat(none.busyEfficiency()).isNull();
            assertThat(none.cpuSeconds()).isNull();
        }
    }

    /**
     * A job placed again after its first pilot arrived and timed out with the rest of its part: the
     * first pilot's 60 s count (the node was KOALA's, waiting), and the node counts once.
     */
    @Test
    void aNodePlacedAgainCountsOnceWithTheTimeEachPilotHeldIt() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 4, "fs1", 3), Duration.ofSeconds(60))) {
            long job = grid.scheduler.submit("two.jdf", "&(count = 2)(executable = \"/bin/true\")", "alice", null).id();
            grid.tick(SECOND); // 10:00:01: both on fs0
            NodeClaim first = grid.store.nodes(job).get(0);
            grid.nodes().arrive(first.id(), first.token(), "fs0-n1");
            grid.tick(Duration.ofSeconds(60)); // 10:01:01: the part is late, placed again on fs1
            assertThat(grid.store.nodes(job)).extracting(NodeClaim::site).containsExactly("fs1", "fs1");
            run(grid, job);
            grid.clock.advance(Duration.ofSeconds(10));
            grid.store.nodes(job).forEach(n -> grid.nodes().exited(n.id(), n.token(), 0));

            UsageRecord r = only(grid);
            assertThat(r.nodes()).isEqualTo(2);
            assertThat(r.peakNodes()).isEqualTo(2);
            assertThat(r.sites()).containsExactly("fs0", "fs1");
            assertThat(r.nodeSeconds()).isEqualTo(60.0 + 2 * 10.0);
            assertThat(r.busyNodeSeconds()).isEqualTo(20.0);
        }
    }

    /**
     * The scheduler is killed after job 1's end was saved but before its record was made, and after
     * job 2's record was made but before the file had it; job 3 was marked as ending when it died, its
     * end not saved. The restarted scheduler makes job 1's record and replays it with job 2's (the
     * writer skips those the file has); job 3 runs on and gets its record when it ends, once.
     */
    @Test
    void aRestartMakesTheRecordsItOwesAndReplaysThoseTheFileMayNotHave() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 6), Duration.ofSeconds(60))) {
            long one = finishedJob(grid);
            grid.sink = s -> UsageSink.NOWHERE; // dies before the file has it
            grid.scheduler = grid.start();
            grid.recovery().reload(Duration.ofMinutes(10));
            long two = finishedJob(grid);
            long three = grid.scheduler.submit("one.jdf", "&(count = 1)(executable = \"/bin/true\")", "alice", null).id();
            grid.tick(SECOND);
            run(grid, three);
            grid.store.saveUsageRecord(one, null); // as if killed between job 1's end and its record
            grid.store.saveUsageRecord(three, null); // as if killed between job 3's mark and its end
            UsageRecord madeBefore = grid.accounted.get(0);

            grid.sink = s -> new UsageSink() { // a writer that acknowledges what it has
                @Override
                public void append(UsageRecord record) {
                    grid.accounted.add(record);
                    s.parts().accounting().written(record.id());
                }

                @Override
                public void replay(List<UsageRecord> records) {
                    grid.replayed.addAll(records);
                    records.forEach(r -> s.parts().accounting().written(r.id()));
                }
            };
            grid.scheduler = grid.start();
            grid.recovery().reload(Duration.ofMinutes(10));
            grid.accounting().recover();

            assertThat(grid.replayed).extracting(UsageRecord::id).containsExactly(one, two);
            assertThat(grid.replayed.get(0)).as("made again from what the store kept").isEqualTo(madeBefore);
            assertThat(grid.store.unwrittenUsageRecords()).containsOnlyKeys(three);

            NodeClaim node = grid.store.nodes(three).get(0);
            grid.nodes().exited(node.id(), node.token(), 0);
            grid.accounting().recover();
            assertThat(grid.accounted).extracting(UsageRecord::id).containsExactly(one, three);
            assertThat(grid.replayed).hasSize(2);
            assertThat(grid.store.unwrittenUsageRecords()).isEmpty();
        }
    }

    /**
     * The whole way, with the real writer and file: job 1's record reaches the file but the scheduler
     * is killed before the acknowledgement reaches its store; job 2 ends after the writer has gone,
     * so its record is only in the store. After the restart the file has each record once.
     */
    @Test
    void aSchedulerKilledAndStartedAgainLosesNoRecordAndWritesNoneTwice(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("accounting.jsonl");
        List<Long> written = new CopyOnWriteArrayList<>();
        try (TestGrid grid = new TestGrid(Map.of("fs0", 6), Duration.ofSeconds(60))) {
            AccountingWriter first = writer(file, written::add); // its acknowledgements die with it
            grid.sink = s -> first;
            grid.scheduler = grid.start();
            long one = finishedJob(grid);
            await().atMost(Duration.ofSeconds(10)).until(() -> written.contains(one));
            first.close();
            long two = finishedJob(grid);
            assertThat(grid.store.unwrittenUsageRecords()).containsOnlyKeys(one, two);

            BlockingQueue<Long> acknowledged = new LinkedBlockingQueue<>();
            AccountingWriter second = writer(file, acknowledged::add);
            grid.sink = s -> second;
            grid.scheduler = grid.start();
            grid.recovery().reload(Duration.ofMinutes(10));
            grid.accounting().recover();
            for (int i = 0; i < 2; i++) { // the acknowledgements come back as events on the loop: here, this thread
                grid.accounting().written(acknowledged.poll(10, TimeUnit.SECONDS));
            }
            second.close();

            assertThat(Files.readAllLines(file)).hasSize(2);
            assertThat(new AccountingFile(file).read(new AccountingQuery(null, null, null, 10)).records())
                    .extracting(UsageRecord::id).containsExactly(one, two);
            assertThat(grid.store.unwrittenUsageRecords()).isEmpty();
        }
    }

    private static AccountingWriter writer(Path file, LongConsumer written) {
        return new AccountingWriter(new AccountingFile(file), Executors.newSingleThreadScheduledExecutor(), written,
                Duration.ofSeconds(30));
    }

    /** Does {@code work} now and after each of the next {@code seconds} seconds. */
    private static void everySecond(TestGrid grid, int seconds, Runnable work) {
        work.run();
        for (int s = 0; s < seconds; s++) {
            grid.clock.advance(SECOND);
            work.run();
        }
    }

    /** A job of one node on fs0 for 10 s, status 0. */
    private static long finishedJob(TestGrid grid) {
        long job = grid.scheduler.submit("one.jdf", "&(count = 1)(executable = \"/bin/true\")", "alice", null).id();
        grid.tick(SECOND);
        run(grid, job);
        grid.clock.advance(Duration.ofSeconds(10));
        NodeClaim node = grid.store.nodes(job).get(0);
        grid.nodes().exited(node.id(), node.token(), 0);
        return job;
    }

    /** A job of {@code owner} of one node asking {@code resources} on fs0 for 10 s, status 0. */
    private static void finished(TestGrid grid, String owner, String resources) {
        long job = grid.scheduler.submit("one.jdf", "&(count = 1)" + resources + "(executable = \"/bin/true\")", owner,
                null).id();
        grid.tick(SECOND);
        run(grid, job);
        grid.clock.advance(Duration.ofSeconds(10));
        exit(grid, job);
    }

    /** Every node of the job exits with status 0. */
    private static void exit(TestGrid grid, long job) {
        grid.store.nodes(job).forEach(n -> grid.nodes().exited(n.id(), n.token(), 0));
    }

    /** Every node of the job whose pilot waits arrives, and its launcher fetches its command. */
    private static void run(TestGrid grid, long job) {
        List<NodeClaim> waiting = grid.store.nodes(job).stream().filter(n -> n.state() == NodeState.SUBMITTED).toList();
        grid.arrive(job);
        waiting.forEach(n -> grid.nodes().task(n.id(), n.token()));
    }

    private static UsageRecord only(TestGrid grid) {
        assertThat(grid.accounted).hasSize(1);
        return grid.accounted.get(0);
    }

    private static WorkerActivity busy(String node, double cpu) {
        return new WorkerActivity(node, true, null, cpu);
    }

    private static WorkerActivity idle(String node) {
        return new WorkerActivity(node, false, T0, 0);
    }

    private static void report(TestGrid grid, long id, WorkerActivity... workers) {
        grid.scheduler.shareReport(id, new ShareReport(List.of(workers), null));
    }
}
