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
 */
public final class PostgresLease implements LeaderLease {
    private final String url;
    private final Properties login;
    private final Duration term;
    /** Guarded by this; null after a failure, opened again by the next call. */
    private Connection db;

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

    @Override
    public synchronized OptionalLong acquire(String name, String address) {
        return call(db -> {
            try (PreparedStatement s = db.prepareStatement("UPDATE leader SET holder = ?, address = ?, epoch = epoch + 1, "
                    + "expires_at = clock_timestamp() + ? * interval '1 millisecond' WHERE id = 1 AND "
                    + "expires_at <= clock_timestamp() RETURNING epoch")) {
                s.setString(1, name);
                s.setString(2, address);
                s.setLong(3, term.toMillis());
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
                }
            }
        });
    }

    @Override
    public synchronized boolean renew(long epoch) {
        return call(db -> {
            try (PreparedStatement s = db.prepareStatement("UPDATE leader SET expires_at = clock_timestamp() + ? * "
                    + "interval '1 millisecond' WHERE id = 1 AND epoch = ? AND expires_at > clock_timestamp()")) {
                s.setLong(1, term.toMillis());
                s.setLong(2, epoch);
                return s.executeUpdate() == 1;
            }
        });
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
