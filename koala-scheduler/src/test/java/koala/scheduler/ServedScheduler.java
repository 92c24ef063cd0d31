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
            Callers callers = new Callers(new Tokens(key), new Admins("koala-admin", group, passwd), grid.clock);
            SchedulerApi.register(server, operations.of(grid.scheduler.parts(), loop, key), callers,
                    AuditLog.in(dir.resolve("audit.log"), grid.clock));
            server.start();
            return served;
        } catch (IOException | RuntimeException e) {
            served.close();
            throw e;
        }
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
        loop.close();
        grid.close();
    }
}
