package koala.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

/**
 * A small JSON-over-HTTP server on Jetty. Routes are a method and a path pattern whose
 * {@code {name}} segments become path parameters, optionally behind a {@link Guard}. A handler that
 * throws {@link ApiException} answers with that status and reason, one that throws a domain
 * {@link koala.common.failure.Failure} with the status {@link FailureStatus} maps it to; anything else is a 500 that
 * is logged and never takes the process down. It listens on one or more {@link Endpoint}s (TCP
 * addresses, Unix domain sockets), bounds request bodies, drops stalled clients and closes those
 * whose request head trickles in past the head timeout: see the
 * package documentation for the limits. Its threads are daemon threads.
 */
public final class JsonHttpServer implements AutoCloseable {
    /** Handles one request. */
    @FunctionalInterface
    public interface Handler {
        Response handle(Request request);
    }

    private final Routes routes = new Routes();
    private final List<Endpoint> endpoints;
    private final Server server;
    private final JettyBridge bridge;
    private final HeadDeadline headDeadline;
    private final List<AbstractConnector> connectors = new ArrayList<>();
    private final Map<String, SocketAddress> addresses = new LinkedHashMap<>();
    private final List<UnixSocketFile> socketFiles = new ArrayList<>();

    /** One TCP endpoint, named {@link Endpoint#DEFAULT}, with the default limits. */
    public JsonHttpServer(InetSocketAddress address, int threads) throws IOException {
        this(builder().endpoint(Endpoint.tcp(Endpoint.DEFAULT, address)).threads(threads));
    }

    /** These endpoints, with the default limits. */
    public JsonHttpServer(List<Endpoint> endpoints, int threads) throws IOException {
        this(builder().endpoints(endpoints).threads(threads));
    }

