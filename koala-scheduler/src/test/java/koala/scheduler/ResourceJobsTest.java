package koala.scheduler;

import static koala.scheduler.TestGrid.host;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.NodeTask;
import koala.api.site.PilotNeeds;
import koala.scheduler.claiming.NodeClaim;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Jobs that ask for cores, memory and GPUs on a grid of unequal hosts, whose agents report them:
 * fs0 has two small hosts (fs0-n1, fs0-n2: 4 cores, 8 GiB) and a GPU host (fs0-n3: 16 cores,
 * 64 GiB, 2 GPUs); fs1 has four middle hosts (fs1-n1 to fs1-n4: 8 cores, 16 GiB).
 */
class ResourceJobsTest {
    private final TestGrid grid = new TestGrid(Map.of("fs0", 24, "fs1", 32), Duration.ofSeconds(60))
            .hosts("fs0", host("fs0-n1", 4, 8, 0), host("fs0-n2", 4, 8, 0), host("fs0-n3", 16, 64, 2))
            .hosts("fs1", host("fs1-n1", 8, 16, 0), host("fs1-n2", 8, 16, 0), host("fs1-n3", 8, 16, 0),
                    host("fs1-n4", 8, 16, 0));

    @AfterEach
    void close() {
        grid.close();
    }

    /**
     * Component 0 (one node of 4 cores, 32G and a GPU) fits only on fs0-n3; component 1 (2 nodes of
     * 8 cores and 12G) only on fs1's hosts or fs0-n3. Worst-Fit places the larger component 1 first,
     * on the site whose free resources pooled hold most such nodes: fs1 (32 cores and 64G: 4) against
     * fs0 (24 cores and 80G: 3); its nodes go to fs1's first two hosts (all fit alike, the tie broken
     * by name). Component 0 then goes to fs0, the only site that holds it.
     */
    @Test
    void eachNodeGoesToAHostWhereItFitsAndItsPilotAsksSgeForWhatItNeeds() {
        long job = grid.scheduler.submit("mixed.jdf", "+( &(count = 1)(executable = /bin/true)(cores = 4)(memory = 32G)"
                + "(gpus = 1)(maxWallTime = 10) )( &(count = 2)(executable = /bin/true)(cores = 8)(memory = 12G) )",
                "alice", null).id();
        grid.tick(Duration.ofSeconds(1));

        Map<String, String> hosts = new java.util.TreeMap<>();
        grid.store.nodes(job).forEach(n -> hosts.put(n.id(), n.host()));
        assertThat(hosts).containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of("1.0.0", "fs0-n3", "1.1.0", "fs1-n1",
                "1.1.1", "fs1-n2")));
        // 12G and the launcher's 128M; 32G and 128M, for 10 minutes and the minute's grace
        assertThat(grid.needs.get("1.1.0")).isEqualTo(new PilotNeeds(8, 12416, 0, null, "fs1-n1", null));
        assertThat(grid.needs.get("1.0.0")).isEqualTo(new PilotNeeds(4, 32896, 1, Duration.ofSeconds(660), "fs0-n3", null));
    }

    /**
     * fs1-n3 and fs1-n4 are missing from fs1's snapshot for a while (their execds registering again after a
     * restart): fs1 is seen with 16 of its 32 cores. A job of three 8-core nodes pinned to fs1 is not refused
     * for that — the information service saw fs1 whole within the last 10 minutes — it waits; one of five
     * such nodes, more than fs1 ever held, is refused, naming the 4 fs1's hosts hold at their fullest.
     */
    @Test
    void aSiteSeenSmallerForAWhileIsJudgedAtItsFullestAtSubmit() {
        grid.keepFullest("fs1");
        grid.hosts("fs1", host("fs1-n1", 8, 16, 0), host("fs1-n2", 8, 16, 0));

        long job = grid.scheduler.submit("three.jdf", "&(count = 3)(executable = /bin/true)(cores = 8)"
                + "(resourceManagerContact = fs1)", "alice", null).id();
        grid.tick(Duration.ofSeconds(1));
        assertThat(grid.store.nodes(job)).isEmpty();
        assertThatThrownBy(() -> grid.scheduler.submit("five.jdf", "&(count = 5)(executable = /bin/true)(cores = 8)"
                + "(resourceManagerContact = fs1)", "alice", null))
                .hasMessageContaining("count 5: the hosts of fs1 hold at most 4 nodes of 8 cores each");
    }

    /**
     * Two jobs of one GPU node each land on fs0-n3, the only GPU host, and get its two devices, one
     * each. A scheduler restarted on the same store (a kill -9) gives each the same device again,
     * and a third GPU node there waits rather than share one.
     */
    @Test
    void gpuNodesNeverShareADeviceAlsoAfterARestart() {
        String jdf = "&(count = 1)(executable = /usr/bin/nvidia-smi)(cores = 2)(gpus = 1)";
        long first = runOn(jdf);
        long second = runOn(jdf);
        assertThat(devices(first)).isEqualTo("0");
        assertThat(devices(second)).isEqualTo("1");

        grid.scheduler = grid.start();
        grid.recovery().reload(Duration.ofDays(1));

        assertThat(devices(first)).isEqualTo("0");
        assertThat(devices(second)).isEqualTo("1");
        assertThat(grid.store.nodes(first).get(0).gpus()).containsExactly(0);
        // fs0-n3's two GPUs are booked: a third waits for one, it is not placed over them
        long third = grid.scheduler.submit("gpu.jdf", jdf, "bob", null).id();
        grid.tick(Duration.ofSeconds(1));
        assertThat(grid.store.nodes(third)).isEmpty();
        assertThat(grid.scheduler.status(third).waitingBecause()).contains("GPU");
    }

    /**
     * fs0-n3's devices are declared 2,5 ({@code site.fs0.gpuDevices.fs0-n3 = 2,5}), as many as SGE's
     * {@code gpu=2}: its two GPU nodes get device 2 and device 5, never 0 or 1, and keep them across a
     * restart; a third waits.
     */
    @Test
    void aHostsDeclaredDevicesAreTheOnesItsNodesGet() {
        grid.gpuDevices = Map.of("fs0", Map.of("fs0-n3", List.of(2, 5)));
        grid.scheduler = grid.start();
        String jdf = "&(count = 1)(executable = /usr/bin/nvidia-smi)(cores = 2)(gpus = 1)";
        long first = runOn(jdf);
        long second = runOn(jdf);
        assertThat(devices(first)).isEqualTo("2");
        assertThat(devices(second)).isEqualTo("5");

        grid.scheduler = grid.start();
        grid.recovery().reload(Duration.ofDays(1));

        assertThat(devices(first)).isEqualTo("2");
        assertThat(grid.store.nodes(second).get(0).gpus()).containsExactly(5);
        long third = grid.scheduler.submit("gpu.jdf", jdf, "bob", null).id();
        grid.tick(Duration.ofSeconds(1));
        assertThat(grid.store.nodes(third)).isEmpty();
    }

    /**
     * {@code site.fs0.gpuDevices.fs0-n3 = 1,2,3} names 3 devices where SGE counts 2, none of them held: the scheduler
     * does not start, and says which key, which host and both figures.
     */
    @Test
    void aDeclarationThatDisagreesWithSgesCountStopsTheStart() {
        grid.gpuDevices = Map.of("fs0", Map.of("fs0-n3", List.of(1, 2, 3)));

        assertThatThrownBy(grid::start).isInstanceOf(koala.grid.ConfigException.class)
                .hasMessage("site.fs0.gpuDevices.fs0-n3 = 1,2,3 names 3 GPU device(s), but SGE counts 2 on fs0-n3 "
                        + "(complex_values gpu=2): declare as many devices as SGE counts on the host (or correct its gpu "
                        + "complex in SGE), so that no node is handed a device that is not there");
    }

    /**
     * A count that changes after the start (the admin made fs0-n3 {@code gpu=3} in SGE, its declaration
     * still 2,5) stops nothing, and two snapshots that show it may be the agent's skew (a job starting
     * between its qhost and its qstat): the host keeps its GPUs. The third in a row shows a lasting
     * disagreement: the host is seen with no GPUs, so a GPU job is refused as on a grid without GPUs
     * rather than handed a device that may not be there, and {@code koala sites} counts none; once they
     * agree again, a GPU node runs on device 2.
     */
    @Test
    void aCountThatDisagreesInThreeSnapshotsInARowLeavesTheHostsGpusUnusedWhileItLasts() {
        grid.gpuDevices = Map.of("fs0", Map.of("fs0-n3", List.of(2, 5)));
        grid.scheduler = grid.start();
        grid.hosts("fs0", host("fs0-n1", 4, 8, 0), host("fs0-n2", 4, 8, 0), host("fs0-n3", 16, 64, 3));
        String jdf = "&(count = 1)(executable = /usr/bin/nvidia-smi)(cores = 2)(gpus = 1)";
        for (int snapshot = 1; snapshot <= 2; snapshot++) {
            grid.snapshotAt = java.time.Instant.EPOCH.plusSeconds(snapshot * 2L);
            assertThat(fs0Gpus()).as("snapshot %d", snapshot).isEqualTo(3);
        }

        grid.snapshotAt = java.time.Instant.EPOCH.plusSeconds(6);
        assertThat(fs0Gpus()).isZero();
        assertThatThrownBy(() -> grid.scheduler.submit("gpu.jdf", jdf, "alice", null))
                .hasMessageContaining("needs 1 GPU on one host; no host of fs0 or fs1 has one");

        grid.hosts("fs0", host("fs0-n1", 4, 8, 0), host("fs0-n2", 4, 8, 0), host("fs0-n3", 16, 64, 2));
        long job = runOn(jdf);
        assertThat(devices(job)).isEqualTo("2");
    }

    /**
     * The agent reads fs0-n3's count as 1 for one snapshot (a skew: SGE booked a starting pilot's GPU
     * before qstat lists it): a GPU node is still handed a declared device, 2, not made to wait.
     */
    @Test
    void aCountOffForOneSnapshotStillHandsOutTheDeclaredDevices() {
        grid.gpuDevices = Map.of("fs0", Map.of("fs0-n3", List.of(2, 5)));
        grid.scheduler = grid.start();
        String jdf = "&(count = 1)(executable = /usr/bin/nvidia-smi)(cores = 2)(gpus = 1)";
        long job = grid.scheduler.submit("gpu.jdf", jdf, "alice", null).id();
        grid.tick(Duration.ofSeconds(1));
        grid.hosts("fs0", host("fs0-n1", 4, 8, 0), host("fs0-n2", 4, 8, 0), new koala.api.site.HostInfo("fs0-n3",
                "lx-amd64", 16, 0.0, "64G", "0", new koala.api.site.HostResources(16, 16, 65536L, 65536L,
                koala.api.site.HostResources.MemorySource.CONSUMABLE, 1, 0)));
        grid.snapshotAt = java.time.Instant.EPOCH.plusSeconds(2);
        grid.arrive(job);

        assertThat(devices(job)).isEqualTo("2");
    }

    /**
     * At the start a disagreement on a host whose GPUs are held (fs0-n3 reads 3, one held) may be such a
     * skew: it does not stop the start, it is left to the snapshots that follow.
     */
    @Test
    void aBusyHostsDisagreementAtTheStartIsLeftToTheSnapshotsThatFollow() {
        grid.gpuDevices = Map.of("fs0", Map.of("fs0-n3", List.of(2, 5)));
        grid.hosts("fs0", host("fs0-n1", 4, 8, 0), host("fs0-n2", 4, 8, 0), new koala.api.site.HostInfo("fs0-n3",
                "lx-amd64", 16, 0.0, "64G", "0", new koala.api.site.HostResources(16, 16, 65536L, 65536L,
                koala.api.site.HostResources.MemorySource.CONSUMABLE, 3, 2)));

        grid.scheduler = grid.start();

        assertThat(fs0Gpus()).isEqualTo(3);
    }

    private int fs0Gpus() {
        return grid.scheduler.sites().stream().filter(s -> s.site().equals("fs0")).findFirst().orElseThrow()
                .resources().gpus();
    }

    @Test
    void eachNodeIsToldItsCoresMemoryAndGpusAndAnMpiJobRunsARankPerCore() {
        long job = runOn("&(runner = mpi)(count = 2)(executable = /usr/bin/python3)(cores = 8)(memory = 4G)");
        NodeClaim head = grid.store.nodes(job).get(0);
        NodeTask task = grid.nodes().task(head.id(), head.token());
        // fs1 holds 4 such nodes, fs0 3 (24 cores): on fs1's first two hosts, 8 ranks each
        assertThat(task.environment()).containsEntry("KOALA_NODE_CORES", "8").containsEntry("KOALA_NODE_MEMORY_MIB", "4096")
                .containsEntry("KOALA_NODE_GPUS", "0").doesNotContainKey("CUDA_VISIBLE_DEVICES");
        assertThat(task.mpiHosts()).hasSize(16).containsOnly("fs1-n1", "fs1-n2");
    }

    /**
     * A pilot claims the node's memory with the launcher's 128M beside it, at least 512M in all; a node
     * that asks none claims its site's least memory per core where the site books memory, the launcher's
     * share within it (here 2048M: fs0's small hosts have 8G over 4 cores, so 2 cores claim 4096M, and two
     * such nodes fill a host, 8192M, as placement counts its 4 cores), and nothing where it does not. Its
     * wall time is the component's and a minute's grace.
     */
    @Test
    void aPilotClaimsItsMemoryWithTheLaunchersShare() {
        assertThat(new PilotClaim(new koala.placement.Resources(8, 12288, 0), null, 0).needs(null, null))
                .isEqualTo(new PilotNeeds(8, 12416, 0, null, null, null));
        assertThat(new PilotClaim(new koala.placement.Resources(1, 100, 0), null, 0).needs(null, null))
                .isEqualTo(new PilotNeeds(1, 512, 0, null, null, null));
        assertThat(new PilotClaim(new koala.placement.Resources(2, 0, 1), Duration.ofMinutes(5),
                grid.scheduler.memoryPerCore("fs0")).needs("fs0-n3", "alice"))
                .isEqualTo(new PilotNeeds(2, 4096, 1, Duration.ofSeconds(360), "fs0-n3", "alice"));
        assertThat(new PilotClaim(new koala.placement.Resources(1, 0, 0), null, 256).needs(null, null))
                .as("the least a pilot claims, where a core's share is less").isEqualTo(new PilotNeeds(1, 512, 0, null,
                        null, null));
        assertThat(PilotClaim.NODE.needs(null, null)).isEqualTo(PilotNeeds.NODE);
        assertThat(grid.scheduler.memoryPerCore("fs0")).isEqualTo(2048);
    }

    /** How a lost node's pilot ended, as the job's history says it. */
    @Test
    void aNodeStoppedForItsMemorySaysTheMemoryItAskedFor() {
        String jdf = "&(count = 1)(executable = /bin/true)(cores = 2)(memory = 2G)";
        koala.jdf.JobDescription held = koala.jdf.JdfParser.parse("hog.jdf", jdf, koala.jdf.ClusterCatalog.NONE);
        NodeClaim node = grid.store.nodes(runOn(jdf)).get(0);
        koala.api.site.PilotStatus stopped = new koala.api.site.PilotStatus("41", "fs1", "p", koala.api.site.PilotState.FAILED,
                null, "exceeded its 2.13G memory (max 2.25G): stopped by SGE", null, null,
                new koala.api.site.MemoryUse(2176L, 2304L, true));
        koala.api.site.PilotStatus killed = new koala.api.site.PilotStatus("41", "fs1", "p", koala.api.site.PilotState.FAILED,
                null, "killed by signal (SIGKILL)", null, null);

        assertThat(SiteHosts.howItEnded(held, node, stopped)).isEqualTo("exceeded its 2G memory (its pilot claimed "
                + "2.13G with the launcher's share and used at most 2.25G): stopped by SGE");
        assertThat(SiteHosts.howItEnded(held, node, killed)).isEqualTo("killed by signal (SIGKILL)");
    }

    @Test
    void aNodeLargerThanEveryHostIsRefusedAtSubmitNamingTheLargestHost() {
        assertThatThrownBy(() -> grid.scheduler.submit("big.jdf", "&(count = 1)(executable = /bin/true)(memory = 128G)",
                "alice", null))
                .isInstanceOf(koala.jdf.JdfException.class)
                .hasMessageContaining("128G").hasMessageContaining("64G").hasMessageContaining("fs0-n3");
        assertThat(grid.store.jobs()).isEmpty();
    }

    /**
     * An instance's grow of 6 workers of 8 cores and 12G each: fs1's four hosts hold one each and fs0's
     * GPU host two (fs0-n3: 16 cores, 64G), 6 in all, so all 6 are granted, each on a host where it fits,
     * its pilot claiming 8 slots there; a seventh is refused: no host has room for one more such node,
     * although 8 single cores are still idle on fs0's small hosts.
     */
    @Test
    void anInstanceGrowsByWorkersOfItsRolesSizeHostByHost() {
        long id = grid.allocations().open("runner-a", "alice").id();
        koala.api.scheduler.GrowRequest workers = new koala.api.scheduler.GrowRequest(6, "worker", "/bin/worker",
                List.of(), Map.of(), null).withResources(8, 12288L, null);

        List<String> granted = grid.allocations().grow(id, workers).nodes();
        koala.api.scheduler.GrowResult more = grid.allocations().grow(id, workers.withNodes(1));

        assertThat(granted).hasSize(6);
        Map<String, Long> perHost = grid.store.nodes(id).stream().collect(java.util.stream.Collectors.groupingBy(
                NodeClaim::host, java.util.TreeMap::new, java.util.stream.Collectors.counting()));
        assertThat(perHost).containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of("fs0-n3", 2L, "fs1-n1", 1L,
                "fs1-n2", 1L, "fs1-n3", 1L, "fs1-n4", 1L)));
        assertThat(more.nodes()).isEmpty();
        assertThat(grid.needs.get(granted.get(0))).isEqualTo(new PilotNeeds(8, 12416, 0, null, "fs1-n1", null));
    }

    private long runOn(String jdf) {
        long job = grid.scheduler.submit("job.jdf", jdf, "alice", null).id();
        grid.tick(Duration.ofSeconds(1));
        grid.arrive(job);
        return job;
    }

    /** The CUDA_VISIBLE_DEVICES the job's one node is told. */
    private String devices(long job) {
        NodeClaim node = grid.store.nodes(job).get(0);
        return grid.nodes().task(node.id(), node.token()).environment().get("CUDA_VISIBLE_DEVICES");
    }
}
