package koala.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import koala.placement.Assignment;
import koala.placement.PlacementPolicies;
import koala.placement.Resources;
import koala.sim.ResourceQueue.Host;
import koala.sim.ResourceQueue.Mode;
import koala.sim.ResourceQueue.Setup;
import koala.sim.ResourceQueue.Site;
import org.junit.jupiter.api.Test;

/**
 * Worked examples on fs0 with host a (4 cores, 8G) and host b (16 cores, 64G, 2 GPUs), and fs1 with
 * host c (8 cores, 16G): 28 cores, 88G and 2 GPUs in all. Worst-Fit; a job placed where it does not fit
 * fails after 60 s and is tried twice in all.
 */
class ResourceQueueTest {
    private static final Resources SMALL = gib(1, 2, 0);
    private static final Resources MEMORY = gib(2, 12, 0);
    private static final Resources GPU = gib(4, 16, 1);
    private static final Resources MPI = gib(2, 4, 0);
    private static final Site FS0 = new Site("fs0", List.of(new Host("fs0-a", gib(4, 8, 0)), new Host("fs0-b", gib(16, 64, 2))));
    private static final Site FS1 = new Site("fs1", List.of(new Host("fs1-c", gib(8, 16, 0))));
    private static final Setup GRID = setup(List.of(FS0, FS1));

    private static Setup setup(List<Site> sites) {
        return new Setup(sites, PlacementPolicies.byName("worst-fit"), Duration.ofSeconds(60), 2, 1);
    }

    private static Resources gib(int cores, int memoryGiB, int gpus) {
        return new Resources(cores, memoryGiB * 1024L, gpus);
    }

    private static ResourceJob job(int id, double at, double runtime, String kind, ResourceJob.Part... parts) {
        return ResourceJob.of(id, at, runtime, kind, List.of(parts));
    }

    private static ResourceJob.Part nodes(int n, Resources per) {
        return new ResourceJob.Part(n, per);
    }

    @Test
    void aUserPinsWhatDoesNotFitEveryHostToTheSiteWhereItFits() {
        // a GPU node fits only b: no site's hosts all fit it, fs0 has the most that do
        assertThat(ResourceQueue.pinFor(GPU, GRID.sites())).isEqualTo("fs0");
        // 12G fits b and c: every host of fs1 fits it
        assertThat(ResourceQueue.pinFor(MEMORY, GRID.sites())).isEqualTo("fs1");
        assertThat(ResourceQueue.pinFor(SMALL, GRID.sites())).isNull();
        // no host has 32 cores: nowhere to pin it
        assertThat(ResourceQueue.pinFor(gib(32, 1, 0), GRID.sites())).isNull();
    }

    /**
     * j1 at 0 s: 1 GPU node, 100 s; j2 at 0 s: 1 node of 2 cores and 12G, 100 s; j3 at 0 s: 2 nodes of 1 core
     * and 2G, 50 s; j4 at 10 s: 2 GPU nodes, 100 s.
     */
    private static final List<ResourceJob> FOUR = List.of(job(1, 0, 100, "gpu", nodes(1, GPU)),
            job(2, 0, 100, "memory", nodes(1, MEMORY)), job(3, 0, 50, "small", nodes(2, SMALL)),
            job(4, 10, 100, "gpu", nodes(2, GPU)));

