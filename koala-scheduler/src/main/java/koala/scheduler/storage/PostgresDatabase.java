package koala.scheduler.storage;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * A PostgreSQL server's database: the one place that knows how the scheduler connects to it.
 *
 * <p><b>Durability.</b> PostgreSQL's commit returns once the unit's changes are in its write-ahead
 * log on the server's disk ({@code synchronous_commit = on}, the default): a unit that returned
 * survives a {@code kill -9} of the scheduler, of the server, and a crash of either's host.
 *
 * <p><b>Time-outs.</b> Connecting gives up after {@value #CONNECT_SECONDS} s, and a statement or a
 * commit whose answer does not come within {@value #SOCKET_SECONDS} s fails (a server that went
 * away without closing its connections: a cut network, a paused host). A connection found lost is
 * opened again before the next unit of work; the unit that found it failed, and was undone.
 *
 * <p><b>Fencing.</b> Once {@link #fence fenced} at a leader's epoch, a unit that changed rows commits
 * only if the lease in the table {@code leader} still has that epoch and has not expired by the
 * server's clock; the check takes the lease's row {@code FOR SHARE}, so a standby's take-over (an
 * update of that row) waits until this commit is done, and this commit never follows a take-over. A
 * leader paused in the middle of a unit (SIGSTOP, a long GC, a cut network) holds its transaction
 * open: the server ends a session idle in a transaction for longer than the lease lasts
 * ({@code idle_in_transaction_session_timeout}), so the pause cannot hold a take-over up, and what the
 * unit wrote is undone.
 */
final class PostgresDatabase extends SqlDatabase {
    static final int CONNECT_SECONDS = 5;
    static final int SOCKET_SECONDS = 30;

    private final String url;
    private final Properties login;
    /** The leader's epoch the writes are checked against; 0: not fenced. Guarded by the database's lock. */
    private long epoch;
    private java.time.Duration lease;
    private java.util.function.Consumer<String> lost = why -> { };

    private PostgresDatabase(Connection db, String url, Properties login) throws SQLException {
        super(db, SqlDialect.POSTGRESQL);
        this.url = url;
        this.login = login;
    }

    /**
     * Connects to {@code url} ({@code jdbc:postgresql://HOST:PORT/DATABASE}) as {@code user} and brings its
     * schema up to date: {@code schema} is given the URL with the time-outs, for a connection of its own.
     */
    static PostgresDatabase open(String url, String user, String password, Schema schema) {
        Properties login = new Properties();
        login.setProperty("user", user);
        login.setProperty("password", password);
        String timed = withTimeouts(url);
        try {
            Connection db = DriverManager.getConnection(timed, login);
            schema.apply(db, timed);
            return new PostgresDatabase(db, timed, login);
        } catch (SQLException e) {
            throw new StoreException("cannot open the scheduler database " + url + " as " + user + ": " + e.getMessage(), e);
        }
    }

    /** {@code url} with the driver's time-outs and the scheduler's name for the server's view of its sessions. */
    static String withTimeouts(String url) {
        return url + (url.contains("?") ? "&" : "?") + "connectTimeout=" + CONNECT_SECONDS + "&socketTimeout="
                + SOCKET_SECONDS + "&tcpKeepAlive=true&ApplicationName=koala-scheduler";
    }

    /**
     * Class 08 is a connection exception; 57P01-57P03 a server shutting down or not accepting
     * connections yet; a failure with no state at all is the driver's own (an I/O error).
     */
    @Override
    boolean lostConnection(SQLException e) {
        String state = e.getSQLState();
        return state == null || state.startsWith("08") || state.startsWith("57P");
    }

    /**
     * A leader whose unit lost its connection (the database restarted, the network cut) has done in memory
     * what the store does not have: it steps down, and the scheduler that leads next takes up what the
     * store has, as after a {@code kill -9}.
     */
    @Override
    void connectionLost(String why) {
        if (epoch > 0) {
            lost.accept("the store's connection was lost in the middle of a unit (" + why + ")");
        }
    }

    /** Every statement is a round trip to the server: a unit's writes go in batches. */
    @Override
    boolean holdsWrites() {
        return true;
    }

    /** About 0.1 ms on loopback (an empty query), against some 3 ms of statements for each job that passes. */
    @Override
    boolean stillConnected() {
        return answers(2);
    }

    @Override
    Connection connectAgain() throws SQLException {
        Connection fresh = DriverManager.getConnection(url, login);
        if (epoch > 0) {
            idleAtMost(fresh, lease);
        }
        return fresh;
    }

    /**
     * From now on, writes commit only while this scheduler's lease of {@code epoch} holds; {@code lost}
     * runs (on the writing thread) when one is refused.
     */
    @Override
    void fence(long epoch, java.time.Duration lease, java.util.function.Consumer<String> lost) {
        reconnectUnlessValid(); // a standby's connection may have been lost while it waited (a database restarted)
        try {
            betweenUnits(db -> {
                idleAtMost(db, lease);
                db.commit();
                this.epoch = epoch;
                this.lease = lease;
                this.lost = lost;
                return null;
            });
        } catch (SQLException e) {
            throw new StoreException("cannot fence the store at epoch " + epoch + ": " + e.getMessage(), e);
        }
    }

    private static void idleAtMost(Connection db, java.time.Duration lease) throws SQLException {
        try (java.sql.Statement s = db.createStatement()) {
            s.execute("SET idle_in_transaction_session_timeout = " + Math.max(1, lease.toMillis()));
        }
    }

    @Override
    void beforeWrites(Connection db) throws SQLException {
        if (epoch == 0) {
            return;
        }
        try (java.sql.PreparedStatement check = db.prepareStatement("SELECT epoch, expires_at > clock_timestamp() "
                + "FROM leader WHERE id = 1 FOR SHARE")) {
            try (java.sql.ResultSet rs = check.executeQuery()) {
                long now = rs.next() ? rs.getLong(1) : -1;
                boolean live = now == epoch && rs.getBoolean(2);
                if (!live) {
                    lost.accept(now == epoch ? "its lease of epoch " + epoch + " passed before a write"
                            : "another scheduler leads at epoch " + now);
                    throw new LeadershipLost(now == epoch ? "this scheduler's lease of epoch " + epoch + " has passed: "
                            + "its writes are refused" : "another scheduler leads now (epoch " + now + ", this one's was "
                            + epoch + "): this one's writes are refused");
                }
            }
        }
    }
}
