package koala.scheduler.storage;

import java.nio.file.Path;

/**
 * The store as an embedded H2 file database, the default for a scheduler on one head node.
 *
 * <p>The schema is Flyway's versions ({@code koala/scheduler/storage/h2/V*.sql}), applied on every open; a
 * database from before opens as it did (the tables, their columns and indexes are named as ever).
 */
public final class H2Store extends SqlStore {
    /**
     * The schema's versions (Flyway, {@code koala/scheduler/storage/h2/V*.sql}), then what a database from
     * before Flyway needs changed in place. A database without Flyway's table is taken as version 0 and
     * brought up by every version: the first is today's schema as statements that change nothing a database
     * already has, so one made by any release before opens as it did.
     */
    private static final SqlDatabase.Schema SCHEMA = (db, url) -> {
        org.flywaydb.core.Flyway.configure(H2Store.class.getClassLoader())
                .dataSource(url, "koala", "")
                .locations("classpath:koala/scheduler/storage/h2")
                .table("koala_schema_history")
                .baselineOnMigrate(true).baselineVersion("0")
                .load().migrate();
        SqlAccounting.recordsInline(db);
    };

    private final H2Database h2;

    private H2Store(H2Database db) {
        super(db);
        this.h2 = db;
    }

    /**
     * Opens (creating if needed) the database {@code file}.mv.db, readable by this account only: it
     * holds the agents' secrets and the nodes' tokens. A directory made for it is private too (one
     * that exists is left as it is: {@code scheduler.database} may name a file in a shared one).
     */
    public static H2Store open(Path file) {
        return open(file, "");
    }

    /**
     * As {@link #open(Path)}, with H2 settings added to its URL (e.g. {@code ;CACHE_SIZE=2048}: a
     * benchmark that measures the scheduler's heap keeps H2's page cache, 16 MB by default, small).
     */
    public static H2Store open(Path file, String settings) {
        return new H2Store(H2Database.open(file, settings, SCHEMA));
    }

    /** A store in memory, gone when closed: the same schema and SQL, for tests and benchmarks. */
    public static H2Store inMemory() {
        return new H2Store(H2Database.inMemory(SCHEMA));
    }

    /**
     * Copies the database, as its last commit left it, into the zip file {@code zip} (H2's
     * {@code BACKUP TO}), while the scheduler runs: on this store's connection, between two units of
     * work (the loop's next unit waits until the copy is made; H2 copies the file's live chunks, a
     * few megabytes a second at worst). The zip holds the database's file under its own name
     * ({@code koala.mv.db}): unpacked beside where the scheduler looks for it, it is the database as
     * it was. An existing {@code zip} is overwritten; {@link Backups} picks a new name in a private
     * directory and sets the file's mode.
     *
     * @throws IllegalStateException inside a unit of work (its writes are not committed yet), or in memory
     */
    @Override
    public void backupTo(Path zip) {
        h2.backupTo(zip);
    }
}
