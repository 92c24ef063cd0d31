package koala.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import koala.placement.Assignment;
import koala.sim.MulticlusterQueue.Allocation;
import koala.sim.MulticlusterQueue.Cluster;
import koala.sim.MulticlusterQueue.Discipline;
import koala.sim.MulticlusterQueue.Setup;
import org.junit.jupiter.api.Test;

/**
 * Worked examples on clusters fs0 4 nodes, fs1 4, fs2 2 (10 in all), jobs split by Flexible
 * Cluster Minimization when they may be co-allocated.
 */
class MulticlusterQueueTest {
    private static final List<Cluster> GRID = List.of(new Cluster("fs0", 4), new Cluster("fs1", 4), new Cluster("fs2", 2));
    private static final Setup FCFS = new Setup(GRID, JobSplit.FLEXIBLE, Discipline.FCFS);

    /**
     * j1: 3 nodes at 0 s for 100 s; j2: 2 nodes at 0 s for 60 s; j3: 4 nodes at 10 s for 100 s. j1 takes
     * fs0 (4 idle, as many as fs1, first by name; 1 left), j2 takes fs1 (4 idle; 2 left). At 10 s the grid
     * has fs0 1, fs1 2, fs2 2 idle: 5 nodes, but no cluster has 4.
     */
    private static final List<ParallelJob> THREE = List.of(ParallelJob.of(1, 0, 3, 100), ParallelJob.of(2, 0, 2, 60),
            ParallelJob.of(3, 10, 4, 100));

    private static Duration s(long seconds) {
        return Duration.ofSeconds(seconds);
    }

    @Test
    void heldToOneClusterTheFourNodeJobWaitsForACluster() {
        // j3 waits until j2 ends at 60 s and fs1 has 4 idle: starts 60 s, ends 160 s; wait 50 s, response 150 s
        QueueRun run = MulticlusterQueue.run(FCFS, THREE, Allocation.ONE_CLUSTER, 1.25);
        JobOutcome j3 = run.outcomes().get(2);
        assertThat(j3.start()).isEqualTo(s(60));
        assertThat(j3.end()).isEqualTo(s(160));
        assertThat(j3.assignments()).containsExactly(new Assignment(0, "fs1", 4));
        assertThat(run.outcomes().get(0).assignments()).containsExactly(new Assignment(0, "fs0", 3));
        assertThat(run.outcomes().get(1).assignments()).containsExactly(new Assignment(0, "fs1", 2));
        // waits 0, 0, 50: mean 50/3; responses 100, 60, 150: mean 310/3
        assertThat(run.meanWaitSeconds()).isCloseTo(50 / 3.0, within(1e-9));
        assertThat(run.meanResponseSeconds()).isCloseTo(310 / 3.0, within(1e-9));
        assertThat(run.coallocatedPercent()).isZero();
        assertThat(run.unrunnable()).isZero();
        // node-seconds 3·100 + 2·60 + 4·100 = 820 over 10 nodes × 160 s
        assertThat(run.utilizationPercent()).isCloseTo(100 * 820 / 1600.0, within(1e-9));
    }

    @Test
    void coallocatedTheFourNodeJobStartsAtOnceAndRunsSlowdownTimesLonger() {
        // at 10 s: fs1 2 (as many as fs2, first by name), then fs2 2; 100 s × 1.25 = 125 s: ends 135 s;
        // wait 0, response 125 s
        QueueRun run = MulticlusterQueue.run(FCFS, THREE, Allocation.COALLOCATED, 1.25);
        JobOutcome j3 = run.outcomes().get(2);
        assertThat(j3.start()).isEqualTo(s(10));
        assertThat(j3.end()).isEqualTo(s(135));
        assertThat(j3.assignments()).containsExactly(new Assignment(0, "fs1", 2), new Assignment(0, "fs2", 2));
        assertThat(j3.clusters()).isEqualTo(2);
        // waits 0, 0, 0; responses 100, 60, 125: mean 285/3 = 95 s, below the 103.3 s held to one cluster
        assertThat(run.meanWaitSeconds()).isZero();
        assertThat(run.meanResponseSeconds()).isCloseTo(95, within(1e-9));
        // j1 and j2 fit on one cluster and are not slowed
        assertThat(run.outcomes().get(0).runSeconds()).isEqualTo(100);
        assertThat(run.coallocatedPercent()).isCloseTo(100 / 3.0, within(1e-9));
    }

    @Test
    void aLargeSlowdownMakesCoallocationWorse() {
        // f = 2: j3 runs 200 s from 10 s, response 200 s > 150 s held; mean (100 + 60 + 200) / 3 = 120 > 103.3.
        // The break-even is j3's 100·f = 150: f = 1.5
        double held = MulticlusterQueue.run(FCFS, THREE, Allocation.ONE_CLUSTER, 2).meanResponseSeconds();
        assertThat(MulticlusterQueue.run(FCFS, THREE, Allocation.COALLOCATED, 2).meanResponseSeconds())
                .isCloseTo(120, within(1e-9)).isGreaterThan(held);
        assertThat(MulticlusterQueue.run(FCFS, THREE, Allocation.COALLOCATED, 1.5).meanResponseSeconds())
                .isCloseTo(held, within(1e-9));
    }

