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
import koala.http.Guard;
import koala.http.JsonHttpServer;
import koala.scheduler.api.AuditLog;
import koala.scheduler.api.Callers;
import koala.scheduler.api.LeaderRelay;
import koala.scheduler.api.SchedulerApi;
import koala.scheduler.metrics.StandbyMetrics;
import koala.scheduler.storage.LeaderLease;

/**
 * A standby scheduler's answers, on the addresses the scheduler serves on once it leads. On the users'
 * socket and loopback, their calls go to the leader ({@link LeaderRelay}), so that users and programs of
 * this host call their own host's scheduler whichever leads; a token is made here. On the nodes'
 * address every request is refused with 503 and who leads, so that a node launcher given several
 * schedulers' addresses tries the next. {@code GET /metrics} is answered everywhere, with
 * {@link StandbyMetrics}, so that a site's Prometheus sees every scheduler of the grid and which one
 * leads; and the live page, whose reads go to the leader.
 */
final class Standby implements AutoCloseable {
    /** The start of every refusal's text: callers that follow the leader know a standby by it. */
    static final String REFUSAL = koala.api.scheduler.SchedulerClient.STANDBY;

    private final List<JsonHttpServer> servers;
    private final AtomicReference<Optional<LeaderLease.Holder>> leader = new AtomicReference<>(Optional.empty());

    private final StandbyMetrics metrics;

    private Standby(List<JsonHttpServer> servers, StandbyMetrics metrics) {
        this.servers = servers;
        this.metrics = metrics;
    }

    /** Who this standby is and how it knows its users, for the calls it passes on. */
    record Users(String name, Callers callers, AuditLog audit) {
    }

    /**
     * Serves the users' routes on {@code socket} and loopback {@code port} (passed on to the leader), the
     * refusal on {@code nodeUrl}'s address when it is not loopback; and {@code GET /metrics}
     * ({@link StandbyMetrics}) to the readers the leader's serves it to: {@code localReaders} on the
     * socket and loopback, {@code nodeReaders} (the metrics token) on the nodes' address.
     */
    static Standby serve(Path socket, int port, URI nodeUrl, Guard localReaders, Guard nodeReaders, Users users)
            throws IOException {
        Files.createDirectories(socket.getParent(), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        StandbyMetrics metrics = new StandbyMetrics();
        List<JsonHttpServer> servers = new ArrayList<>();
        // a relayed call holds its thread until the leader answers
        servers.add(new JsonHttpServer(List.of(Endpoint.unix("unix", socket, "rw-rw-rw-"),
                Endpoint.loopback("local", port)), 32));
        InetAddress nodes = InetAddress.getByName(nodeUrl.getHost());
        if (!nodes.isLoopbackAddress()) {
            servers.add(new JsonHttpServer(List.of(Endpoint.tcp("nodes", new InetSocketAddress(nodes, port))), 4));
        }
        Standby standby = new Standby(servers, metrics);
        JsonHttpServer local = servers.get(0);
        SchedulerApi.registerMetrics(local, metrics::scrape, localReaders);
        koala.scheduler.api.LivePage.load().register(local);
        SchedulerApi.registerStandby(local, users.callers(), users.audit(), new LeaderRelay(users.callers(), users.name(),
                standby::leaderAddress, standby::refusal));
        for (JsonHttpServer server : servers.subList(1, servers.size())) {
            for (String endpoint : server.addresses().keySet()) {
                server.guard(endpoint, request -> {
                    if (!(request.method().equals("GET") && request.path().equals("/metrics"))) {
                        throw new ApiException(503, standby.refusal());
                    }
                });
            }
            SchedulerApi.registerMetrics(server, metrics::scrape, nodeReaders);
        }
        try {
            servers.forEach(JsonHttpServer::start);
        } catch (RuntimeException e) {
            standby.close();
            throw e;
        }
        return standby;
    }

    /** Who leads now, as the lease says. */
    void leader(Optional<LeaderLease.Holder> holder) {
        leader.set(holder);
        metrics.leaderAt(holder.map(LeaderLease.Holder::epoch).orElse(0L));
    }

    /** Where the leader serves, as the lease says. */
    private Optional<URI> leaderAddress() {
        return leader.get().map(h -> URI.create(h.address()));
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
