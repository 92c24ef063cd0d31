package koala.fluent.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import koala.common.time.Poll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journal on disk: private, read back as written, a torn last line dropped, compacted atomically, one writer. */
class FileJournalTest {
    @TempDir
    Path tmp;

    private FileJournal open(Path dir) {
        return FileJournal.open(dir, Duration.ofMillis(300), new Poll(InstantSource.system(), Duration.ofMillis(50)));
    }

    @Test
    void entriesComeBackAsWrittenFromAPrivateDirectory() throws Exception {
        Path dir = tmp.resolve("instance-7").resolve("journal");
        List<JournalEntry> written = RecoveryTest.rlAndThreeWordCounts();
        try (FileJournal journal = open(dir)) {
            written.forEach(journal::append);
            assertThat(journal.sinceCompaction()).isEqualTo(7);
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve(FileJournal.FILE))))
                .isEqualTo("rw-------");
        assertThat(Files.readAllLines(dir.resolve(FileJournal.FILE))).hasSize(7)
                .first().asString().startsWith("{\"type\":\"joined\"");
        try (FileJournal again = open(dir)) {
            assertThat(again.read()).isEqualTo(written);
        }
    }

    @Test
    void aLastLineCutShortByACrashIsDroppedAndOneInTheMiddleIsAnError() throws Exception {
        Path dir = tmp.resolve("journal");
        try (FileJournal journal = open(dir)) {
            RecoveryTest.rlAndThreeWordCounts().subList(0, 2).forEach(journal::append);
        }
        Files.writeString(dir.resolve(FileJournal.FILE), "{\"type\":\"joined\",\"at\":\"2026-11-25T10:", StandardOpenOption.APPEND);
        try (FileJournal journal = open(dir)) {
            assertThat(journal.read()).hasSize(2);
        }
        Files.writeString(dir.resolve(FileJournal.FILE), "\n{\"type\":\"left\",\"at\":\"2026-11-25T10:00:09Z\",\"node\":\"w1\"}\n",
                StandardOpenOption.APPEND);
        try (FileJournal journal = open(dir)) {
            assertThatThrownBy(journal::read).hasMessageContaining(FileJournal.FILE + ":3: not a journal entry");
        }
    }

    @Test
    void aCompactionLeavesTheSnapshotAloneAndAppendsGoOnAfterIt() throws Exception {
        Path dir = tmp.resolve("journal");
        MasterRecovery.Recovered r = MasterRecovery.replay(RecoveryTest.rlAndThreeWordCounts(), RecoveryTest.STATIC_4,
                RecoveryTest.T.plusSeconds(30));
        JournalEntry.Snapshot snapshot = new JournalEntry.Snapshot(RecoveryTest.T.plusSeconds(11), r.state().snapshot(),
                r.book().all(), r.urls(), List.of(), null, r.jobs(), r.growNotes(), List.of());
        JournalEntry.Left left = new JournalEntry.Left(RecoveryTest.T.plusSeconds(12), "w9");
        try (FileJournal journal = open(dir)) {
            RecoveryTest.rlAndThreeWordCounts().forEach(journal::append);
            journal.compact(snapshot);
            assertThat(journal.sinceCompaction()).isZero();
            journal.append(left);
        }
        try (FileJournal journal = open(dir)) {
            List<JournalEntry> read = journal.read();
            assertThat(read).hasSize(2);
            assertThat(read.get(1)).isEqualTo(left);
            // the snapshot read back rebuilds the same state
            MasterRecovery.Recovered again = MasterRecovery.replay(read.subList(0, 1), RecoveryTest.STATIC_4,
                    RecoveryTest.T.plusSeconds(30));
            assertThat(again.state().workers()).isEqualTo(r.state().workers());
            assertThat(again.state().queue()).isEqualTo(r.state().queue());
            assertThat(again.state().running()).isEqualTo(r.state().running());
            assertThat(again.book().all()).isEqualTo(r.book().all());
        }
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(FileJournal.FILE, "lock");
    }

    @Test
    void aSecondMasterWaitsForTheFirstToLetGo() {
        Path dir = tmp.resolve("journal");
        try (FileJournal first = open(dir)) {
            assertThatThrownBy(() -> open(dir)).hasMessageContaining("held by another master");
        }
        try (FileJournal second = open(dir)) {
            assertThat(second.read()).isEmpty();
        }
    }
}