    private JsonHttpServer(Builder b) throws IOException {
        if (b.endpoints.isEmpty()) {
            throw new IllegalArgumentException("a server needs at least one endpoint");
        }
        this.endpoints = List.copyOf(b.endpoints);
        this.bridge = new JettyBridge(routes, new BodyLimit(b.maxBodyBytes));
        this.headDeadline = new HeadDeadline(b.headTimeout, InstantSource.system());
        QueuedThreadPool pool = Connectors.threadPool(b.threads, endpoints.size());
        this.server = new Server(pool, new ScheduledExecutorScheduler("http-timer", true), null);
        server.setErrorHandler(new JsonErrorHandler());
        server.setHandler(bridge);
        try {
            for (Endpoint endpoint : endpoints) {
                listen(endpoint, b.idleTimeout);
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        pool.setName(threadName());
    }

    public static Builder builder() {
        return new Builder();
    }

    public JsonHttpServer route(String method, String pattern, Handler handler) {
        return route(method, pattern, Guard.OPEN, handler);
    }

    /** A route whose handler runs only for requests that pass {@code guard}. */
    public JsonHttpServer route(String method, String pattern, Guard guard, Handler handler) {
        routes.add(method, pattern, Objects.requireNonNull(guard, "guard"), handler);
        return this;
    }

    /**
     * {@code handler} answers every request that no route matches (instead of a 404 or 405), once its
     * endpoint's guard passed; it sees the body. A route's own guard does not apply to it.
     */
    public JsonHttpServer otherwise(Handler handler) {
        routes.otherwise(Objects.requireNonNull(handler, "handler"));
        return this;
    }

    /** Every request that comes through the endpoint named {@code endpoint} must pass {@code guard}, before routing. */
    public JsonHttpServer guard(String endpoint, Guard guard) {
        address(endpoint); // one of ours, or an IllegalArgumentException
        routes.guard(endpoint, guard);
        return this;
    }

    public void start() {
        try {
            server.start();
            headDeadline.start(server.getScheduler());
            for (UnixSocketFile file : socketFiles) {
                file.publish();
            }
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot serve on " + endpoints + ": " + e.getMessage(), e);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("cannot serve on " + endpoints + ": " + e, e);
        }
    }

    /** The port of the first TCP endpoint (bound already: the server knows it before {@link #start()}). */
    public int port() {
        return endpoints.stream().filter(Endpoint.Tcp.class::isInstance).findFirst()
                .map(e -> ((InetSocketAddress) address(e.name())).getPort())
                .orElseThrow(() -> new IllegalStateException("no TCP endpoint in " + endpoints));
    }

    /** Where the endpoint named {@code name} listens: the bound TCP address, or the socket file. */
    public SocketAddress address(String name) {
        SocketAddress address = addresses.get(name);
        if (address == null) {
            throw new IllegalArgumentException("no endpoint named " + name + "; there are " + addresses.keySet());
        }
        return address;
    }

    /** Every endpoint's name and address, in the order they were given. */
    public Map<String, SocketAddress> addresses() {
        return Collections.unmodifiableMap(addresses);
    }

    /** Requests received so far: a process can tell from it that nobody calls it any more. */
    public long requestsSeen() {
        return bridge.requests();
    }

    @Override
    public void close() {
        headDeadline.stop();
        try {
            server.stop();
        } catch (Exception e) {
            // stopping: nothing more to do about a connector that would not close
        }
        for (AbstractConnector connector : connectors) {
            // bound before start(): a server closed without starting must let go of its port too
            if (connector.getTransport() instanceof ServerSocketChannel channel) {
                try {
                    channel.close();
                } catch (IOException e) {
                    // already closing
                }
            }
        }
        socketFiles.forEach(UnixSocketFile::remove);
    }

    private void listen(Endpoint endpoint, Duration idleTimeout) throws IOException {
        if (endpoint instanceof Endpoint.Tcp tcp) {
            ServerConnector connector = Connectors.tcp(server, tcp, idleTimeout, headDeadline);
            connectors.add(connector);
            addresses.put(endpoint.name(), ((ServerSocketChannel) connector.getTransport()).getLocalAddress());
        } else {
            Endpoint.Unix unix = (Endpoint.Unix) endpoint;
            UnixSocketFile file = UnixSocketFile.prepare(unix);
            socketFiles.add(file);
            connectors.add(Connectors.unix(server, unix, file, idleTimeout, headDeadline));
            addresses.put(endpoint.name(), UnixDomainSocketAddress.of(unix.path()));
        }
    }

    /** {@code http-PORT} as the JDK's server named them, or {@code http-ENDPOINT} for a Unix socket only. */
    private String threadName() {
        Endpoint first = endpoints.get(0);
        return "http-" + (first instanceof Endpoint.Tcp ? String.valueOf(port()) : first.name());
    }

    /** How long a connection may sit idle before the server closes it, unless its builder says otherwise. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);

    /** How to build a server with several endpoints or other limits than the defaults. */
    public static final class Builder {
        private final List<Endpoint> endpoints = new ArrayList<>();
        private int threads = 8;
        private long maxBodyBytes = BodyLimit.DEFAULT;
        private Duration idleTimeout = DEFAULT_IDLE_TIMEOUT;
        private Duration headTimeout = Duration.ofSeconds(10);

        private Builder() {
        }

        public Builder endpoint(Endpoint endpoint) {
            if (endpoints.stream().anyMatch(e -> e.name().equals(endpoint.name()))) {
                throw new IllegalArgumentException("two endpoints named " + endpoint.name());
            }
            endpoints.add(endpoint);
            return this;
        }

        public Builder endpoints(List<Endpoint> list) {
            if (new HashSet<>(list.stream().map(Endpoint::name).toList()).size() < list.size()) {
                throw new IllegalArgumentException("endpoint names must differ: " + list);
            }
            list.forEach(this::endpoint);
            return this;
        }

        /** Requests handled at once; more wait in a queue. Default 8. */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("at least 1 handler thread, not " + threads);
            }
            this.threads = threads;
            return this;
        }

        /** The largest request body accepted (413 past it). Default 1 MiB. */
        public Builder maxBodyBytes(long bytes) {
            this.maxBodyBytes = new BodyLimit(bytes).maxBytes();
            return this;
        }

        /** How long a client may send nothing mid-request (or read nothing of a response) before it is dropped. Default 30 s. */
        public Builder idleTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("an idle timeout must be positive, not " + timeout);
            }
            this.idleTimeout = timeout;
            return this;
        }

        /**
         * How long a request's head (its request line and headers) may take to arrive, however
         * it trickles: past it the client gets a 408 and the connection is closed. Default 10 s.
         */
        public Builder headTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("a head timeout must be positive, not " + timeout);
            }
            this.headTimeout = timeout;
            return this;
        }

        /** Binds the TCP endpoints; Unix sockets are bound by {@link JsonHttpServer#start()}. */
        public JsonHttpServer build() throws IOException {
            return new JsonHttpServer(this);
        }
    }
}
