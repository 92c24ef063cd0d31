package koala.scheduler;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import koala.http.ApiException;
import koala.http.Endpoint;
import koala.http.JsonHttpServer;
import koala.scheduler.storage.LeaderLease;

/**
 * A standby scheduler's answer, on the addresses the scheduler serves on once it leads (the users'
 * socket, loopback, the nodes' address): every request is refused with 503 and who leads, so that a
 * caller given several schedulers' addresses tries the next, and a person reading it knows where to go.
 */
final class Standby implements AutoCloseable {
    /** The start of every refusal's text: callers that follow the leader know a standby by it. */
    static final String REFUSAL = koala.api.scheduler.SchedulerClient.STANDBY;

    private final List<JsonHttpServer> servers;
    private final AtomicReference<Optional<LeaderLease.Holder>> leader = new AtomicReference<>(Optional.empty());

    private Standby(List<JsonHttpServer> servers) {
        this.servers = servers;
    }

    /** Serves the refusal on {@code socket}, loopback {@code port}, and {@code nodeUrl}'s address when it is not loopback. */
    static Standby serve(Path socket, int port, URI nodeUrl) throws IOException {
        Files.createDirectories(socket.getParent(), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        List<Endpoint> endpoints = new ArrayList<>(List.of(Endpoint.unix("unix", socket, "rw-rw-rw-"),
                Endpoint.loopback("local", port)));
        InetAddress nodes = InetAddress.getByName(nodeUrl.getHost());
        if (!nodes.isLoopbackAddress()) {
            endpoints.add(Endpoint.tcp("nodes", new InetSocketAddress(nodes, port)));
        }
        JsonHttpServer server = new JsonHttpServer(endpoints, 4);
        Standby standby = new Standby(List.of(server));
        for (Endpoint e : endpoints) {
            server.guard(e.name(), request -> {
                throw new ApiException(503, standby.refusal());
            });
        }
        server.start();
        return standby;
    }

    /** Who leads now, as the lease says. */
    void leader(Optional<LeaderLease.Holder> holder) {
        leader.set(holder);
    }

    String refusal() {
        return leader.get().map(h -> REFUSAL + "; the scheduler leading this grid is " + h.name() + " at " + h.address()
                + " (epoch " + h.epoch() + ")").orElse(REFUSAL + "; no scheduler leads this grid yet: ask again shortly");
    }

    @Override
    public void close() {
        servers.forEach(JsonHttpServer::close);
    }
}