    @Test
    void resourceAwareNodesShareHostsAndAJobWaitsForTheResourceItLacks() {
        ResourceRun run = ResourceQueue.run(GRID, FOUR, Mode.RESOURCE_AWARE);
        List<ResourceOutcome> o = run.outcomes();
        // j1: only b holds a GPU node (fs0 ranks min(20/4, 72/16, 2/1) = 2, fs1 0); b keeps 12 cores, 48G, 1 GPU
        assertThat(o.get(0).assignments()).containsExactly(new Assignment(0, "fs0", 1, List.of("fs0-b")));
        // j2: fs0 ranks min(16/2, 56/12) = 4 and holds 4 (on b), fs1 ranks 1: b; 10 cores, 36G, 1 GPU left
        assertThat(o.get(1).assignments()).containsExactly(new Assignment(0, "fs0", 1, List.of("fs0-b")));
        // j3: fs0 ranks 14 (cores), fs1 8; cores dominant (1/20 > 2G/72G): the host with the fewest free
        // cores that holds them, a (4 against b's 10), takes both
        assertThat(o.get(2).assignments()).containsExactly(new Assignment(0, "fs0", 2, List.of("fs0-a", "fs0-a")));
        // j4 at 10 s: b has 1 GPU left, so 1 of its 2 nodes fits; it starts when j1 ends at 100 s, ends at 200 s
        assertThat(o.get(3).start()).isEqualTo(Duration.ofSeconds(100));
        assertThat(o.get(3).end()).isEqualTo(Duration.ofSeconds(200));
        assertThat(o.get(3).assignments()).containsExactly(new Assignment(0, "fs0", 2, List.of("fs0-b", "fs0-b")));
        assertThat(run.misfitPlacements()).isZero();
        assertThat(run.neverRan()).isZero();
        // the queue last emptied at 100 s, by when j1, j2 (100 s) and j3 (50 s) had ended: 3 jobs in 1/36 hour
        assertThat(run.lastLeft()).isEqualTo(Duration.ofSeconds(100));
        assertThat(run.jobsPerHour()).isCloseTo(108, within(1e-9));
        // waits 0, 0, 0, 90: mean 22.5, median (2nd of 4) 0, 90th percentile (4th of 4) 90
        assertThat(run.meanWaitSeconds()).isCloseTo(22.5, within(1e-9));
        assertThat(run.waitQuantileSeconds(0.5)).isZero();
        assertThat(run.waitQuantileSeconds(0.9)).isEqualTo(90);
        // over 200 s: cores 4·100 + 2·100 + 2·50 + 8·100 = 1500 of 28·200; GPUs 1·100 + 2·100 = 300 of 2·200;
        // memory (16·100 + 12·100 + 4·50 + 32·100)G = 6200 G·s of 88G·200
        assertThat(run.usedPercent(0)).isCloseTo(100 * 1500 / 5600.0, within(1e-9));
        assertThat(run.usedPercent(1)).isCloseTo(100 * 6200 / 17600.0, within(1e-9));
        assertThat(run.usedPercent(2)).isCloseTo(75, within(1e-9));
        // resource-aware nodes hold what they ask for, no more
        assertThat(run.heldPercent(0)).isCloseTo(run.usedPercent(0), within(1e-9));
    }

    /**
     * Whole hosts: j1 at 0 s, 2 GPU nodes for 100 s, pinned to fs0 (the only site with a GPU host), gets
     * both of its hosts, a and b, whichever SGE gives which node; a has no GPU. j2 at 0 s, 1 node of 1 core
     * for 30 s, then finds fs0 without an idle host and takes c.
     */
    @Test
    void wholeHostsAJobPlacedWhereItDoesNotFitFailsIsTriedAgainAndGivenUp() {
        List<ResourceJob> jobs = List.of(job(1, 0, 100, "gpu", nodes(2, GPU)), job(2, 0, 30, "small", nodes(1, SMALL)));
        ResourceRun run = ResourceQueue.run(GRID, jobs, Mode.WHOLE_HOSTS);
        ResourceOutcome j1 = run.outcomes().get(0);
        ResourceOutcome j2 = run.outcomes().get(1);
        assertThat(j2.assignments()).containsExactly(new Assignment(0, "fs1", 1, List.of("fs1-c")));
        assertThat(j2.end()).isEqualTo(Duration.ofSeconds(30));
        // j1 fails at 60 s, is placed again on a and b, fails at 120 s, and its user gives up (2 tries)
        assertThat(j1.didRun()).isFalse();
        assertThat(j1.failedTries()).isEqualTo(2);
        assertThat(j1.reason()).isEqualTo("given up after 2 tries placed where it did not fit");
        assertThat(run.misfitPlacements()).isEqualTo(2);
        assertThat(run.misfitNodes()).isEqualTo(2);
        assertThat(run.givenUp()).isEqualTo(1);
        assertThat(run.makespan()).isEqualTo(Duration.ofSeconds(120));
        // 1 job ended by 120 s: 30 an hour
        assertThat(run.jobsPerHour()).isCloseTo(30, within(1e-9));
        // j2 held all of c's 8 cores for 30 s and used 1; each try of j1 held a and b whole (20 cores) for 60 s
        assertThat(run.heldPercent(0)).isCloseTo(100 * 240 / (28 * 120.0), within(1e-9));
        assertThat(run.usedPercent(0)).isCloseTo(100 * 30 / (28 * 120.0), within(1e-9));
        assertThat(run.lostPercent(0)).isCloseTo(100 * 2 * 20 * 60 / (28 * 120.0), within(1e-9));

        // by resources both fit at once: j1 on b twice, j2 on a (the fewest free cores that hold it)
        ResourceRun aware = ResourceQueue.run(GRID, jobs, Mode.RESOURCE_AWARE);
        assertThat(aware.outcomes().get(0).assignments()).containsExactly(new Assignment(0, "fs0", 2, List.of("fs0-b", "fs0-b")));
        assertThat(aware.outcomes().get(1).assignments()).containsExactly(new Assignment(0, "fs0", 1, List.of("fs0-a")));
        assertThat(aware.ran()).isEqualTo(2);
        assertThat(aware.misfitPlacements()).isZero();
    }

