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
import koala.http.Request;
import koala.scheduler.api.SchedulerApi;
import koala.scheduler.metrics.StandbyMetrics;
import koala.scheduler.storage.LeaderLease;

/**
 * A standby scheduler's answer, on the addresses the scheduler serves on once it leads (the users'
 * socket, loopback, the nodes' address): every request is refused with 503 and who leads, so that a
 * caller given several schedulers' addresses tries the next, and a person reading it knows where to go.
 * Only {@code GET /metrics} is answered, with {@link StandbyMetrics}, so that a site's Prometheus sees
 * every scheduler of the grid and which one leads; and the live page, whose reads are refused so.
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

    /**
     * Serves the refusal on {@code socket}, loopback {@code port}, and {@code nodeUrl}'s address when it is not
     * loopback; and {@code GET /metrics} ({@link StandbyMetrics}) to the readers the leader's serves it to:
     * {@code localReaders} on the socket and loopback, {@code nodeReaders} (the metrics token) on the nodes' address.
     */
    static Standby serve(Path socket, int port, URI nodeUrl, Guard localReaders, Guard nodeReaders) throws IOException {
        Files.createDirectories(socket.getParent(), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        StandbyMetrics metrics = new StandbyMetrics();
        List<JsonHttpServer> servers = new ArrayList<>();
        servers.add(new JsonHttpServer(List.of(Endpoint.unix("unix", socket, "rw-rw-rw-"),
                Endpoint.loopback("local", port)), 4));
        InetAddress nodes = InetAddress.getByName(nodeUrl.getHost());
        if (!nodes.isLoopbackAddress()) {
            servers.add(new JsonHttpServer(List.of(Endpoint.tcp("nodes", new InetSocketAddress(nodes, port))), 4));
        }
        Standby standby = new Standby(servers, metrics);
        for (JsonHttpServer server : servers) {
            for (String endpoint : server.addresses().keySet()) {
                server.guard(endpoint, request -> {
                    if (!servedByAStandby(request)) {
                        throw new ApiException(503, standby.refusal());
                    }
                });
            }
            SchedulerApi.registerMetrics(server, metrics::scrape, server == servers.get(0) ? localReaders : nodeReaders);
        }
        // a browser pointed at a standby gets the page, whose every read is told who leads
        koala.scheduler.api.LivePage.load().register(servers.get(0));
        try {
            servers.forEach(JsonHttpServer::start);
        } catch (RuntimeException e) {
            standby.close();
            throw e;
        }
        return standby;
    }

    private static boolean servedByAStandby(Request request) {
        return request.method().equals("GET") && List.of("/metrics", "/", "/live").contains(request.path());
    }

    /** Who leads now, as the lease says. */
    void leader(Optional<LeaderLease.Holder> holder) {
        leader.set(holder);
        metrics.leaderAt(holder.map(LeaderLease.Holder::epoch).orElse(0L));
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
