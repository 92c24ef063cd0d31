package koala.fluent.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The journal's group commit on a disk that takes its time: the first force waits until the test lets
 * it go. Meanwhile the loop hands over 50 more entries, each with an answer, at once; none is let out
 * before its entry is forced, and the 50 cost one force, not 50.
 */
class JournalLineTest {
    private static final Instant T = Instant.parse("2026-11-21T10:00:00Z");

    private final CountDownLatch forcing = new CountDownLatch(1);
    private final CountDownLatch letGo = new CountDownLatch(1);
    private final AtomicInteger forces = new AtomicInteger();
    private final List<String> written = new CopyOnWriteArrayList<>();
    private final List<String> durable = new CopyOnWriteArrayList<>();
    private final ExecutorService writer = JournalLine.thread();

    @AfterEach
    void stop() {
        letGo.countDown();
        writer.shutdownNow();
    }

    @Test
    void entriesHandedOverDuringASlowForceAreForcedTogetherAndNoAnswerLeavesBeforeItsEntry() throws Exception {
        JournalLine line = JournalLine.on(new SlowDisk(), writer);
        List<String> answered = new CopyOnWriteArrayList<>();
        line.append(new JournalEntry.Left(T, "w0"));
        line.then(() -> answered.add(durable.contains("w0") ? "w0" : "early w0"));
        assertThat(forcing.await(5, TimeUnit.SECONDS)).as("the first force is at the disk").isTrue();

        long start = System.nanoTime();
        for (int i = 1; i <= 50; i++) {
            String node = "w" + i;
            line.append(new JournalEntry.Left(T, node));
            line.then(() -> answered.add(durable.contains(node) ? node : "early " + node));
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the loop hands over without waiting for the disk")
                .isLessThan(Duration.ofSeconds(1));
        assertThat(answered).as("nothing answered before it is on disk").isEmpty();

        letGo.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> answered.size() == 51);
        assertThat(answered).as("in the order handed over, each once its entry was forced").containsExactly(
                java.util.stream.IntStream.rangeClosed(0, 50).mapToObj(i -> "w" + i).toArray(String[]::new));
        assertThat(forces.get()).as("one force for w0, one for the 50 handed over meanwhile").isEqualTo(2);
        assertThat(line.sinceCompaction()).isEqualTo(51);
    }

    /** A journal whose first force waits for the test; it records what each force made durable. */
    private final class SlowDisk implements Journal {
        @Override
        public List<JournalEntry> read() {
            return List.of();
        }

        @Override
        public void write(JournalEntry entry) {
            written.add(((JournalEntry.Left) entry).node());
        }

        @Override
        public void force() {
            if (forces.incrementAndGet() == 1) {
                forcing.countDown();
                try {
                    letGo.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            durable.clear();
            durable.addAll(written);
        }

        @Override
        public void compact(JournalEntry.Snapshot snapshot) {
        }

        @Override
        public int sinceCompaction() {
            return written.size();
        }

        @Override
        public void close() {
        }
    }
}
