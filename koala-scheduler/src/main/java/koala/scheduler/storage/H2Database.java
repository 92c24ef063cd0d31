package koala.scheduler.storage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The embedded H2 database under the stores, on one connection that one thread uses at a time: the
 * scheduler's loop, and now and then the agent watch ({@link H2Agents#saveAgent}), which waits while
 * the loop is in a unit of work. The one place that knows H2: its URL, its units of work, its
 * statements, its file. The tables are the stores' ({@code H2Jobs}, {@code H2Nodes}, ...), each with
 * its own schema; {@link H2Store} puts them together.
 *
 * <p><b>Durability.</b> Autocommit is off: a unit of work ({@link #inTransaction}) commits once, at
 * its end, and a write outside a unit is a unit of its own. H2's {@code WRITE_DELAY=0} makes each
 * commit write its changes to the file before {@code commit()} returns (with a delay above 0, H2
 * only marks them, and its background thread writes them up to that many milliseconds later: what
 * a {@code kill -9} in between loses, though the caller was told it was done). So once a unit has
 * returned its writes are in the operating system's hands and survive a {@code kill -9} of this
 * process; a unit that had not returned left nothing (H2 ignores a chunk whose commit is not
 * complete in the file when it opens it). As before, and like every H2 commit, it is not forced to
 * the disk ({@code fsync}): a power cut or a crash of the host itself loses what the operating
 * system had not written out yet.
 *
 * <p><b>Cost.</b> Each commit writes every page the unit changed, so the loop's units (each a batch
 * of calls, events and rounds) commit together what used to be a dozen commits of a statement each.
 * Statements are prepared once and kept. With {@code WRITE_DELAY=0} H2 runs no background thread,
 * so this class tidies H2's file itself ({@link #tidy}). The schema is made, and brought up to date,
 * on every open, by the {@link Schema} it is opened with ({@link H2Store}'s: Flyway's versions).
 */
final class H2Database implements UnitOfWork, AutoCloseable {
    /** Makes the tables, and brings those of a database from before up to date, on the open connection. */
    @FunctionalInterface
    interface Schema {
        /** @param url the database's JDBC URL, for a second connection to it while {@code db} is open */
        void apply(Connection db, String url) throws SQLException;
    }

    /** Reads one row of a result. */
    @FunctionalInterface
    interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private final Connection db;
    /** Held by the thread in a unit of work, and by one making a write or a read outside one. */
    private final ReentrantLock lock = new ReentrantLock(true);
    /** How many units the lock's holder is in (0: none); guarded by {@link #lock}, as every field below. */
    private int depth;
    private final List<Runnable> afterCommit = new ArrayList<>();
    private final Map<String, PreparedStatement> prepared = new HashMap<>();
    private long units;
    private long commitNanos;
    private long statements;
    private long statementNanos;
    /** H2's store underneath, for {@link #tidy}; null in memory. */
    private final org.h2.mvstore.MVStore files;
    /** Every this many commits, H2's chunks filled less than {@link #TIDY_FILL_RATE}% are rewritten, up to {@link #TIDY_BYTES}. */
    private static final int TIDY_EVERY = 64;
    private static final int TIDY_FILL_RATE = 90;
    private static final int TIDY_BYTES = 512 * 1024;

    private H2Database(Connection db) throws SQLException {
        this.db = db;
        db.setAutoCommit(false);
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

    /** Runs the statements of {@code sql}, a table's schema, on the connection being opened. */
    static void execute(Connection db, String sql) throws SQLException {
        try (Statement s = db.createStatement()) {
            s.execute(sql);
        }
    }

    H2Store.Stats stats() {
        lock.lock();
        try {
            return new H2Store.Stats(units, commitNanos, statements, statementNanos);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public <T> T inTransaction(Supplier<T> work) {
        List<Runnable> then;
        T result;
        lock.lock();
        try {
            if (depth > 0) {
                depth++;
                try {
                    return work.get(); // joins the unit it is in: commits or is undone with it
                } finally {
                    depth--;
                }
            }
            depth = 1;
            try {
                result = work.get();
            } catch (RuntimeException | Error e) {
                depth = 0;
                undo(e);
                throw e;
            }
            depth = 0;
            commit();
            then = List.copyOf(afterCommit);
            afterCommit.clear();
        } finally {
            lock.unlock();
        }
        then.forEach(Runnable::run);
        return result;
    }

    @Override
    public void afterCommit(Runnable action) {
        lock.lock();
        try {
            if (depth > 0) {
                afterCommit.add(action);
                return;
            }
        } finally {
            lock.unlock();
        }
        action.run();
    }

    private void commit() {
        long start = System.nanoTime();
        try {
            db.commit();
        } catch (SQLException e) {
            undo(e);
            throw new StoreException("commit: " + e.getMessage(), e);
        } finally {
            units++;
            commitNanos += System.nanoTime() - start;
        }
        if (units % TIDY_EVERY == 0) {
            tidy();
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
    private void tidy() {
        if (files != null) {
            long start = System.nanoTime();
            try {
                files.compact(TIDY_FILL_RATE, TIDY_BYTES);
            } finally {
                commitNanos += System.nanoTime() - start;
            }
        }
    }

    /** As {@link H2Store#backupTo}: H2's {@code BACKUP TO}, between two units of work. */
    void backupTo(Path zip) {
        lock.lock();
        try {
            if (depth > 0) {
                throw new IllegalStateException("a backup is taken between units of work, not inside one");
            }
            if (files == null) {
                throw new IllegalStateException("a database in memory has no file to back up");
            }
            try (Statement s = db.createStatement()) {
                s.execute("BACKUP TO '" + zip.toAbsolutePath().toString().replace("'", "''") + "'");
                db.commit();
            } catch (SQLException e) {
                throw new StoreException("cannot back up the scheduler database to " + zip + ": " + e.getMessage(), e);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Undoes the unit's writes and forgets its actions; a failure to undo is added to {@code cause}. */
    private void undo(Throwable cause) {
        afterCommit.clear();
        try {
            db.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            for (PreparedStatement s : prepared.values()) {
                s.close();
            }
            db.close();
        } catch (SQLException e) {
            throw new StoreException("closing the database: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    /** One statement that changes rows, in the calling thread's unit, or as a unit of its own. */
    void update(String sql, List<Object> params) {
        updated(sql, params);
    }

    /** As {@link #update}, answering how many rows it changed. */
    int updated(String sql, List<Object> params) {
        return inTransaction(() -> {
            long start = System.nanoTime();
            try {
                return prepare(sql, params).executeUpdate();
            } catch (SQLException e) {
                throw new StoreException(sql + ": " + e.getMessage(), e);
            } finally {
                counted(start);
            }
        });
    }

    /** The rows {@code sql} reads, each as {@code row} makes it, in the calling thread's unit or as one of its own. */
    <T> List<T> query(String sql, List<Object> params, Row<T> row) {
        return inTransaction(() -> {
            long start = System.nanoTime();
            try (ResultSet rs = prepare(sql, params).executeQuery()) {
                List<T> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(row.read(rs));
                }
                return out;
            } catch (SQLException e) {
                throw new StoreException(sql + ": " + e.getMessage(), e);
            } finally {
                counted(start);
            }
        });
    }

    private void counted(long start) {
        statements++;
        statementNanos += System.nanoTime() - start;
    }

    /** The statement for {@code sql}, prepared the first time it is asked for and kept, with {@code params} set. */
    private PreparedStatement prepare(String sql, List<Object> params) throws SQLException {
        PreparedStatement s = prepared.get(sql);
        if (s == null) {
            s = db.prepareStatement(sql);
            prepared.put(sql, s);
        }
        for (int i = 0; i < params.size(); i++) {
            Object p = params.get(i);
            if (p instanceof Null n) {
                s.setNull(i + 1, n.sqlType());
            } else {
                s.setObject(i + 1, p);
            }
        }
        return s;
    }

    /** Marks a SQL NULL of the given type in a parameter list. */
    private record Null(int sqlType) {
    }

    /** {@code value}, or a SQL NULL in its place (a parameter list, being a {@code List.of}, takes no null). */
    static Object nullable(Object value) {
        if (value != null) {
            return value;
        }
        return new Null(java.sql.Types.NULL);
    }

    static Timestamp ts(Instant i) {
        return i == null ? null : Timestamp.from(i);
    }

    static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
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
