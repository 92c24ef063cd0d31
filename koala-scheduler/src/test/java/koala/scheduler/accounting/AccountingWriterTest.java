package koala.scheduler.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import koala.api.scheduler.AccountingView;
import koala.api.scheduler.UsageRecord;
import koala.common.json.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The accounting file's writer: records appended once, forced to disk and acknowledged; a scheduler
 * killed and started again replays what its store kept, and the writer skips what the file has.
 */
class AccountingWriterTest {
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    @TempDir
    Path dir;

    private final List<Long> acknowledged = new CopyOnWriteArrayList<>();
    private final List<AccountingWriter> writers = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        writers.forEach(AccountingWriter::close);
    }

    static UsageRecord record(long id, String owner, Instant ended) {
        return new UsageRecord(id, UsageRecord.JOB, "job-" + id, owner, "worst-fit", "FINISHED", 0, "done",
                ended.minusSeconds(100), ended.minusSeconds(90), ended, 90.0, List.of("fs0"), 2, 2, 180.0, 180.0,
                null, 1.0, 720.0, null, null, null, null, 0, 0, 0, 0, 0);
    }

    private AccountingWriter writer(Path file, Duration retryAfter) {
        AccountingWriter w = new AccountingWriter(new AccountingFile(file), Executors.newSingleThreadScheduledExecutor(),
                acknowledged::add, retryAfter);
        writers.add(w);
        return w;
    }

    private static List<Long> ids(Path file) throws IOException {
        List<Long> ids = new java.util.ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            ids.add(Json.mapper().readTree(line).path("id").asLong());
        }
        return ids;
    }

    @Test
    void recordsAreAppendedAsJsonLinesToAPrivateFileAndAcknowledged() throws IOException {
        Path file = dir.resolve("var/lib/koala/accounting.jsonl");
        AccountingWriter w = writer(file, Duration.ofSeconds(30));

        w.append(record(1, "alice", T0));
        w.append(record(2, "bob", T0.plusSeconds(60)));

        await().atMost(Duration.ofSeconds(10)).until(() -> acknowledged.size() == 2);
        assertThat(acknowledged).containsExactly(1L, 2L);
        assertThat(ids(file)).containsExactly(1L, 2L);
        assertThat(Files.readAllLines(file).get(0)).startsWith("{\"id\":1,\"kind\":\"job\",\"name\":\"job-1\","
                + "\"owner\":\"alice\"").contains("\"cpuSeconds\":null");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
    }

    /**
     * Killed after job 2's line was forced to disk but before its acknowledgement reached the store,
     * and before job 3's was written: the store replays both after the restart. Job 2 is in the file
     * already and is not written again; job 3 is written; both are acknowledged.
     */
    @Test
    void aRestartReplaysWhatTheStoreKeptWithoutWritingARecordTwice() throws IOException {
        Path file = dir.resolve("accounting.jsonl");
        AccountingWriter first = writer(file, Duration.ofSeconds(30));
        first.append(record(1, "alice", T0));
        first.append(record(2, "alice", T0.plusSeconds(10)));
        await().atMost(Duration.ofSeconds(10)).until(() -> acknowledged.size() == 2);
        first.close(); // killed: job 2's acknowledgement, say, was lost with it
        acknowledged.clear();

        AccountingWriter second = writer(file, Duration.ofSeconds(30));
        second.replay(List.of(record(2, "alice", T0.plusSeconds(10)), record(3, "bob", T0.plusSeconds(20))));

        await().atMost(Duration.ofSeconds(10)).until(() -> acknowledged.size() == 2);
        assertThat(acknowledged).containsExactly(2L, 3L);
        assertThat(ids(file)).containsExactly(1L, 2L, 3L);
    }

    /** A record cut short by a crash mid-write is dropped before the next append and written whole again. */
    @Test
    void aRecordCutShortAtTheEndIsDroppedAndWrittenAgainWhole() throws IOException {
        Path file = dir.resolve("accounting.jsonl");
        AccountingWriter first = writer(file, Duration.ofSeconds(30));
        first.append(record(1, "alice", T0));
        await().atMost(Duration.ofSeconds(10)).until(() -> acknowledged.size() == 1);
        Files.writeString(file, "{\"id\":2,\"kind\":\"jo", StandardOpenOption.APPEND);
        assertThat(new AccountingFile(file).read(new AccountingQuery(null, null, null, 10)).records())
                .as("a reader never sees the part").extracting(UsageRecord::id).containsExactly(1L);

        writer(file, Duration.ofSeconds(30)).replay(List.of(record(2, "alice", T0.plusSeconds(10))));

        await().atMost(Duration.ofSeconds(10)).until(() -> acknowledged.size() == 2);
        assertThat(ids(file)).containsExactly(1L, 2L);
        assertThat(Files.readString(file)).endsWith("}\n");
    }

    /**
     * The file cannot be written (its directory's place is taken by a file): the failure is logged,
     * nothing is acknowledged, and the records are written once the way is clear, in their order.
     */
    @Test
    void aFailedWriteIsTriedAgainAndNothingIsAcknowledgedUntilItIsWritten() throws IOException {
        Path blocked = Files.writeString(dir.resolve("logs"), "not a directory");
        Path file = blocked.resolve("accounting.jsonl");
        AccountingWriter w = writer(file, Duration.ofMillis(200));
        w.append(record(1, "alice", T0));
        w.append(record(2, "alice", T0));

        await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(5)).until(acknowledged::isEmpty);
        Files.delete(blocked);

        await().atMost(Duration.ofSeconds(10)).until(() -> acknowledged.size() == 2);
        assertThat(ids(file)).containsExactly(1L, 2L);
    }

    /** A file moved away (rotated) is followed: the next record starts a new file. */
    @Test
    void aRotatedFileIsFollowed() throws IOException {
        Path file = dir.resolve("accounting.jsonl");
        AccountingWriter w = writer(file, Duration.ofSeconds(30));
        w.append(record(1, "alice", T0));
        await().atMost(Duration.ofSeconds(10)).until(() -> acknowledged.size() == 1);
        Files.move(file, dir.resolve("accounting.jsonl.1"));

        w.append(record(2, "alice", T0));

        await().atMost(Duration.ofSeconds(10)).until(() -> acknowledged.size() == 2);
        assertThat(ids(file)).containsExactly(2L);
        assertThat(ids(dir.resolve("accounting.jsonl.1"))).containsExactly(1L);
    }

    /**
     * Reading filters by owner, end and instance, and keeps the newest that match within the limit:
     * of alice's records ended 10:00, 11:00 (instance 7) and 12:00, those since 10:30 are two, and with
     * a limit of 1 the newest, one left out. A line that is no record is skipped.
     */
    @Test
    void readingFiltersAndKeepsTheNewestWithinTheLimit() throws IOException {
        Path file = dir.resolve("accounting.jsonl");
        AccountingFile accounting = new AccountingFile(file);
        UsageRecord instance = new UsageRecord(7, UsageRecord.INSTANCE, "demo", "alice", "ondemand", "FINISHED", null,
                "closed by its owner", T0, T0, T0.plusSeconds(3600), 3600.0, List.of("fs0"), 3, 3, 9000.0, 4000.0,
                6000.0, 0.6667, 18000.0, 3000.0, 0.5, UsageRecord.FROM_RUNNER, null, 2, 3, 0, 0, 0);
        accounting.append(List.of(Json.write(record(1, "alice", T0)), Json.write(record(2, "bob", T0.plusSeconds(1800))),
                "# a note, not a record", Json.write(instance), Json.write(record(8, "alice", T0.plusSeconds(7200)))));

        AccountingView since = accounting.read(new AccountingQuery("alice", T0.plusSeconds(1800), null, 10));
        AccountingView newest = accounting.read(new AccountingQuery("alice", T0.plusSeconds(1800), null, 1));
        AccountingView everyone = accounting.read(new AccountingQuery(null, null, null, 10));

        assertThat(since.records()).extracting(UsageRecord::id).containsExactly(7L, 8L);
        assertThat(newest.records()).extracting(UsageRecord::id).containsExactly(8L);
        assertThat(newest.leftOut()).isEqualTo(1);
        assertThat(everyone.records()).extracting(UsageRecord::id).containsExactly(1L, 2L, 7L, 8L);
        assertThat(accounting.read(new AccountingQuery(null, null, 7L, 10)).records()).containsExactly(instance);
        assertThat(accounting.read(new AccountingQuery(null, null, 1L, 10)).records())
                .as("job 1 is no instance").isEmpty();
        assertThat(new AccountingFile(dir.resolve("none.jsonl")).read(new AccountingQuery(null, null, null, 10))
                .records()).isEmpty();
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).contains("# a note, not a record\n");
    }
}
