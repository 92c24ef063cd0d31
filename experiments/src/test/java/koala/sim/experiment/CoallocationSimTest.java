package koala.sim.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import koala.sim.JobSplit;
import koala.sim.MulticlusterQueue;
import koala.sim.MulticlusterQueue.Cluster;
import koala.sim.MulticlusterQueue.Discipline;
import koala.sim.ParallelJob;
import koala.sim.experiment.CoallocationSim.BreakEven;
import koala.sim.experiment.CoallocationSim.Figures;
import koala.sim.experiment.CoallocationSim.Result;
import koala.sim.experiment.CoallocationSim.Settings;
import koala.sim.experiment.CoallocationSim.Slowdown;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CoallocationSimTest {
    private static final MulticlusterQueue.Setup SMALL = new MulticlusterQueue.Setup(List.of(new Cluster("fs0", 4),
            new Cluster("fs1", 4), new Cluster("fs2", 2)), JobSplit.FLEXIBLE, Discipline.FCFS);

    /** Two loads, 1,500 jobs: small enough for a unit test, the defaults otherwise. */
    private static Settings quick() {
        return Settings.defaults().withLoads(List.of(0.3, 0.5)).withJobs(1_500);
    }

    @Test
    void theBreakEvenIsWhereTheCoallocatedMeanResponseReachesTheOneClusterMean() {
        // MulticlusterQueueTest's three jobs on fs0 4, fs1 4, fs2 2: held to one cluster, responses 100, 60, 150 s
        // (j3 waits 50 s for fs1); co-allocated, j3 starts at once on fs1 2 + fs2 2 and responds in 100·f s.
        // The means are equal when 100·f = 150: f = 1.5
        List<ParallelJob> jobs = List.of(ParallelJob.of(1, 0, 3, 100), ParallelJob.of(2, 0, 2, 60),
                ParallelJob.of(3, 10, 4, 100));
        Figures held = new Figures("one cluster", 1, 3, 0, 50 / 3.0, 310 / 3.0, 0, 0, 0, false);
        BreakEven b = CoallocationSim.breakEven(SMALL, jobs, o -> true, held, 4);
        assertThat(b.kind()).isEqualTo(BreakEven.Kind.AT);
        assertThat(b.slowdown()).isCloseTo(1.5, within(CoallocationSim.TOLERANCE));
        assertThat(b.text()).isEqualTo("1.50");
        // a search that stops at 1.4 finds that it still pays there
        assertThat(CoallocationSim.breakEven(SMALL, jobs, o -> true, held, 1.4).text()).isEqualTo("> 1.40");
    }

    @Test
    void whenNoJobNeedsASecondClusterCoallocationNeverBeatsOneCluster() {
        // one 2-node job at a time: held or co-allocated it runs at once on one cluster, same response
        List<ParallelJob> jobs = List.of(ParallelJob.of(1, 0, 2, 100), ParallelJob.of(2, 200, 2, 100));
        Figures held = new Figures("one cluster", 1, 2, 0, 0, 100, 0, 0, 0, false);
        assertThat(CoallocationSim.breakEven(SMALL, jobs, o -> true, held, 4).text()).isEqualTo("none");
    }

    @Test
    void theSameSeedGivesTheSameFiguresAndAnotherSeedOthers() {
        Result once = CoallocationSim.simulate(quick());
        assertThat(CoallocationSim.simulate(quick())).isEqualTo(once);
        assertThat(CoallocationSim.simulate(quick().withSeed(2)).rows()).isNotEqualTo(once.rows());
    }

    @Test
    void everySlowdownGetsItsRunAndMeasuredOnesCanBeGiven() {
        Settings measured = quick().withLoads(List.of(0.5)).withSlowdowns(List.of(new Slowdown("measured fs0+fs2", 1.3)));
        Result r = CoallocationSim.simulate(measured);
        assertThat(r.rows()).hasSize(1);
        Figures f = r.rows().get(0).coallocated().get(0);
        assertThat(f.label()).isEqualTo("measured fs0+fs2");
        assertThat(f.slowdown()).isEqualTo(1.3);
        // the same run as f=1.30 among the defaults' loads: the slowdown alone names it
        Result again = CoallocationSim.simulate(measured.withSlowdowns(List.of(Slowdown.of(1.3))));
        assertThat(again.rows().get(0).coallocated().get(0).meanResponseSeconds()).isEqualTo(f.meanResponseSeconds());
    }

    @Test
    void onTheTestbedsGridCoallocationWithoutSlowdownShortensWaitsAndSlowdownLengthensResponses() {
        Result r = CoallocationSim.simulate(quick());
        for (CoallocationSim.LoadRow row : r.rows()) {
            List<Figures> co = row.coallocated();
            assertThat(co.get(0).meanWaitSeconds()).isLessThan(row.oneCluster().meanWaitSeconds());
            assertThat(co.get(co.size() - 1).meanResponseSeconds()).isGreaterThan(co.get(0).meanResponseSeconds());
            assertThat(row.oneCluster().unrunnable()).isZero(); // sizes up to 16, fs0 has 16
        }
    }

    @Test
    void jobsLargerThanEveryClusterAreCountedApartAndTheMeansCompareTheSameJobs() {
        Settings big = quick().withLoads(List.of(0.3));
        big = new Settings(big.clusters(), big.loads(), big.slowdowns(), 1, 1_000, new koala.sim.ParallelWorkload(
                koala.sim.ParallelWorkload.Sizes.parse("4,8,16,32"), koala.sim.ParallelWorkload.Runtimes.parse(
                "exponential:600")), JobSplit.FLEXIBLE, Discipline.FCFS, 4);
        CoallocationSim.LoadRow row = CoallocationSim.simulate(big).rows().get(0);
        int unrunnable = row.oneCluster().unrunnable();
        assertThat(unrunnable).isBetween(200, 300); // a quarter of 1,000 jobs are of 32 nodes
        assertThat(row.oneCluster().ran()).isEqualTo(1_000 - unrunnable);
        assertThat(row.coallocated().get(0).unrunnable()).isZero(); // 32 nodes is the whole grid
    }

    @Test
    void printsTheTablesAndThePapersConclusionAndWritesCsvAndPng(@TempDir Path dir) throws Exception {
        Result r = CoallocationSim.simulate(quick().withLoads(List.of(0.5)).withSlowdowns(List.of(Slowdown.of(1.25))));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CoallocationSim.print(r, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertThat(text).contains("clusters fs0 16, fs1 8, fs2 8 (32 nodes)", "one cluster", "f=1.25",
                "co-allocation pays while f <", "The paper (Sonmez, Mohamed, Epema, IEEE TPDS 2010) reports");
        CoallocationSim.write(r, dir);
        List<String> csv = Files.readAllLines(dir.resolve("coallocation.csv"));
        assertThat(csv).hasSize(3); // header, one cluster, f=1.25
        assertThat(csv.get(1)).startsWith("0.50,").contains(",one-cluster,");
        assertThat(csv.get(2)).contains(",coallocated,f=1.25,1.2500,");
        assertThat(Files.readAllLines(dir.resolve("coallocation-breakeven.csv")).get(1)).startsWith("0.50,at,");
        assertThat(dir.resolve("coallocation.png")).isNotEmptyFile();
        assertThat(dir.resolve("coallocation-breakeven.png")).isNotEmptyFile();
    }
}
