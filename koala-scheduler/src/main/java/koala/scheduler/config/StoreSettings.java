package koala.scheduler.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import koala.grid.ConfigException;
import koala.grid.GridConfig;
import koala.scheduler.storage.H2Store;
import koala.scheduler.storage.PostgresStore;
import koala.scheduler.storage.SqlStore;

/**
 * Where the scheduler keeps its state ({@code scheduler.database}): an H2 file on the head node
 * (a path, the default {@code KOALA_HOME/scheduler/koala}), or a PostgreSQL database that two
 * schedulers may share ({@code jdbc:postgresql://HOST:PORT/DATABASE}), logged in to as
 * {@code scheduler.database.user} with the password in {@code scheduler.database.passwordFile}.
 *
 * <p>The password is in a file of its own, readable by the scheduler's account only: the grid
 * configuration is read by the site agents' accounts too.
 */
public sealed interface StoreSettings {
    /** The embedded H2 database {@code file}.mv.db. */
    record H2File(Path file) implements StoreSettings {
        @Override
        public SqlStore open() {
            return H2Store.open(file);
        }
    }

    /** A PostgreSQL database; the password is read from its file when the store is opened. */
    record Postgres(String url, String user, Path passwordFile) implements StoreSettings {
        @Override
        public SqlStore open() {
            return PostgresStore.open(url, user, password(passwordFile));
        }
    }

    /** The store these settings name, its schema brought up to date. */
    SqlStore open();

    String POSTGRES_PREFIX = "jdbc:postgresql://";

    /** The settings of {@code grid}, checked: a PostgreSQL database needs a password file only its reader can read. */
    static StoreSettings from(GridConfig grid, Path koalaHome) {
        String database = grid.value("scheduler.database").map(String::strip).orElse("");
        if (!database.startsWith("jdbc:")) {
            return new H2File(database.isEmpty() ? koalaHome.resolve("scheduler").resolve("koala") : Path.of(database));
        }
        if (!database.startsWith(POSTGRES_PREFIX) || database.length() == POSTGRES_PREFIX.length()) {
            throw new ConfigException(grid.file(), "scheduler.database", "scheduler.database = " + database + ": a database server is "
                    + "named as jdbc:postgresql://HOST:PORT/DATABASE (PostgreSQL is the one KOALA runs on); a path is an "
                    + "H2 file");
        }
        String user = grid.value("scheduler.database.user").map(String::strip).orElse("koala");
        Path passwordFile = grid.value("scheduler.database.passwordFile").map(Path::of).orElseThrow(() ->
                new ConfigException(grid.file(), "scheduler.database.passwordFile", "scheduler.database is a PostgreSQL database, and "
                        + "scheduler.database.passwordFile is not set: name the file that holds " + user + "'s password "
                        + "(readable by the scheduler's account only)"));
        checkPrivate(grid, passwordFile);
        return new Postgres(database, user, passwordFile);
    }

    private static void checkPrivate(GridConfig grid, Path file) {
        try {
            Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
            if (mode.stream().anyMatch(p -> p.name().startsWith("GROUP_") || p.name().startsWith("OTHERS_"))) {
                throw new ConfigException(grid.file(), "scheduler.database.passwordFile", "scheduler.database.passwordFile = " + file + " may be read by "
                        + "others (" + java.nio.file.attribute.PosixFilePermissions.toString(mode) + "): chmod 600 it");
            }
        } catch (IOException e) {
            throw new ConfigException(grid.file(), "scheduler.database.passwordFile", "scheduler.database.passwordFile = " + file + " cannot be read: "
                    + e.getMessage());
        }
    }

    /** The file's first line, without its line end. */
    private static String password(Path file) {
        try {
            return Files.readAllLines(file).stream().findFirst().orElse("");
        } catch (IOException e) {
            throw new koala.scheduler.storage.StoreException("cannot read the database password from " + file + ": "
                    + e.getMessage(), e);
        }
    }
}
