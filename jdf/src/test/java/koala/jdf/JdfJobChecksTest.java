package koala.jdf;

import static koala.jdf.Jdf.errors;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The job as a whole, and against the grid's clusters (fs0: 16 nodes, fs1 and fs2: 8). */
class JdfJobChecksTest {
    @Test
    void everyComponentOfARigidJobNeedsAnExecutable() {
        assertThat(errors("+( &(count = 2) )\n ( &(executable = /bin/true) )\n ( &(arguments = x) )")).containsExactly(
                "job.jdf:1:4: executable: missing; every component needs the absolute path of its program",
                "job.jdf:3:4: executable: missing; every component needs the absolute path of its program");
    }

    @Test
    void missingAttributesAreNotReportedWhenTheSyntaxIsBroken() {
        assertThat(errors("&(executable /bin/true)")).containsExactly(
                "job.jdf:1:14: executable: relation without '=': write (executable = value)");
    }

    @Test
    void jobChecksWaitUntilEveryAttributeNameIsKnown() {
        assertThat(errors("&(joType = flexible)(count = 24)(exectable = /bin/true)")).containsExactly(
                "job.jdf:1:3: unknown attribute 'joType'; did you mean 'jobType'?",
                "job.jdf:1:34: unknown attribute 'exectable'; did you mean 'executable'?");
    }

    @Test
    void aFixedComponentNamesAClusterOfTheGrid() {
        assertThat(errors("&(executable = /bin/true)(resourceManagerContact = fs9)")).containsExactly(
                "job.jdf:1:52: resourceManagerContact: no cluster 'fs9' (clusters: fs0, fs1, fs2)");
    }

    @Test
    void aComponentLargerThanAnyClusterCanNeverBePlaced() {
        assertThat(errors("&(executable = /bin/true)(count = 40)")).containsExactly(
                "job.jdf:1:35: count 40 is more than any cluster has (largest: fs0 with 16 nodes)");
        assertThat(Jdf.parse("&(executable = /bin/true)(count = 16)").totalNodes()).isEqualTo(16);
    }

    @Test
    void theLargestClusterOnATieIsTheFirstByName() {
        ClusterCatalog even = new ClusterCatalog(Map.of("b", 4, "a", 4, "c", 1));
        assertThat(errors("&(executable = /bin/true)(count = 5)", even)).containsExactly(
                "job.jdf:1:35: count 5 is more than any cluster has (largest: a with 4 nodes)");
    }

    @Test
    void aFixedComponentFitsInItsOwnCluster() {
        assertThat(errors("&(executable = /bin/true)(count = 10)(resourceManagerContact = fs1)")).containsExactly(
                "job.jdf:1:35: count 10 is more than cluster fs1 has (8 nodes)");
    }

    @Test
    void componentsPinnedToOneClusterFitInItTogether() {
        assertThat(errors("""
                +( &(executable = /bin/true)(count = 6)(resourceManagerContact = fs1) )
                 ( &(executable = /bin/true)(count = 6)(resourceManagerContact = fs1) )
                """)).containsExactly("job.jdf:2:38: the components pinned to fs1 need 12 nodes together; fs1 has 8 nodes");
    }

    /**
     * fs2's nodes are on its own private network, fs0's and fs1's on the grid's: an MPI job pinned to
     * fs0 and fs2 could never start (its world must reach itself), so it is refused where fs2 is named;
     * pinned to fs0 and fs1, or with its other component left to KOALA, it is a job like any other.
     */
    @Test
    void anMpiJobPinnedToClustersOnTwoNetworksCanNeverRun() {
        assertThat(errors("""
                +( &(runner = mpi)(executable = /bin/true)(count = 2)(resourceManagerContact = fs0) )
                 ( &(executable = /bin/true)(count = 2)(resourceManagerContact = fs1) )
                 ( &(executable = /bin/true)(count = 2)(resourceManagerContact = fs2) )
                """)).containsExactly("job.jdf:3:66: runner = mpi: component 3 is pinned to fs2 on fs2's private "
                + "network, component 1 to fs0 on network grid (the grid's own): the nodes of one MPI world must "
                + "reach each other, so its components stay on one network and this job could never start; pin "
                + "them to clusters of one network, or leave KOALA to choose");
        assertThat(Jdf.parse("""
                +( &(runner = mpi)(executable = /bin/true)(count = 2)(resourceManagerContact = fs0) )
                 ( &(executable = /bin/true)(count = 2)(resourceManagerContact = fs1) )
                 ( &(executable = /bin/true)(count = 2) )
                """).mpi()).isTrue();
        assertThat(Jdf.parse("""
                +( &(executable = /bin/true)(count = 2)(resourceManagerContact = fs0) )
                 ( &(executable = /bin/true)(count = 2)(resourceManagerContact = fs2) )
                """).mpi()).as("not an MPI job: its components need not reach each other").isFalse();
        assertThat(errors("""
                +( &(runner = mpi)(executable = /bin/true)(count = 2)(resourceManagerContact = fs0) )
                 ( &(executable = /bin/true)(count = 2)(resourceManagerContact = fs2) )
                """, new ClusterCatalog(Map.of("fs0", 16, "fs2", 8)).withNetworks(Map.of("fs0", "grid", "fs2", "fs2"))))
                .hasSize(1);
    }

