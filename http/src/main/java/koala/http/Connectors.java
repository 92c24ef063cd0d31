package koala.http;

import java.io.IOException;
import java.time.Duration;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.unixdomain.server.UnixDomainServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Jetty's side of a {@link JsonHttpServer}: a connector per {@link Endpoint} and the thread pool
 * they share. No acceptor threads: each endpoint's one selector thread accepts too.
 */
final class Connectors {
    private Connectors() {
    }

    /** Bound at once, so the port is known before the server starts and a port in use fails here. */
    static ServerConnector tcp(Server server, Endpoint.Tcp endpoint, Duration idleTimeout, HeadDeadline heads)
            throws IOException {
        ServerConnector connector = new ServerConnector(server, 0, 1, http());
        connector.setHost(endpoint.address().getHostString());
        connector.setPort(endpoint.address().getPort());
        configure(server, connector, endpoint, idleTimeout, heads);
        connector.open();
        return connector;
    }

    /** Bound when the server starts, at {@code file}'s staging path. */
    static UnixDomainServerConnector unix(Server server, Endpoint.Unix endpoint, UnixSocketFile file,
                                          Duration idleTimeout, HeadDeadline heads) {
        UnixDomainServerConnector connector = new UnixDomainServerConnector(server, 0, 1, http());
        connector.setUnixDomainPath(file.bindPath());
        configure(server, connector, endpoint, idleTimeout, heads);
        return connector;
    }

    /**
     * Handler threads plus one selector per endpoint and two spare for Jetty's own short tasks.
     * Long polls hold a handler thread while they wait, so a server that serves them needs as
     * many handler threads as it has waiting clients (the scheduler has 64).
     */
    static QueuedThreadPool threadPool(int handlerThreads, int endpoints) {
        int max = handlerThreads + endpoints + 2;
        QueuedThreadPool pool = new QueuedThreadPool(max, Math.min(max, endpoints + 2));
        pool.setDaemon(true);
        pool.setReservedThreads(0); // every thread counted above; none parked in reserve
        pool.setStopTimeout(200); // then handlers still running (long polls) are interrupted
        return pool;
    }

    private static void configure(Server server, AbstractConnector connector, Endpoint endpoint, Duration idle,
                                  HeadDeadline heads) {
        connector.setName(endpoint.name()); // what Request.endpoint() reports
        connector.setIdleTimeout(idle.toMillis());
        connector.addEventListener(heads);
        server.addConnector(connector);
    }

    private static HttpConnectionFactory http() {
        HttpConfiguration config = new HttpConfiguration();
        config.setSendServerVersion(false);
        config.setSendXPoweredBy(false);
        // "//jobs" is "/jobs" to our routes, as it was on the JDK's server; an encoded slash
        // inside a segment (%2F) stays refused as ambiguous (400)
        config.setUriCompliance(UriCompliance.DEFAULT.with("koala", UriCompliance.Violation.AMBIGUOUS_EMPTY_SEGMENT));
        return new HttpConnectionFactory(config);
    }
}
