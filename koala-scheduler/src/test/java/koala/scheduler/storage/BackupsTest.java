package koala.scheduler.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import koala.api.scheduler.TransitionView;
import koala.scheduler.state.JobState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackupsTest {
    private static final Instant T = Instant.parse("2026-11-25T10:00:00Z");

    @TempDir
    Path dir;

    /**
     * The worked example of docs/admin-guide.md#backing-up-and-restoring-the-database: a scheduler's
     * store holds jobs 1 to 50, each saved with its transition in one unit of work, and a thread goes
     * on saving jobs 51, 52, … the same way while the backup is taken. The backup holds every job
     * saved before it began, and whatever it holds is whole: jobs 1 to N with no gap, each with its
     * transition (a unit is in the backup entirely or not at all). Unpacked where a new scheduler's
     * database goes, a new store reads those jobs.
     */
    @Test
    void aStoreInUseIsBackedUpAndRestoredIntoANewStoreThatReadsTheSameJobs() throws Exception {
        Path database = dir.resolve("old").resolve("scheduler").resolve("koala");
        long before;
        long after;
        Backups.Backup backup;
        try (H2Store store = H2Store.open(database)) {
            for (long id = 1; id <= 50; id++) {
                save(store, id);
            }
            AtomicLong committed = new AtomicLong(50);
            AtomicBoolean stop = new AtomicBoolean();
            Thread writer = new Thread(() -> {
                for (long id = 51; !stop.get(); id++) {
                    save(store, id);
                    committed.set(id);
                }
            }, "writer");
            writer.start();
            while (committed.get() < 60) {
                Thread.onSpinWait(); // the writer is under way
            }
            before = committed.get();
            backup = Backups.beside(store, database, InstantSource.fixed(T)).take(null);
            after = committed.get();
            stop.set(true);
            writer.join();
        }

        Path zip = Path.of(backup.file());
        assertThat(zip).isEqualTo(dir.resolve("old/scheduler/backups/koala-20261125-100000Z.zip"));
        assertThat(backup.bytes()).isEqualTo(Files.size(zip)).isPositive();
        assertThat(mode(zip)).as("like the database: the scheduler's account only").isEqualTo("rw-------");
        assertThat(mode(zip.getParent())).isEqualTo("rwx------");
        assertThat(Files.list(zip.getParent()).map(p -> p.getFileName().toString()))
                .as("no half-written file left behind").containsExactly("koala-20261125-100000Z.zip");

        // restore: unpack into the new scheduler's directory, then open it as the scheduler would
        Path restored = dir.resolve("new").resolve("scheduler");
        assertThat(unzip(zip, restored)).containsExactly("koala.mv.db");
        try (H2Store store = H2Store.open(restored.resolve("koala"))) {
            List<Long> ids = store.jobs().stream().map(JobRecord::id).toList();
            assertThat(ids).hasSizeBetween((int) before, (int) after);
            for (int i = 0; i < ids.size(); i++) {
                assertThat(ids.get(i)).as("no gap").isEqualTo(i + 1L);
            }
            assertThat(store.jobs().get(0)).isEqualTo(job(1));
            for (long id : ids) {
                assertThat(store.history(id)).as("job %d's transition, saved in its unit", id)
                        .containsExactly(transition(id));
            }
            save(store, ids.size() + 1L); // and it goes on from there
            assertThat(store.jobs()).hasSize(ids.size() + 1);
        }
    }

    @Test
    void aNameIsAPlainZipFileInTheBackupsDirectoryAndNeverOverwritesOne() {
        Path database = dir.resolve("scheduler").resolve("koala");
        try (H2Store store = H2Store.open(database)) {
            save(store, 1);
            Backups backups = Backups.beside(store, database, InstantSource.fixed(T));
            assertThat(backups.take("before-upgrade.zip").file())
                    .isEqualTo(dir.resolve("scheduler/backups/before-upgrade.zip").toString());
            assertThatThrownBy(() -> backups.take("before-upgrade.zip")).isInstanceOf(koala.common.failure.Conflict.class)
                    .hasMessageContaining("exists already");
            for (String bad : List.of("../../etc/cron.d/x.zip", "/tmp/x.zip", "x.tar", ".hidden.zip", "a b.zip")) {
                assertThatThrownBy(() -> backups.take(bad)).as(bad).isInstanceOf(koala.common.failure.InvalidField.class)
                        .hasMessageContaining("plain file name");
            }
        }
    }

    @Test
    void aBackupIsNotTakenInsideAUnitOfWorkNorOfADatabaseInMemory() {
        try (H2Store store = H2Store.open(dir.resolve("koala"))) {
            assertThatThrownBy(() -> store.inTransaction(() -> {
                store.backupTo(dir.resolve("x.zip"));
                return null;
            })).isInstanceOf(IllegalStateException.class).hasMessageContaining("between units of work");
        }
        try (H2Store memory = H2Store.inMemory()) {
            assertThatThrownBy(() -> memory.backupTo(dir.resolve("y.zip"))).isInstanceOf(IllegalStateException.class);
        }
    }

    private static void save(H2Store store, long id) {
        store.inTransaction(() -> {
            store.saveJob(job(id), T);
            store.recordTransition(id, transition(id));
            return null;
        });
    }

    private static JobRecord job(long id) {
        return new JobRecord(id, "j" + id, "j.jdf", "&(count = 1)(executable = /bin/true)", "RIGID", JobState.QUEUED,
                "wf", "high", 0, 0, null, T, "alice");
    }

    private static TransitionView transition(long id) {
        return new TransitionView(T, "NEW", "QUEUED", "submit", "job " + id);
    }

    private static List<String> unzip(Path zip, Path into) throws IOException {
        Files.createDirectories(into);
        List<String> names = new ArrayList<>();
        try (InputStream in = Files.newInputStream(zip); ZipInputStream entries = new ZipInputStream(in)) {
            for (ZipEntry e = entries.getNextEntry(); e != null; e = entries.getNextEntry()) {
                names.add(e.getName());
                Files.copy(entries, into.resolve(e.getName()));
            }
        }
        return names;
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