    @Test
    void theWholeJobFitsInTheGrid() {
        assertThat(errors("""
                +( &(executable = /bin/true)(count = 16) )
                 ( &(executable = /bin/true)(count = 16) )
                 ( &(executable = /bin/true)(count = 1) )
                """)).containsExactly("job.jdf:1:4: the job's 33 nodes are more than the grid has (32 nodes on 3 clusters)");
    }

    @Test
    void aFlexibleJobIsCheckedAgainstTheWholeGrid() {
        assertThat(Jdf.parse("&(jobType = flexible)(executable = /bin/true)(count = 32)").totalNodes()).isEqualTo(32);
        assertThat(errors("&(jobType = flexible)(executable = /bin/true)(count = 33)")).containsExactly(
                "job.jdf:1:55: count 33 is more than the grid has (32 nodes on 3 clusters)");
    }

    @Test
    void aFlexibleJobHasOneComponentAndNamesNoCluster() {
        assertThat(errors("""
                +( &(jobType = flexible)(executable = /bin/true)(count = 4)(resourceManagerContact = fs0) )
                 ( &(executable = /bin/true) )
                """)).containsExactly(
                "job.jdf:1:61: resourceManagerContact: a flexible job names no cluster; KOALA splits it over clusters",
                "job.jdf:2:4: a flexible job has one component (KOALA splits its count over clusters); "
                        + "this is component 2 of 2");
    }

    @Test
    void flexibleClusterMinimizationPlacesFlexibleJobsOnly() {
        assertThat(errors("&(executable = /bin/true)(placement = flexible-cluster-minimization)")).containsExactly(
                "job.jdf:1:39: placement: flexible-cluster-minimization places flexible jobs only (jobType = flexible)");
    }

    @Test
    void aFrameworkJobHasOneMasterOfOneNodeAndAnOrchestrator() {
        assertThat(errors("+(&(jobType = framework)(role = worker))(&(count = 2))")).containsExactly(
                "job.jdf:1:42: role: missing; each component of a framework job is its master, orchestrators or workers");
        assertThat(errors("+(&(jobType = framework)(role = worker)(count = 0))")).containsExactly(
                "job.jdf:1:3: a framework job needs one master component (role = master)",
                "job.jdf:1:3: a framework job needs at least one orchestrator component (role = orchestrator)");
        assertThat(errors("""
                +( &(jobType = framework)(role = master)(count = 2) )
                 ( &(role = orchestrator) )
                 ( &(role = master) )
                """)).containsExactly(
                "job.jdf:1:50: count: the master is one node, not 2",
                "job.jdf:3:13: role: a framework job has one master; the first is at 1:4");
    }

    @Test
    void onlyFrameworkWorkersMayHaveNoNodes() {
        assertThat(errors("+(&(jobType = framework)(role = master))(&(role = orchestrator)(count = 0))")).containsExactly(
                "job.jdf:1:73: count: '0' is not a positive whole number");
    }

    @Test
    void frameworkSettingsAgreeWithEachOther() {
        assertThat(errors("""
                +( &(jobType = framework)(role = master)(fMax = 3)(uMin = 50)(uMax = 50)(tIdle = 60)(tIdleFactor = 2) )
                 ( &(role = orchestrator) )
                 ( &(role = worker)(count = 4) )
                """)).containsExactly(
                "job.jdf:1:49: fMax: 3 is fewer than the 4 workers the job starts with",
                "job.jdf:1:70: uMax: 50 must be above uMin (50)",
                "job.jdf:1:86: tIdleFactor: give tIdle (seconds) or tIdleFactor (times the grow time), not both");
    }

    @Test
    void aFrameworkJobTakesNoRunner() {
        assertThat(errors("+( &(jobType = framework)(runner = mpi)(role = master)(executable = /bin/true) )"
                + "( &(role = orchestrator)(executable = /bin/true) )")).containsExactly(
                "job.jdf:1:27: runner: a framework job's entities are started by its framework runner; 'runner' is "
                        + "for rigid and flexible jobs");
    }
}
