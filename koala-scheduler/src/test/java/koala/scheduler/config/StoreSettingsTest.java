package koala.scheduler.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import koala.grid.ConfigException;
import koala.grid.GridConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code scheduler.database}: an H2 file by default, a PostgreSQL database with a password only its reader reads. */
class StoreSettingsTest {
    @TempDir
    Path dir;

    private StoreSettings settings(String extra) throws Exception {
        Path file = dir.resolve("grid.properties");
        Files.writeString(file, "grid.sites = fs0\nsite.fs0.sge.cell = fs0\n" + extra);
        return StoreSettings.from(GridConfig.load(file), dir);
    }

    private Path password(String mode) throws Exception {
        Path file = dir.resolve("database.password");
        Files.writeString(file, "s3cret\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
        return file;
    }

    @Test
    void anH2FileUnlessADatabaseServerIsNamed() throws Exception {
        assertThat(settings("")).isEqualTo(new StoreSettings.H2File(dir.resolve("scheduler").resolve("koala")));
        assertThat(settings("scheduler.database = /srv/koala/db\n")).isEqualTo(new StoreSettings.H2File(Path.of("/srv/koala/db")));
    }

    @Test
    void aPostgresqlDatabaseWithItsLoginAndPasswordFile() throws Exception {
        Path password = password("rw-------");

        StoreSettings s = settings("scheduler.database = jdbc:postgresql://db:5432/koala\nscheduler.database.user = grid\n"
                + "scheduler.database.passwordFile = " + password + "\n");

        assertThat(s).isEqualTo(new StoreSettings.Postgres("jdbc:postgresql://db:5432/koala", "grid", password));
        assertThat(SchedulerSettings.from(GridConfig.load(dir.resolve("grid.properties")), dir).database())
                .as("backups' directory: the default's").isEqualTo(dir.resolve("scheduler").resolve("koala"));
    }

    @Test
    void aPasswordFileOthersMayReadIsRefused() throws Exception {
        Path password = password("rw-r-----");

        assertThatThrownBy(() -> settings("scheduler.database = jdbc:postgresql://db:5432/koala\n"
                + "scheduler.database.passwordFile = " + password + "\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("may be read by others (rw-r-----): chmod 600 it");
    }

    @Test
    void aDatabaseServerWithoutAPasswordFileOrOfAnotherKindIsRefused() {
        assertThatThrownBy(() -> settings("scheduler.database = jdbc:postgresql://db:5432/koala\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("scheduler.database.passwordFile is not set");
        assertThatThrownBy(() -> settings("scheduler.database = jdbc:mysql://db:3306/koala\n"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("jdbc:postgresql://HOST:PORT/DATABASE");
    }
}
