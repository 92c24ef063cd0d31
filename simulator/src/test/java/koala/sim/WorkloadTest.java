package koala.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import koala.fluent.Application;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Workload files, the generators, and virtual time. */
class WorkloadTest {

    @Test
    void aFileGroupsLinesIntoJobsAndCarriesEachRlsCpuLevels() {
        Workload w = WorkloadFile.parse("w.txt", List.of("# length 600", "# a comment", "",
                "12.5 b1 b1.1 rl 300 30 80 40", "12.5 b1 b1.2 rl 300 30", "40 b2 b2.1 swc 600 2 30"), 3);
        assertThat(w.jobs()).extracting(j -> j.id() + "@" + j.submittedAt()).containsExactly(
                "b1@" + Workload.START.plusMillis(12500), "b2@" + Workload.START.plusSeconds(40));
        Application rl = w.jobs().get(0).apps().get(0);
        assertThat(rl.cpuPercent()).isEqualTo(60);
        // levels 80, 40 cycle every 30 s: 80 at 0..30 s, 40 at 30..60 s, 80 again at 60 s
        assertThat(w.cpuAt(rl, Workload.START, Workload.START.plusSeconds(45))).isEqualTo(40);
        assertThat(w.cpuAt(rl, Workload.START, Workload.START.plusSeconds(60))).isEqualTo(80);
        assertThat(w.cpuSeconds(rl, Workload.START, Workload.START.plusSeconds(45))).isCloseTo(80 * 30 + 40 * 15, within(1e-9));
        assertThat(w.cpuLevels().get("b1.2")).hasSize(10);
        assertThat(java.util.Arrays.stream(w.cpuLevels().get("b1.2")).boxed().toList()).allSatisfy(l -> assertThat(l).isBetween(50.0, 100.0));
        assertThat(w.jobs().get(1).apps().get(0).components()).isEqualTo(6);
    }

    @Test
    void errorsNameTheFileAndLine() {
        assertThatThrownBy(() -> WorkloadFile.parse("w.txt", List.of("# length 600", "1 b1 x rl soon 30"), 1))
                .hasMessage("w.txt:2: 'soon' is not a number of seconds");
        assertThatThrownBy(() -> WorkloadFile.parse("w.txt", List.of("# length 600", "5 b1 x rl 300 30", "2 b2 y rl 300 30"), 1))
                .hasMessage("w.txt:3: job b2 at 2 s arrives before b1");
        assertThatThrownBy(() -> WorkloadFile.parse("w.txt", List.of("1 b1 x vm 300 30"), 1))
                .hasMessage("w.txt:1: 'vm' is not an application kind: rl or swc");
        assertThatThrownBy(() -> WorkloadFile.parse("w.txt", List.of("1 b1 x rl 300 30"), 1))
                .hasMessage("w.txt: no '# length SECONDS' line before the jobs");
    }

    @Test
    void aWrittenWorkloadReadsBackTheSame(@TempDir Path dir) {
        Workload w = Generators.rl(Generators.RlParameters.PAPER.withCpu(CpuProfile.parse("constant:90")),
                Duration.ofHours(1), 5);
        Path file = dir.resolve("w.txt");
        WorkloadFile.write(w, file);
        Workload back = WorkloadFile.read(file, 99);
        assertThat(back.jobs()).isEqualTo(w.jobs());
        assertThat(back.length()).isEqualTo(w.length());
        assertThat(Files.exists(file)).isTrue();
    }

    @Test
    void wRlBatchSizesAreGeometricOnOneToTenWithMeanTwoAndAHalf() {
        Generators.TruncatedGeometric sizes = Generators.TruncatedGeometric.withMean(10, 2.5);
        assertThat(Generators.TruncatedGeometric.meanOf(0.3886, 10)).isCloseTo(2.5, within(0.001));
        Random random = new Random(1);
        long sum = 0;
        for (int i = 0; i < 100_000; i++) {
            int k = sizes.draw(random);
            assertThat(k).isBetween(1, 10);
            sum += k;
        }
        assertThat(sum / 100_000.0).isCloseTo(2.5, within(0.02));
        assertThat(Generators.RlParameters.PAPER.offeredLoad()).isCloseTo(20.85, within(1e-9));
    }

    @Test
    void theSameSeedGivesTheSameWorkload() {
        Workload a = Generators.rl(Generators.RlParameters.PAPER, Duration.ofHours(3), 11);
        Workload b = Generators.rl(Generators.RlParameters.PAPER, Duration.ofHours(3), 11);
        assertThat(a.jobs()).isEqualTo(b.jobs());
        assertThat(a.jobs()).isNotEqualTo(Generators.rl(Generators.RlParameters.PAPER, Duration.ofHours(3), 12).jobs());
        Workload swc = Generators.swc(0.01, Duration.ofSeconds(600), 20, Duration.ofHours(3), 1);
        assertThat(swc.jobs()).allSatisfy(j -> assertThat(j.apps()).allSatisfy(x -> assertThat(x.isRl()).isFalse()));
    }

    @Test
    void eventsRunInTimeOrderAndTiesInTheOrderTheyWereScheduled() {
        EventQueue q = new EventQueue(Workload.START);
        List<String> seen = new ArrayList<>();
        q.at(Workload.START.plusSeconds(5), () -> seen.add("b"));
        q.at(Workload.START.plusSeconds(1), () -> {
            seen.add("a");
            q.after(Duration.ofSeconds(4), () -> seen.add("c"));
        });
        q.at(Workload.START.plusSeconds(9), () -> seen.add("late"));
        q.runUntil(Workload.START.plusSeconds(9));
        assertThat(seen).containsExactly("a", "b", "c");
        assertThat(q.instant()).isEqualTo(Instant.parse("2014-05-01T00:00:09Z"));
        assertThat(q.processed()).isEqualTo(3);
    }
}
