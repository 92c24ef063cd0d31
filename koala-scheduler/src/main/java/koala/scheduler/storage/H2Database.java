package koala.scheduler.storage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * The embedded H2 database: its URL, its file, and the tidying of that file. The one place that
 * knows H2's file.
 *
 * <p><b>Durability.</b> H2's {@code WRITE_DELAY=0} makes each commit write its changes to the file
 * before {@code commit()} returns (with a delay above 0, H2 only marks them, and its background
 * thread writes them up to that many milliseconds later: what a {@code kill -9} in between loses,
 * though the caller was told it was done). So once a unit has returned its writes are in the
 * operating system's hands and survive a {@code kill -9} of this process; a unit that had not
 * returned left nothing (H2 ignores a chunk whose commit is not complete in the file when it opens
 * it). As before, and like every H2 commit, it is not forced to the disk ({@code fsync}): a power
 * cut or a crash of the host itself loses what the operating system had not written out yet.
 *
 * <p><b>Tidying.</b> Each commit writes every page the unit changed. With {@code WRITE_DELAY=0} H2
 * runs no background thread, so this class tidies H2's file itself ({@link #committed}).
 */
final class H2Database extends SqlDatabase {
    /** H2's store underneath, for tidying; null in memory. */
    private final org.h2.mvstore.MVStore files;
    /** Every this many commits, H2's chunks filled less than {@link #TIDY_FILL_RATE}% are rewritten, up to {@link #TIDY_BYTES}. */
    private static final int TIDY_EVERY = 64;
    private static final int TIDY_FILL_RATE = 90;
    private static final int TIDY_BYTES = 512 * 1024;

    private H2Database(Connection db) throws SQLException {
        super(db, SqlDialect.H2);
        org.h2.mvstore.MVStore store = ((org.h2.engine.SessionLocal) db.unwrap(org.h2.jdbc.JdbcConnection.class)
                .getSession()).getDatabase().getStore().getMvStore();
        this.files = store.getFileStore() == null ? null : store;
    }

    /**
     * Opens (creating if needed) the database {@code file}.mv.db, readable by this account only: it
     * holds the agents' secrets and the nodes' tokens. A directory made for it is private too (one
     * that exists is left as it is: {@code scheduler.database} may name a file in a shared one).
     *
     * @param settings H2 settings added to its URL (e.g. {@code ;CACHE_SIZE=2048}); empty for none
     */
    static H2Database open(Path file, String settings, Schema schema) {
        privateDirectory(file.toAbsolutePath().getParent());
        try {
            // "retry:": a thread interrupted while it writes (JSch leaves interrupt flags behind, executors
            // interrupt on shutdown) must not close the database's file under every other thread
            String url = "jdbc:h2:retry:" + file.toAbsolutePath() + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0" + settings;
            Connection db = DriverManager.getConnection(url, "koala", "");
            privateFile(Path.of(file.toAbsolutePath() + ".mv.db"));
            schema.apply(db, url);
            return new H2Database(db);
        } catch (SQLException e) {
            throw new StoreException("cannot open the scheduler database " + file + ".mv.db: " + e.getMessage(), e);
        }
    }

    /** A database in memory, gone when closed: the same schema and SQL, for tests and benchmarks. */
    static H2Database inMemory(Schema schema) {
        try {
            String url = "jdbc:h2:mem:koala-" + UUID.randomUUID();
            Connection db = DriverManager.getConnection(url, "koala", "");
            schema.apply(db, url);
            return new H2Database(db);
        } catch (SQLException e) {
            throw new StoreException("cannot open a database in memory: " + e.getMessage(), e);
        }
    }

    /**
     * Rewrites the live pages of H2's sparsest chunks (filled under {@value #TIDY_FILL_RATE}%, up to
     * {@value #TIDY_BYTES} bytes of them) into new ones every {@value #TIDY_EVERY} commits, so that the
     * old chunks can be dropped. H2 does this on its background thread, which {@code WRITE_DELAY=0}
     * stops: without it every chunk that keeps a live page stays, with its bookkeeping in the heap
     * (about a kilobyte) and its space in the file; with a commit per statement that was a few chunks
     * for every job kept. Nothing acknowledged is at stake: the pages are copied into a new chunk,
     * committed like any, and the old one is dropped only once nothing refers to it.
     */
    @Override
    void committed(long units) {
        if (files != null && units % TIDY_EVERY == 0) {
            files.compact(TIDY_FILL_RATE, TIDY_BYTES);
        }
    }

    /** As {@link H2Store#backupTo}: H2's {@code BACKUP TO}, between two units of work. */
    void backupTo(Path zip) {
        if (files == null) {
            throw new IllegalStateException("a database in memory has no file to back up");
        }
        try {
            betweenUnits(db -> {
                try (Statement s = db.createStatement()) {
                    s.execute("BACKUP TO '" + zip.toAbsolutePath().toString().replace("'", "''") + "'");
                    db.commit();
                }
                return null;
            });
        } catch (SQLException e) {
            throw new StoreException("cannot back up the scheduler database to " + zip + ": " + e.getMessage(), e);
        }
    }

    private static void privateDirectory(Path dir) {
        if (Files.isDirectory(dir)) {
            return;
        }
        try {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (java.io.IOException | UnsupportedOperationException e) {
            throw new StoreException("cannot make the scheduler database's directory " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void privateFile(Path file) {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (java.io.IOException | UnsupportedOperationException e) {
            throw new StoreException("cannot make the scheduler database " + file + " private: " + e.getMessage(), e);
        }
    }
}
