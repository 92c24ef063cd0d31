package koala.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import koala.fluent.Application;
import koala.fluent.FluentJob;
import org.junit.jupiter.api.Test;

/** Compressing a workload in time for the real testbed. */
class TimeScaleTest {

    @Test
    void tenfoldCompressionDividesArrivalsDurationsLoadPeriodsAndLengthKeepingSizesAndCpu() {
        Workload paper = WorkloadFile.parse("w.txt", List.of("# length 600",
                "36.4 b1 b1.1 rl 300 30 80 40", "36.4 b1 b1.2 rl 300 30 60", "100.005 b2 b2.1 rl 300 30 90"), 1);

        Workload fast = new TimeScale(10).compress(paper);

        assertThat(fast.length()).isEqualTo(Duration.ofSeconds(60));
        assertThat(fast.jobs()).extracting(FluentJob::id).containsExactly("b1", "b2");
        // 36.4 s -> 3.64 s; 100.005 s -> 10.0005 s, rounded to the millisecond: 10.001 s
        assertThat(fast.jobs()).extracting(j -> Duration.between(Workload.START, j.submittedAt()).toMillis())
                .containsExactly(3640L, 10001L);
        Application rl = fast.jobs().get(0).apps().get(0);
        assertThat(rl.duration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(rl.loadPeriod()).isEqualTo(Duration.ofSeconds(3));
        assertThat(rl.cpuPercent()).isEqualTo(60);
        assertThat(fast.jobs().get(0).apps()).hasSize(2);
        assertThat(fast.cpuLevels().get("b1.1")).containsExactly(80, 40);
        // the levels now change every 3 s: 80 for 0..3 s, 40 for 3..6 s
        assertThat(fast.cpuAt(rl, Workload.START, Workload.START.plusSeconds(4))).isEqualTo(40);
    }

    @Test
    void theGeneratedWorkloadCompressedIsTheOneGeneratedAtTheCompressedRate() {
        Generators.RlParameters p = Generators.RlParameters.PAPER;
        Workload compressed = new TimeScale(10).compress(Generators.rl(p, Duration.ofHours(1), 7));
        Workload direct = Generators.rl(new Generators.RlParameters(p.batchRate() * 10, p.maxBatch(), p.meanBatch(),
                Duration.ofSeconds(30), Duration.ofSeconds(3), p.cpu()), Duration.ofMinutes(6), 7);
        assertThat(compressed.jobs()).hasSameSizeAs(direct.jobs());
        for (int i = 0; i < direct.jobs().size(); i++) {
            long a = compressed.jobs().get(i).submittedAt().toEpochMilli();
            long b = direct.jobs().get(i).submittedAt().toEpochMilli();
            assertThat(Math.abs(a - b)).as("job %d", i).isLessThanOrEqualTo(1);
            assertThat(compressed.jobs().get(i).apps()).hasSameSizeAs(direct.jobs().get(i).apps());
        }
    }

    @Test
    void anExtendedWorkloadHasTheSameJobsAndALongerRun() {
        Workload w = WorkloadFile.parse("w.txt", List.of("# length 60", "5 b1 b1.1 rl 30 3 50"), 1);
        Workload longer = TimeScale.extended(w, Duration.ofSeconds(38));
        assertThat(longer.length()).isEqualTo(Duration.ofSeconds(98));
        assertThat(longer.jobs()).isEqualTo(w.jobs());
        assertThat(longer.applications()).isEqualTo(1);
    }

    @Test
    void aFactorBelowOneIsRefused() {
        assertThatThrownBy(() -> new TimeScale(0.5)).hasMessageContaining("factor >= 1");
    }
}
