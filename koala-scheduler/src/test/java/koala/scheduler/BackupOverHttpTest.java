package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.InstantSource;
import koala.api.scheduler.BackupView;
import koala.api.scheduler.SchedulerClient;
import koala.http.ApiException;
import koala.scheduler.storage.Backups;
import koala.scheduler.storage.H2Store;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code POST /admin/backup} over the scheduler's Unix socket (what {@code koala admin backup} calls):
 * an admin backs the database up into the backups directory, anyone else is refused and the attempt
 * audited; a name is a plain .zip file name that does not exist yet. The caller here is root, an
 * admin, who acts for alice to be her.
 */
class BackupOverHttpTest {
    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

    @TempDir
    Path dir;

    private ServedScheduler scheduler;
    private H2Store store;
    private SchedulerClient admin;

    @BeforeEach
    void serve() throws Exception {
        Path database = dir.resolve("scheduler").resolve("koala");
        store = H2Store.open(database);
        store.saveState("arbitration.book", "{}");
        Backups backups = Backups.beside(store, database, InstantSource.fixed(T0));
        scheduler = ServedScheduler.serve(dir, (s, loop, key) -> new LoopOperations(s, loop, key, null, backups));
        admin = scheduler.asRoot();
    }

    @AfterEach
    void stop() {
        scheduler.close();
        store.close();
    }

    @Test
    void anAdminBacksTheDatabaseUpAndAUserMayNot() throws Exception {
        BackupView backup = admin.backup(null);
        Path zip = dir.resolve("scheduler/backups/koala-20261125-100000Z.zip");
        assertThat(backup).isEqualTo(new BackupView(zip.toString(), Files.size(zip), T0));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(zip))).isEqualTo("rw-------");

        assertThatThrownBy(() -> admin.actingFor("alice").backup("mine.zip")).isInstanceOfSatisfying(ApiException.class,
                e -> {
                    assertThat(e.status()).isEqualTo(403);
                    assertThat(e.getMessage()).isEqualTo("alice may not back up the database: admins only");
                });
        assertThat(Files.exists(dir.resolve("scheduler/backups/mine.zip"))).isFalse();
        assertThat(Files.readString(dir.resolve("audit.log"))).contains("back up").contains("alice");
    }

    @Test
    void aNameIsAPlainZipFileThatIsNotThereYet() {
        assertThat(admin.backup("before-upgrade.zip").file()).endsWith("/scheduler/backups/before-upgrade.zip");
        assertThatThrownBy(() -> admin.backup("before-upgrade.zip")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.status()).isEqualTo(409));
        assertThatThrownBy(() -> admin.backup("../../etc/x.zip")).isInstanceOfSatisfying(ApiException.class,
                e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).startsWith("file: '../../etc/x.zip' is not a backup's name");
                });
    }
}