    @Test
    void heldToOneClusterAJobLargerThanEveryClusterIsUnrunnableAndBlocksNobody() {
        // j1: 6 nodes at 0 s, more than fs0's or fs1's 4; j2: 1 node at 5 s for 10 s; j3: 11 nodes, more than the grid
        List<ParallelJob> jobs = List.of(ParallelJob.of(1, 0, 6, 100), ParallelJob.of(2, 5, 1, 10),
                ParallelJob.of(3, 6, 11, 10));
        QueueRun held = MulticlusterQueue.run(FCFS, jobs, Allocation.ONE_CLUSTER, 1.25);
        assertThat(held.unrunnable()).isEqualTo(2);
        assertThat(held.ran()).isEqualTo(1);
        assertThat(held.outcomes().get(0).didRun()).isFalse();
        assertThat(held.outcomes().get(0).reason()).contains("component 0 needs 6 nodes on one cluster, more than any "
                + "cluster has (largest: fs0 with 4)");
        assertThat(held.outcomes().get(1).start()).isEqualTo(s(5));
        // co-allocated, the 6-node job runs at once on fs0 4 + fs1 2, 125 s; only the 11-node one cannot run
        QueueRun coallocated = MulticlusterQueue.run(FCFS, jobs, Allocation.COALLOCATED, 1.25);
        assertThat(coallocated.unrunnable()).isEqualTo(1);
        assertThat(coallocated.outcomes().get(0).assignments())
                .containsExactly(new Assignment(0, "fs0", 4), new Assignment(0, "fs1", 2));
        assertThat(coallocated.outcomes().get(0).end()).isEqualTo(s(125));
        assertThat(coallocated.outcomes().get(2).reason()).contains("more than the grid has (10 nodes on 3 clusters)");
    }

    @Test
    void fcfsLetsNoJobOvertakeTheSchedulersQueueDoes() {
        // j1 takes 3 of fs0 until 100 s; j2 (4 nodes, at 1 s) takes fs1 until 101 s; j3 (4 nodes, at 2 s) waits
        // for a cluster of 4; j4 (1 node, at 3 s) fits on fs2 now. FCFS: j4 waits behind j3 until j1 ends at
        // 100 s (fs0 4 idle: j3 there; j4 then to fs2, 2 idle). In order: j4 starts at 3 s.
        List<ParallelJob> jobs = List.of(ParallelJob.of(1, 0, 3, 100), ParallelJob.of(2, 1, 4, 100),
                ParallelJob.of(3, 2, 4, 50), ParallelJob.of(4, 3, 1, 10));
        QueueRun fcfs = MulticlusterQueue.run(FCFS, jobs, Allocation.ONE_CLUSTER, 1);
        assertThat(fcfs.outcomes().get(2).start()).isEqualTo(s(100));
        assertThat(fcfs.outcomes().get(3).start()).isEqualTo(s(100));
        assertThat(fcfs.outcomes().get(3).assignments()).containsExactly(new Assignment(0, "fs2", 1));
        QueueRun inOrder = MulticlusterQueue.run(new Setup(GRID, JobSplit.FLEXIBLE, Discipline.IN_ORDER), jobs,
                Allocation.ONE_CLUSTER, 1);
        assertThat(inOrder.outcomes().get(3).start()).isEqualTo(s(3));
        assertThat(inOrder.outcomes().get(2).start()).isEqualTo(s(100));
    }

    @Test
    void worstFitComponentsSpreadAJobThatOneClusterCouldHold() {
        // worst-fit:2 on an idle grid: a 4-node job is two components of 2; the first to fs0 (4, first by name;
        // 2 left), the second to fs1 (4 > 2): two clusters, so 100 s × 1.5 = 150 s, where
        // flexible-cluster-minimization keeps it on fs0 for 100 s
        List<ParallelJob> one = List.of(ParallelJob.of(1, 0, 4, 100));
        Setup worstFit = new Setup(GRID, JobSplit.parse("worst-fit:2"), Discipline.FCFS);
        JobOutcome wf = MulticlusterQueue.run(worstFit, one, Allocation.COALLOCATED, 1.5).outcomes().get(0);
        assertThat(wf.assignments()).containsExactly(new Assignment(0, "fs0", 2), new Assignment(1, "fs1", 2));
        assertThat(wf.runSeconds()).isEqualTo(150);
        assertThat(MulticlusterQueue.run(FCFS, one, Allocation.COALLOCATED, 1.5).outcomes().get(0).runSeconds())
                .isEqualTo(100);
    }

    @Test
    void theQueueLeftAtTheLastArrivalIsCounted() {
        // j1 (4 nodes) takes fs0 and j2 (4) fs1 until 100 s; j3 and j4 (4 each, at 1 s) wait: 2 in the queue.
        // j3 runs 100..200 s on fs0, j4 100..200 s on fs1
        List<ParallelJob> jobs = List.of(ParallelJob.of(1, 0, 4, 100), ParallelJob.of(2, 0, 4, 100),
                ParallelJob.of(3, 1, 4, 100), ParallelJob.of(4, 1, 4, 100));
        QueueRun run = MulticlusterQueue.run(FCFS, jobs, Allocation.ONE_CLUSTER, 1);
        assertThat(run.waitingAtLastArrival()).isEqualTo(2);
        assertThat(run.makespan()).isEqualTo(s(200));
    }

    @Test
    void jobSplitsAreReadFromTheirShortForm() {
        assertThat(JobSplit.parse("flexible-cluster-minimization")).isEqualTo(JobSplit.FLEXIBLE);
        assertThat(JobSplit.parse("Worst-Fit:4").spec()).isEqualTo("worst-fit:4");
        assertThatThrownBy(() -> JobSplit.parse("worst-fit")).hasMessageContaining("places a flexible job whole");
        assertThatThrownBy(() -> JobSplit.parse("worst-fit:0")).hasMessageContaining("at least 1 node");
        assertThatThrownBy(() -> JobSplit.parse("best-fit:2")).hasMessageContaining("unknown placement policy");
    }
}
