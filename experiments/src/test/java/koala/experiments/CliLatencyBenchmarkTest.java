package koala.experiments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import koala.grid.GridConfig;
import koala.testbed.TestbedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cli benchmark's arithmetic and command lines, with a launcher and a {@code qsub} that only
 * note their arguments, and a clock that says how long each call took. It runs them through
 * {@code runuser} as the site's account, here the test's own: root only.
 */
class CliLatencyBenchmarkTest {
    @TempDir
    Path dir;

    /** Each call reads the clock twice, at its start and its end: the end is {@code millis} later. */
    private static InstantSource clock(long... millis) {
        Deque<Instant> readings = new ArrayDeque<>();
        Instant now = Instant.parse("2025-01-01T00:00:00Z");
        for (long m : millis) {
            readings.add(now);
            now = now.plusMillis(m);
            readings.add(now);
        }
        return readings::removeFirst;
    }

    private Path script(String name) throws IOException {
        Path script = dir.resolve(name);
        Files.writeString(script, "#!/bin/sh\necho \"$@\" >> " + dir.resolve(name + ".calls") + "\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }

    @Test
    void mediansOfAlternatingCallsTheirRatioAndOneCallForAllFiles() throws IOException {
        assumeTrue("root".equals(System.getProperty("user.name")), "runs its commands through runuser");
        Path launcher = script("koala");
        script("qsub");
        Path grid = Files.writeString(dir.resolve("grid.properties"), "grid.sites = fs0, fs2\n"
                + "site.fs0.sge.cell = fs0\nsite.fs0.sge.bin = " + dir + "\nsite.fs0.agent.user = root\n"
                + "site.fs2.sge.cell = fs2\nsite.fs2.ssh.host = fs2-head\nsite.fs2.ssh.key = /nonexistent\n");
        // warm-up: submit 900, qsub 500 (left out); then submit 300, 420, 330 and qsub 100, 90, 140; 3 files in 600
        InstantSource clock = clock(900, 500, 300, 100, 420, 90, 330, 140, 600);
        java.util.concurrent.atomic.AtomicInteger settled = new java.util.concurrent.atomic.AtomicInteger();

        CliLatencyBenchmark.Result r = new CliLatencyBenchmark(GridConfig.load(grid), null, launcher, clock,
                new PrintStream(OutputStream.nullOutputStream()), settled::incrementAndGet).run(3, 1);

        assertThat(r.site()).isEqualTo("fs0");
        assertThat(settled).as("each timed single call waits for a quiet grid first").hasValue(8);
        assertThat(r.submit()).isEqualTo(330.0);       // median of 300, 420, 330
        assertThat(r.qsub()).isEqualTo(100.0);         // median of 100, 90, 140
        assertThat(r.ratio()).isEqualTo(3.3);
        assertThat(r.batchPerJob()).isEqualTo(200.0);  // 600 ms for 3 files
        assertThat(r.stages()).as("the stand-in printed no stages").isEmpty();
        List<String> submits = Files.readAllLines(dir.resolve("koala.calls"));
        assertThat(submits).hasSize(5);
        assertThat(submits.get(0)).matches("submit --config " + grid + " /root/koala-bench-cli-[0-9a-f]+/one.jdf");
        assertThat(submits.get(4).split(" ")).hasSize(6);
        assertThat(Files.readAllLines(dir.resolve("qsub.calls"))).hasSize(4)
                .allMatch(l -> l.equals("-b y -N bench-qsub -o /dev/null -j y /bin/true"));
    }

    /** A call that started at 0 and ended 200 ms later, with the stamps the command printed (microseconds). */
    @Test
    void theStagesOfACallFromTheStampsItPrinted() {
        Instant start = Instant.parse("2025-01-01T00:00:00Z");
        long t0 = start.getEpochSecond() * 1_000_000;
        String err = "some warning\nkoala-timing launched=" + (t0 + 9_000) + " exec=" + (t0 + 14_500) + " main="
                + (t0 + 64_500) + " sent=" + (t0 + 124_500) + " answered=" + (t0 + 132_000) + " end=" + (t0 + 140_000)
                + "\n";

        var stages = CliLatencyBenchmark.Stage.of(start, start.plusMillis(200), err).orElseThrow();

        assertThat(stages).containsExactly(
                Map.entry(CliLatencyBenchmark.Stage.RUNUSER, 9.0),   // 0 -> launched at 9 ms
                Map.entry(CliLatencyBenchmark.Stage.LAUNCHER, 5.5),  // -> exec at 14.5 ms
                Map.entry(CliLatencyBenchmark.Stage.JVM, 50.0),      // -> main at 64.5 ms
                Map.entry(CliLatencyBenchmark.Stage.PARSE, 60.0),    // -> sent at 124.5 ms
                Map.entry(CliLatencyBenchmark.Stage.ANSWER, 7.5),    // -> answered at 132 ms
                Map.entry(CliLatencyBenchmark.Stage.EXIT, 68.0));    // -> the process ended at 200 ms
        assertThat(CliLatencyBenchmark.Stage.of(start, start, "koala-timing main=1 sent=2\n")).isEmpty();
        assertThat(CliLatencyBenchmark.Stage.of(start, start, "")).isEmpty();
    }

    @Test
    void aRemoteSiteIsRefused() throws IOException {
        Path grid = Files.writeString(dir.resolve("grid.properties"), "grid.sites = fs2\nsite.fs2.sge.cell = fs2\n"
                + "site.fs2.ssh.host = fs2-head\nsite.fs2.ssh.key = /nonexistent\n");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new CliLatencyBenchmark(GridConfig.load(grid), "fs2",
                        dir.resolve("koala"), InstantSource.system(), System.out))
                .isInstanceOf(TestbedException.class)
                .hasMessage("fs2 is a remote site: its users submit on its head node, not where bin/koala runs; "
                        + "choose a local site");
    }
}
