package koala.fluent.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.stream.IntStream;
import koala.fluent.wire.FluentMessages.Lines;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A word count's reader suspended and resumed on its master's order, on a real file. 12 lines of
 * "w1 ... w12" words (line i holds "line" and "w" + i: 2 words), 3 mappers: batches of 12 / 3 = 4
 * lines, 3 batches, then the end. The run lasts a day, so the executor's next batch is 8 hours off
 * and never comes during the test: each batch is sent by start, resume or step, on the test's thread.
 */
class ReaderSuspensionTest {
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();

    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    void aSuspendedReaderStopsAtABatchBoundaryKeepsItsPositionAndTheCountsAndGoesOnWhenResumed() throws Exception {
        Path file = dir.resolve("text.txt");
        Files.write(file, IntStream.rangeClosed(1, 12).mapToObj(i -> "line w" + i).toList());
        List<Integer> to = new ArrayList<>();
        List<Lines> sent = new ArrayList<>();
        Map<String, Long> counted = new HashMap<>();
        WordCount.Reader reader = new WordCount.Reader("swc-1", file, Duration.ofDays(1), 3, (m, lines) -> {
            to.add(m);
            sent.add(lines);
            lines.lines().forEach(l -> Words.count(l, counted)); // what the mappers count, together
        });

        reader.start(executor, e -> { throw new AssertionError(e); });
        assertThat(reader.position()).isEqualTo(1);
        assertThat(sent.get(0).lines()).containsExactly("line w1", "line w2", "line w3", "line w4");

        reader.suspend();
        assertThat(reader.step()).as("suspended: nothing is sent").isFalse();
        assertThat(reader.isSuspended()).isTrue();
        // the state a suspension keeps: 1 batch of 3 read, 4 lines counted (8 words), no line cut in two
        assertThat(reader.position()).isEqualTo(1);
        assertThat(counted.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(8);
        assertThat(counted.get("line")).isEqualTo(4);

        reader.resume(executor);
        assertThat(reader.position()).isEqualTo(2);
        assertThat(sent.get(1).lines()).containsExactly("line w5", "line w6", "line w7", "line w8");
        assertThat(reader.step()).isTrue();
        assertThat(reader.step()).as("the end, to every mapper").isFalse();

        assertThat(to).containsExactly(0, 1, 2, 0, 1, 2);
        assertThat(sent.subList(3, 6)).allMatch(Lines::end);
        // every line once, in order, as without the suspension: 24 words, "line" 12 times
        assertThat(counted.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(24);
        assertThat(counted.get("line")).isEqualTo(12);
        assertThat(counted.get("w12")).isEqualTo(1);
    }

    @Test
    void resumingAReaderThatWasNotSuspendedSendsNothingMore() throws Exception {
        Path file = dir.resolve("text.txt");
        Files.write(file, List.of("a b", "c d", "e f"));
        List<Lines> sent = new ArrayList<>();
        WordCount.Reader reader = new WordCount.Reader("swc-2", file, Duration.ofDays(1), 1, (m, lines) -> sent.add(lines));

        reader.start(executor, e -> { throw new AssertionError(e); });
        reader.resume(executor);

        assertThat(sent).hasSize(1);
        assertThat(reader.position()).isEqualTo(1);
    }
}
