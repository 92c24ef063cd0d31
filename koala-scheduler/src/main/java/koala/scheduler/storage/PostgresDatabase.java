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
 */
final class PostgresDatabase extends SqlDatabase {
    static final int CONNECT_SECONDS = 5;
    static final int SOCKET_SECONDS = 30;

    private final String url;
    private final Properties login;

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

    @Override
    Connection connectAgain() throws SQLException {
        return DriverManager.getConnection(url, login);
    }
}
