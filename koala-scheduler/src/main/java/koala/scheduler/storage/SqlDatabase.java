package koala.scheduler.storage;

import java.sql.Connection;
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
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * A database under the stores, on one connection that one thread uses at a time: the scheduler's
 * loop, and now and then the agent watch ({@link SqlAgents#saveAgent}), which waits while the loop is
 * in a unit of work. It holds the units of work, the prepared statements and the statements' counts;
 * {@link H2Database} and {@link PostgresDatabase} open it and add what is their own (H2's file and its
 * tidying; PostgreSQL's server). The tables are the stores' ({@code SqlJobs}, {@code SqlNodes}, ...),
 * which {@link SqlStore} puts together; what their SQL says differently on each is the {@link SqlDialect}.
 *
 * <p><b>Durability.</b> Autocommit is off: a unit of work ({@link #inTransaction}) commits once, at
 * its end, and a write outside a unit is a unit of its own. Once a unit has returned, its writes are
 * committed (what that means on disk is each database's: {@link H2Database}, {@link PostgresDatabase});
 * a unit that had not returned left nothing.
 *
 * <p><b>Cost.</b> The loop's units (each a batch of calls, events and rounds) commit together what
 * used to be a dozen commits of a statement each. Statements are prepared once and kept.
 */
class SqlDatabase implements UnitOfWork, AutoCloseable {
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

    /** Replaced by {@link #reconnect} once a failure said it was lost; guarded by {@link #lock}. */
    private Connection db;
    /** The connection was lost: the next unit opens another first. */
    private boolean lost;
    /** The unit under way changed a row: its commit is checked first ({@link #beforeWrites}). */
    private boolean wrote;
    /** The unit's writes not sent yet, on a database that holds them ({@link #holdsWrites}). */
    private final HeldWrites held = new HeldWrites();
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
    private final SqlDialect dialect;

    SqlDatabase(Connection db, SqlDialect dialect) throws SQLException {
        this.db = db;
        this.dialect = dialect;
        db.setAutoCommit(false);
    }

    SqlDialect dialect() {
        return dialect;
    }

    /** Runs the statements of {@code sql}, a table's schema, on the connection being opened. */
    static void execute(Connection db, String sql) throws SQLException {
        try (Statement s = db.createStatement()) {
            s.execute(sql);
        }
    }

    SqlStore.Stats stats() {
        lock.lock();
        try {
            return new SqlStore.Stats(units, commitNanos, statements, statementNanos);
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
            if (lost || !stillConnected()) {
                reconnect();
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
            send();
            if (wrote) {
                beforeWrites(db);
            }
            db.commit();
        } catch (SQLException e) {
            undo(e);
            throw failure("commit", e);
        } catch (RuntimeException e) {
            undo(e);
            throw e;
        } finally {
            wrote = false;
            units++;
            commitNanos += System.nanoTime() - start;
        }
        long tidyStart = System.nanoTime();
        committed(units);
        commitNanos += System.nanoTime() - tidyStart;
    }

    /** A store failure for {@code e}; a connection it says was lost is opened again before the next unit. */
    private StoreException failure(String what, SQLException e) {
        if (lostConnection(e)) {
            lost = true;
            connectionLost(what + ": " + e.getMessage());
        }
        return new StoreException(what + ": " + e.getMessage(), e);
    }

    /**
     * The connection was found lost by a statement or commit of a unit, which fails: the unit's work is
     * done in memory and not kept. A leader's store says so to its leadership ({@link PostgresDatabase}).
     */
    void connectionLost(String why) {
    }

    /**
     * Whether the connection still answers, asked before every unit by a database that can lose it (a
     * server restarted while the scheduler waited): a unit then starts on a new one rather than failing
     * at its first statement with its work half done in memory. The embedded H2's never goes.
     */
    boolean stillConnected() {
        return true;
    }

    /** The connection answers within {@code seconds}. */
    final boolean answers(int seconds) {
        try {
            return db.isValid(seconds);
        } catch (SQLException e) {
            return false;
        }
    }

    /** Opens the connection again unless it answers within 2 s: before a unit that must not fail for an old loss. */
    void reconnectUnlessValid() {
        lock.lock();
        try {
            if (lost || !db.isValid(2)) {
                reconnect();
            }
        } catch (SQLException e) {
            reconnect();
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@code e} says the connection is gone (H2's embedded one never is). */
    boolean lostConnection(SQLException e) {
        return false;
    }

    /** A new connection to the same database, once the last one was lost. */
    Connection connectAgain() throws SQLException {
        throw new SQLException("an embedded database's connection is not opened again");
    }

    private void reconnect() {
        try {
            Connection fresh = connectAgain();
            fresh.setAutoCommit(false);
            prepared.clear(); // they belonged to the lost connection, which closing closes too
            try {
                db.close();
            } catch (SQLException ignored) {
                // it was lost: there is nothing to close cleanly
            }
            db = fresh;
            lost = false;
        } catch (SQLException e) {
            throw new StoreException("the database cannot be reached again: " + e.getMessage(), e);
        }
    }

    /**
     * From now on, writes commit only while this scheduler's lease of {@code epoch} holds; {@code lost}
     * runs (on the writing thread) when one is refused. Nothing on a database only one scheduler opens.
     */
    void fence(long epoch, java.time.Duration term, java.util.function.Consumer<String> lost) {
    }

    /**
     * Before a unit that changed rows commits, on its connection, under the lock: a database may refuse
     * it here, by throwing (a leader whose lease passed, {@link PostgresDatabase}); the unit is undone then.
     */
    void beforeWrites(Connection db) throws SQLException {
    }

    /** After the {@code units}th commit, under the lock: what a database does now and then (H2 tidies its file). */
    void committed(long units) {
    }

    /** Work on the connection between two units of work (a backup), under the lock. */
    @FunctionalInterface
    interface Between<T> {
        T run(Connection db) throws SQLException;
    }

    /**
     * Runs {@code work} between two units of work: the loop's next unit waits until it is done.
     *
     * @throws IllegalStateException inside a unit of work (its writes are not committed yet)
     */
    <T> T betweenUnits(Between<T> work) throws SQLException {
        lock.lock();
        try {
            if (depth > 0) {
                throw new IllegalStateException("this is done between units of work, not inside one");
            }
            return work.run(db);
        } finally {
            lock.unlock();
        }
    }

    /** Undoes the unit's writes and forgets its actions; a failure to undo is added to {@code cause}. */
    private void undo(Throwable cause) {
        afterCommit.clear();
        held.clear();
        wrote = false;
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

    /**
     * One statement that changes rows, in the calling thread's unit, or as a unit of its own. A database
     * that {@link #holdsWrites holds writes} sends it with the unit's next read or its commit, and a
     * failure of it fails that read or commit, and with it the unit.
     */
    void update(String sql, List<Object> params) {
        if (!holdsWrites()) {
            updated(sql, params);
            return;
        }
        inTransaction(() -> {
            wrote = true;
            held.add(sql, params);
        });
    }

    /**
     * Whether this database holds a unit's writes and sends them in batches ({@link HeldWrites}): one
     * reached over the network, where every statement costs a round trip. The embedded H2 sends each at once.
     */
    boolean holdsWrites() {
        return false;
    }

    /** Sends the unit's held writes, a batch (one round trip) per statement; under the lock, in a unit. */
    private void send() throws SQLException {
        if (!held.isEmpty()) {
            send(held.take());
        }
    }

    private void send(List<HeldWrites.Batch> batches) throws SQLException {
        for (HeldWrites.Batch batch : batches) {
            long start = System.nanoTime();
            try {
                PreparedStatement s = prepare(batch.sql, List.of());
                for (List<Object> row : batch.rows) {
                    bind(s, row);
                    s.addBatch();
                }
                s.executeBatch();
            } catch (SQLException e) {
                SQLException cause = e.getNextException() != null ? e.getNextException() : e;
                throw new SQLException(batch.sql + ": " + cause.getMessage(), cause.getSQLState(), cause);
            } finally {
                statements += batch.rows.size();
                statementNanos += System.nanoTime() - start;
            }
        }
    }

    /** The held writes sent, before a write whose count is asked; only those a read sees, before a read ({@code read}). */
    private void sendHeld(String read) {
        if (held.isEmpty()) {
            return;
        }
        try {
            send(read == null ? held.take() : held.takeFor(read));
        } catch (SQLException e) {
            throw failure("sending the unit's writes", e);
        }
    }

    /** As {@link #update}, sent at once, answering how many rows it changed. */
    int updated(String sql, List<Object> params) {
        return inTransaction(() -> {
            sendHeld(null);
            long start = System.nanoTime();
            try {
                wrote = true;
                return prepare(sql, params).executeUpdate();
            } catch (SQLException e) {
                throw failure(sql, e);
            } finally {
                counted(start);
            }
        });
    }

    /** {@code rows}' values grouped by their job, each group in the rows' order. */
    static <R, T> java.util.Map<Long, List<T>> byJob(List<R> rows, java.util.function.Function<R, Long> job,
                                                    java.util.function.Function<R, T> value) {
        java.util.Map<Long, List<T>> by = new java.util.HashMap<>();
        rows.forEach(r -> by.computeIfAbsent(job.apply(r), j -> new ArrayList<>()).add(value.apply(r)));
        return by;
    }

    /** The rows {@code sql} reads, each as {@code row} makes it, in the calling thread's unit or as one of its own. */
    <T> List<T> query(String sql, List<Object> params, Row<T> row) {
        return inTransaction(() -> {
            sendHeld(sql);
            long start = System.nanoTime();
            try (ResultSet rs = prepare(sql, params).executeQuery()) {
                List<T> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(row.read(rs));
                }
                return out;
            } catch (SQLException e) {
                throw failure(sql, e);
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
        bind(s, params);
        return s;
    }

    private static void bind(PreparedStatement s, List<Object> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            Object p = params.get(i);
            if (p instanceof Null n) {
                s.setNull(i + 1, n.sqlType());
            } else {
                s.setObject(i + 1, p);
            }
        }
    }

    /** Marks a SQL NULL of the given type in a parameter list. */
    record Null(int sqlType) {
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
}
