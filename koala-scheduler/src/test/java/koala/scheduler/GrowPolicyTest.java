package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.JobView;
import koala.common.json.Json;
import koala.jdf.JobDescription;
import koala.jdf.JobKind;
import koala.placement.Assignment;
import koala.placement.FileLocations;
import koala.placement.FlexibleClusterMinimization;
import koala.placement.GridView;
import koala.placement.SiteView;
import koala.placement.WorstFit;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.state.JobState;
import koala.scheduler.storage.H2Store;
import koala.scheduler.storage.JobRecord;
import org.junit.jupiter.api.Test;

/**
 * A grow is placed by its allocation's placement policy, chosen as a job's is ({@link JobPolicies}): the
 * policy its record names. An allocation's record names the grid's policy for flexible work, Flexible
 * Cluster Minimization — the very policy the grow path used to hard-code — so what the API does is unchanged;
 * an allocation whose record named Worst-Fit would have its grows placed by Worst-Fit, whole on one site.
 */
class GrowPolicyTest {
    private static final InstantSource CLOCK = InstantSource.fixed(Instant.parse("2026-11-25T10:00:00Z"));
    /** Idle fs0 10, fs1 8, fs2 3: the example of Flexible Cluster Minimization's Javadoc. */
    private static final GridView GRID = new GridView(List.of(new SiteView("fs0", 10, 10), new SiteView("fs1", 8, 8),
            new SiteView("fs2", 3, 3)), FileLocations.NONE);

    /**
     * fs0 10, fs1 8, fs2 3 idle: an allocation is kept with flexible-cluster-minimization, and a grow of 12
     * goes over as few sites as possible, emptiest first: 10 on fs0 and 2 on fs1 (fs2, with 3, takes none).
     */
    @Test
    void anAllocationsGrowIsPlacedByTheGridsPolicyForFlexibleWork() {
        try (TestGrid grid = new TestGrid(Map.of("fs0", 10, "fs1", 8, "fs2", 3), Duration.ofSeconds(60))) {
            JobView opened = grid.allocations().open("runner-a", "alice");
            assertThat(opened.policy()).isEqualTo(FlexibleClusterMinimization.NAME);

            GrowResult grown = grid.allocations().grow(opened.id(), new GrowRequest(12, "worker", "/bin/sleep",
                    List.of("60"), Map.of(), null));

            assertThat(grown.granted()).isEqualTo(12);
            Map<String, Long> bySite = grid.store.nodes(opened.id()).stream().collect(java.util.stream.Collectors
                    .groupingBy(NodeClaim::site, java.util.TreeMap::new, java.util.stream.Collectors.counting()));
            assertThat(bySite).containsExactly(Map.entry("fs0", 10L), Map.entry("fs1", 2L));
            assertThat(grid.scheduler.status(opened.id()).history().get(1).reason())
                    .isEqualTo("12 worker nodes: 10 on fs0, 2 on fs1");
        }
    }

    /**
     * The policy comes from the allocation's record, through the code a job's placement uses: on the same
     * grid, 12 nodes by Flexible Cluster Minimization are fs0 10 + fs1 2; by Worst-Fit, which places a
     * flexible component whole, none, since no site has 12 (the largest is fs0, 10), and the refusal is
     * Worst-Fit's reason; 4 nodes go whole to fs0, the site with the most idle, where Flexible Cluster
     * Minimization also puts them.
     */
    @Test
    void theGrowFollowsThePolicyTheAllocationsRecordNames() {
        try (H2Store store = H2Store.inMemory()) {
            JobBook book = new JobBook(store, CLOCK);
            JobPolicies policies = new JobPolicies(book, site -> "grid");
            Job fcm = allocation(book, FlexibleClusterMinimization.NAME);
            Job worstFit = allocation(book, WorstFit.NAME);

            assertThat(GrowPlacement.onIdle(fcm.id(), policies.forGrow(fcm, "worker"), 12, GRID).assignments())
                    .containsExactly(new Assignment(0, "fs0", 10), new Assignment(0, "fs1", 2));
            GrowPlacement.Placing whole = GrowPlacement.onIdle(worstFit.id(), policies.forGrow(worstFit, "worker"), 12,
                    GRID);
            assertThat(whole.assignments()).isEmpty();
            assertThat(new GrowRefusal.NotPlaced(whole.limit()).text()).isEqualTo("component 0 needs 12 nodes on one "
                    + "cluster, more than any cluster has (largest: fs0 with 10)");
            assertThat(GrowPlacement.onIdle(worstFit.id(), policies.forGrow(worstFit, "worker"), 4, GRID).assignments())
                    .containsExactly(new Assignment(0, "fs0", 4));
            assertThat(GrowPlacement.onIdle(fcm.id(), policies.forGrow(fcm, "worker"), 4, GRID).assignments())
                    .containsExactly(new Assignment(0, "fs0", 4));
        }
    }

    /** A flexible job and an allocation that name no policy get the grid's flexible default; a rigid job the grid's. */
    @Test
    void aJobAndAnAllocationNamingNoPolicyGetTheGridsDefaultForTheirKind() {
        assertThat(JobPolicies.name(null, JobKind.FRAMEWORK, WorstFit.NAME)).isEqualTo(FlexibleClusterMinimization.NAME);
        assertThat(JobPolicies.name(null, JobKind.FLEXIBLE, WorstFit.NAME)).isEqualTo(FlexibleClusterMinimization.NAME);
        assertThat(JobPolicies.name(null, JobKind.NON_FIXED, "cluster-minimization")).isEqualTo("cluster-minimization");
        assertThat(JobPolicies.name(" Worst-Fit ", JobKind.FLEXIBLE, null)).isEqualTo(WorstFit.NAME);
    }

    private static Job allocation(JobBook book, String policy) {
        JobDescription empty = new JobDescription("-", "runner", JobKind.FRAMEWORK, null, "high", List.of(), Map.of(), null);
        Job job = new Job(new JobRecord(book.nextId(), "runner", "-", Json.write(empty), Allocations.KIND,
                JobState.RUNNING, policy, "high", 0, 0, null, CLOCK.instant(), "alice"), empty);
        book.add(job);
        return job;
    }
}
