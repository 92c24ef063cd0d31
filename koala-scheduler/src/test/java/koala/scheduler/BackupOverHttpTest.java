package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import koala.common.api.BackupView;
import koala.common.api.SchedulerClient;
import koala.common.auth.TokenKey;
import koala.common.auth.Tokens;
import koala.common.http.ApiException;
import koala.common.http.Endpoint;
import koala.common.http.JsonHttpServer;
import koala.scheduler.api.Admins;
import koala.scheduler.api.AuditLog;
import koala.scheduler.api.Callers;
import koala.scheduler.api.SchedulerApi;
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

    private TestGrid grid;
    private SchedulerLoop loop;
    private JsonHttpServer server;
    private H2Store store;
    private SchedulerClient admin;

    @BeforeEach
    void serve() throws Exception {
        grid = new TestGrid(Map.of("fs0", 3), Duration.ofSeconds(60));
        loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor());
        Path socket = dir.resolve("scheduler.sock");
        server = new JsonHttpServer(List.of(Endpoint.unix("unix", socket, "rw-rw-rw-")), 4);
        TokenKey key = TokenKey.in(dir.resolve("token.key"));
        Path group = Files.writeString(dir.resolve("group"), "root:x:0:\n");
        Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0::/root:/bin/sh\n"
                + "alice:x:1002:1002::/home/alice:/bin/sh\n");
        Callers callers = new Callers(new Tokens(key), new Admins("koala-admin", group, passwd), grid.clock);
        Path database = dir.resolve("scheduler").resolve("koala");
        store = H2Store.open(database);
        store.saveState("arbitration.book", "{}");
        SchedulerApi.register(server, SchedulerDaemon.operations(grid.scheduler, loop, key, null,
                Backups.beside(store, database, InstantSource.fixed(T0))), callers,
                AuditLog.in(dir.resolve("audit.log"), grid.clock));
        server.start();
        admin = new SchedulerClient(URI.create("unix:" + socket));
    }

    @AfterEach
    void stop() {
        server.close();
        loop.close();
        grid.close();
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
