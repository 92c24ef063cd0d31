package koala.scheduler.storage;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;

/**
 * The leader's lease in the table {@code leader} of a PostgreSQL store, on a connection of its own (a
 * renewal never waits behind the loop's unit of work). Every time is the server's
 * ({@code clock_timestamp()}), so the schedulers' own clocks never have to agree. A call that does not
 * answer within the lease's term fails ({@code socketTimeout}, {@code lock_timeout}): a renewal that
 * cannot be made in time is no renewal, and a take-over waits no longer than that behind a leader's
 * unit that is committing.
 *
 * <p><b>A leader that died is taken over at once.</b> The leader holds a session-level advisory lock of its
 * epoch on this connection, taken in the transaction that made the epoch, so no one sees the epoch before the
 * lock is held. The server lets the lock go when the session ends: when the leader's process dies (its kernel
 * closes the connection) or it closes the connection. A standby that gets the lock of the epoch leading knows
 * that leader's session ended, and takes over without waiting for the lease to pass; but only when the lease
 * says the leader took its lock after the server last started ({@code locked_at}): a server restarted lets
 * every lock go with no leader dying, and the leader, connected again, takes its lock back at its next
 * renewal. A leader that is paused,
 * or cut off from the network, keeps its session (and its lock) open, and is taken over when its lease passes,
 * as before; either way the fencing epoch keeps a leader that lost the lead from writing.
 */
public final class PostgresLease implements LeaderLease {
    private final String url;
    private final Properties login;
    private final Duration term;
    /** The advisory locks' first key: the leaders' epochs' locks (the second key is the epoch). */
    private static final int EPOCH_LOCKS = 0x4b4f414c;
    /** Guarded by this; null after a failure, opened again by the next call. */
    private Connection db;
    /** The epoch whose lock {@link #db} holds; 0 for none. Guarded by this. */
    private long locked;
    /** How the last lease was taken. Guarded by this. */
    private String howTaken = "";

    private PostgresLease(String url, Properties login, Duration term) {
        this.url = url;
        this.login = login;
        this.term = term;
    }

    /** The lease of the store at {@code url} (whose schema is up to date: {@link PostgresStore#open}), for {@code term} at a time. */
    public static PostgresLease open(String url, String user, String password, Duration term) {
        Properties login = new Properties();
        login.setProperty("user", user);
        login.setProperty("password", password);
        int seconds = (int) Math.max(1, (term.toMillis() + 999) / 1000);
        String timed = url + (url.contains("?") ? "&" : "?") + "connectTimeout=" + seconds + "&socketTimeout=" + seconds
                + "&tcpKeepAlive=true&ApplicationName=koala-scheduler-lease";
        return new PostgresLease(timed, login, term);
    }

    /**
     * Takes the lease when it passed, or when the session of the leader holding it ended (its epoch's lock is
     * free); in one transaction with the new epoch's lock.
     */
    @Override
    public synchronized OptionalLong acquire(String name, String address) {
        return call(db -> {
            long leading = 0;
            boolean passed;
            boolean ended = false;
            boolean lockedThisLife;
            try (PreparedStatement s = db.prepareStatement("SELECT epoch, expires_at <= clock_timestamp(), "
                    + "locked_at > pg_postmaster_start_time() FROM leader WHERE id = 1"); ResultSet rs = s.executeQuery()) {
                rs.next();
                leading = rs.getLong(1);
                passed = rs.getBoolean(2);
                lockedThisLife = rs.getBoolean(3);
            }
            try {
                ended = !passed && lockedThisLife && leading > 0 && leading != locked && lock(db, leading, false);
                if (!passed && !ended) {
                    return OptionalLong.empty();
                }
                OptionalLong taken = take(db, name, address, ended ? leading : -1);
                if (taken.isPresent()) {
                    howTaken = ended ? "the session of the leader of epoch " + leading + " with the store ended (its "
                            + "process died or closed its connection)" : "the lease passed";
                }
                return taken;
            } finally {
                if (ended) {
                    unlockQuietly(db, leading);
                }
            }
        });
    }