    /**
     * Slots, on fs1 alone (host c: 8 slots, 16G). j1 at 0 s: 2 MPI nodes of 2 cores and 4G, 100 s; j2 at
     * 0 s: 2 nodes of 2 cores and 12G, 100 s.
     */
    @Test
    void slotsANodeHeldToOneCoreRunsLongerAndMemoryNoSlotReservesRunsOut() {
        Setup fs1 = setup(List.of(FS1));
        List<ResourceJob> jobs = List.of(job(1, 0, 100, "mpi", nodes(2, MPI)), job(2, 0, 100, "memory", nodes(2, MEMORY)));
        ResourceRun run = ResourceQueue.run(fs1, jobs, Mode.SLOTS);
        // j1 takes 2 slots and 8G; its nodes of 2 cores held to one each, it runs 200 s
        assertThat(run.outcomes().get(0).end()).isEqualTo(Duration.ofSeconds(200));
        assertThat(run.outcomes().get(0).assignments()).containsExactly(new Assignment(0, "fs1", 2, List.of("fs1-c", "fs1-c")));
        // j2 gets 2 more slots, but c has 8G left for nodes of 12G: both fail at 60 s, and again at 120 s
        assertThat(run.outcomes().get(1).didRun()).isFalse();
        assertThat(run.misfitPlacements()).isEqualTo(2);
        assertThat(run.misfitNodes()).isEqualTo(4);
        assertThat(run.lastLeft()).isEqualTo(Duration.ofSeconds(120));
        assertThat(run.makespan()).isEqualTo(Duration.ofSeconds(200));
        // held: j1's 2 slots for 200 s; lost: j2's 2 slots for 60 s, twice
        assertThat(run.heldPercent(0)).isCloseTo(100 * 400 / (8 * 200.0), within(1e-9));
        assertThat(run.lostPercent(0)).isCloseTo(100 * 240 / (8 * 200.0), within(1e-9));
        // nothing had ended by 120 s
        assertThat(run.jobsPerHour()).isZero();

        // by resources c holds only 1 node of 12G: j2 can never run, and says so; j1 runs its 100 s
        ResourceRun aware = ResourceQueue.run(fs1, jobs, Mode.RESOURCE_AWARE);
        assertThat(aware.outcomes().get(0).end()).isEqualTo(Duration.ofSeconds(100));
        assertThat(aware.outcomes().get(1).didRun()).isFalse();
        assertThat(aware.outcomes().get(1).reason()).contains("needs 2 nodes of 2 cores and 12G");
        assertThat(aware.neverRan()).isEqualTo(1);
        assertThat(aware.givenUp()).isZero();
        assertThat(aware.misfitPlacements()).isZero();
    }
}
