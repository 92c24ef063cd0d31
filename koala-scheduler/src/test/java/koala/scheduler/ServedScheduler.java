package koala.scheduler;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import koala.api.scheduler.SchedulerClient;
import koala.auth.TokenKey;
import koala.auth.Tokens;
import koala.http.Endpoint;
import koala.http.JsonHttpServer;
import koala.scheduler.api.Admins;
import koala.scheduler.api.AuditLog;
import koala.scheduler.api.Callers;
import koala.scheduler.api.SchedulerApi;

/**
 * A scheduler served over its Unix socket and the real API, as the daemon serves it, for the unit tests
 * that are its clients: a grid of one site, fs0 with 3 nodes ({@link TestGrid}), its loop, and in the
 * test's directory the socket, the token key, the admins' group file (root alone in koala-admin), a passwd
 * of root, alice (uid 1002) and bob (uid 1003), and the audit log.
 */
final class ServedScheduler implements AutoCloseable {
    /** The daemon's API over a scheduler's parts: {@link LoopOperations} with what else it reads. */
    @FunctionalInterface
    interface Operations {
        SchedulerApi.Operations of(SchedulerParts scheduler, SchedulerLoop loop, TokenKey key);
    }

    /** The grid behind the API, its store and clock. */
    final TestGrid grid;
    private final SchedulerLoop loop;
    private final JsonHttpServer server;
    private final Path socket;
    /** The users' routes beyond loopback, for calls a standby passes on ({@link SchedulerApi#registerRelayed}). */
    private JsonHttpServer relayed;
    private Callers callers;

    private ServedScheduler(TestGrid grid, SchedulerLoop loop, JsonHttpServer server, Path socket) {
        this.grid = grid;
        this.loop = loop;
        this.server = server;
        this.socket = socket;
    }

    /** The API as the daemon serves it, keeping no accounting and taking no backups. */
    static ServedScheduler serve(Path dir) throws IOException {
        return serve(dir, LoopOperations::new);
    }

    /** The API with {@code operations}' accounting file or backups. */
    static ServedScheduler serve(Path dir, Operations operations) throws IOException {
        TestGrid grid = new TestGrid(Map.of("fs0", 3), Duration.ofSeconds(60));
        SchedulerLoop loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor());
        Path socket = dir.resolve("scheduler.sock");
        JsonHttpServer server = new JsonHttpServer(List.of(Endpoint.unix("unix", socket, "rw-rw-rw-")), 4);
        ServedScheduler served = new ServedScheduler(grid, loop, server, socket);
        try {
            TokenKey key = TokenKey.in(dir.resolve("token.key"));
            Path group = Files.writeString(dir.resolve("group"), "root:x:0:\n");
            Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0::/root:/bin/sh\n"
                    + "alice:x:1002:1002::/home/alice:/bin/sh\nbob:x:1003:1003::/home/bob:/bin/sh\n");
            Callers callers = new Callers(new Tokens(key), new Admins("koala-admin", group, passwd), grid.clock)
                    .withRelays(new koala.auth.Vouchers(key));
            served.callers = callers;
            SchedulerApi.Operations ops = operations.of(grid.scheduler.parts(), loop, key);
            AuditLog audit = AuditLog.in(dir.resolve("audit.log"), grid.clock);
            SchedulerApi.register(server, ops, callers, audit);
            served.relayed = new JsonHttpServer(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 4);
            SchedulerApi.registerRelayed(served.relayed, Endpoint.DEFAULT, ops, callers, audit,
                    () -> new koala.api.scheduler.SchedulerProcess(ProcessHandle.current().pid(), false, null, "head1:17", 4,
                            null));
            server.start();
            served.relayed.start();
            return served;
        } catch (IOException | RuntimeException e) {
            served.close();
            throw e;
        }
    }

    /** Where a standby passes its users' calls on to this scheduler (as the daemon's nodes' address). */
    URI relayedAt() {
        return URI.create("http://127.0.0.1:" + relayed.port());
    }

    /** Who calls this scheduler; a standby with the same token key names its callers so too. */
    Callers callers() {
        return callers;
    }

    /** {@code work} on the scheduler's loop, in a unit of work of its own, as the daemon's supervisor does its work. */
    <T> T onLoop(java.util.concurrent.Callable<T> work) {
        return loop.call(work);
    }

    /** The socket the API is served on. */
    Path socket() {
        return socket;
    }

    /** A client of the socket: root, an admin acting as itself ({@code actingFor} to be a user). */
    SchedulerClient asRoot() {
        return new SchedulerClient(URI.create("unix:" + socket));
    }

    @Override
    public void close() {
        server.close();
        if (relayed != null) {
            relayed.close();
        }
        loop.close();
        grid.close();
    }
}