    /** The lease with the next epoch and that epoch's lock, when it passed or {@code ended} still leads. */
    private OptionalLong take(Connection db, String name, String address, long ended) throws SQLException {
        db.setAutoCommit(false);
        try (PreparedStatement s = db.prepareStatement("UPDATE leader SET holder = ?, address = ?, epoch = epoch + 1, "
                + "expires_at = clock_timestamp() + ? * interval '1 millisecond', locked_at = clock_timestamp() "
                + "WHERE id = 1 AND (expires_at <= clock_timestamp() OR epoch = ?) RETURNING epoch")) {
            s.setString(1, name);
            s.setString(2, address);
            s.setLong(3, term.toMillis());
            s.setLong(4, ended);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    db.rollback();
                    return OptionalLong.empty();
                }
                long epoch = rs.getLong(1);
                lock(db, epoch, true);
                db.commit();
                locked = epoch;
                return OptionalLong.of(epoch);
            }
        } catch (SQLException e) {
            db.rollback();
            throw e;
        } finally {
            db.setAutoCommit(true);
        }
    }

    /**
     * Renews the lease; on a connection opened again since it was taken (the old session's lock went with it),
     * takes its epoch's lock again first and says when in the lease; if a standby holds it for a moment, the
     * next renewal tries again.
     */
    @Override
    public synchronized boolean renew(long epoch) {
        return call(db -> {
            boolean relocked = locked != epoch && lock(db, epoch, false);
            if (relocked) {
                locked = epoch;
            }
            try (PreparedStatement s = db.prepareStatement("UPDATE leader SET expires_at = clock_timestamp() + ? * "
                    + "interval '1 millisecond'" + (relocked ? ", locked_at = clock_timestamp()" : "")
                    + " WHERE id = 1 AND epoch = ? AND expires_at > clock_timestamp()")) {
                s.setLong(1, term.toMillis());
                s.setLong(2, epoch);
                return s.executeUpdate() == 1;
            }
        });
    }

    @Override
    public synchronized String howTaken() {
        return howTaken;
    }

    /** Takes {@code epoch}'s lock for this session: waiting for it, or only if it is free now. */
    private static boolean lock(Connection db, long epoch, boolean wait) throws SQLException {
        try (PreparedStatement s = db.prepareStatement(wait ? "SELECT pg_advisory_lock(?, ?), true"
                : "SELECT pg_try_advisory_lock(?, ?)")) {
            s.setInt(1, EPOCH_LOCKS);
            s.setInt(2, (int) epoch);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getBoolean(wait ? 2 : 1);
            }
        }
    }

    /** Lets the old leader's lock go, taken only to learn its session ended; a session that failed lets it go anyway. */
    private static void unlockQuietly(Connection db, long epoch) {
        try (PreparedStatement s = db.prepareStatement("SELECT pg_advisory_unlock(?, ?)")) {
            s.setInt(1, EPOCH_LOCKS);
            s.setInt(2, (int) epoch);
            s.executeQuery().close();
        } catch (SQLException e) {
            // the connection failed: the server ends the session and every lock of it
        }
    }

    @Override
    public synchronized Optional<Holder> holder() {
        return call(db -> {
            try (PreparedStatement s = db.prepareStatement("SELECT holder, address, epoch, expires_at > clock_timestamp() "
                    + "FROM leader WHERE id = 1 AND epoch > 0"); ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(new Holder(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getBoolean(4)))
                        : Optional.empty();
            }
        });
    }

    @Override
    public synchronized void resign(long epoch) {
        call(db -> {
            try (PreparedStatement s = db.prepareStatement("UPDATE leader SET expires_at = '-infinity' WHERE id = 1 "
                    + "AND epoch = ?")) {
                s.setLong(1, epoch);
                return s.executeUpdate();
            }
        });
    }

    @Override
    public synchronized void close() {
        if (db != null) {
            try {
                db.close();
            } catch (SQLException ignored) {
                // closing: nothing is pending on this connection (it commits every statement)
            }
            db = null;
        }
        locked = 0;
    }

    @FunctionalInterface
    private interface Call<T> {
        T on(Connection db) throws SQLException;
    }

    /** The call, on this lease's connection; one opened before the server restarted is opened again, once, at once. */
    private <T> T call(Call<T> call) {
        boolean old = db != null;
        try {
            return call.on(connection());
        } catch (SQLException e) {
            close();
            if (old && lostConnection(e)) {
                try {
                    return call.on(connection());
                } catch (SQLException again) {
                    close();
                    throw new StoreException("the leader's lease: " + again.getMessage(), again);
                }
            }
            throw new StoreException("the leader's lease: " + e.getMessage(), e);
        }
    }

    private Connection connection() throws SQLException {
        if (db == null) {
            db = DriverManager.getConnection(url, login);
            try (var s = db.createStatement()) {
                s.execute("SET lock_timeout = " + Math.max(1, term.toMillis()));
            }
        }
        return db;
    }

    private static boolean lostConnection(SQLException e) {
        String state = e.getSQLState();
        return state == null || state.startsWith("08") || state.startsWith("57P");
    }
}
