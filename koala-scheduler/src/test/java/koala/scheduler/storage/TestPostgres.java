package koala.scheduler.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import koala.common.net.FreePort;
import koala.testbed.PostgresServer;
import org.junit.jupiter.api.Assumptions;

/**
 * One PostgreSQL server of its own for this test JVM's stores (about 1 s to make and start), on
 * loopback, stopped when the JVM ends; each store test gets databases of its own on it.
 */
final class TestPostgres {
    static final String PASSWORD = "koala-test";
    private static PostgresServer server;
    private static final AtomicInteger DATABASES = new AtomicInteger();

    private TestPostgres() {
    }

    /** The server, started the first time; a test is skipped, saying why, where PostgreSQL is not installed. */
    static synchronized PostgresServer server() {
        Assumptions.assumeTrue(PostgresServer.installed(),
                "PostgreSQL is not installed (Debian's postgresql; bin/koala test installs it)");
        if (server == null) {
            try {
                Path dir = Files.createTempDirectory("koala-store-test-pg-");
                server = PostgresServer.start(dir, FreePort.any(), List.of("127.0.0.1"), List.of(), List.of());
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    server.close();
                    delete(dir);
                }));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return server;
    }

    /** A new database's URL, owned by the account {@code koala}. */
    static String newDatabase() {
        String name = "store_" + DATABASES.incrementAndGet();
        server().createDatabase(name, "koala", PASSWORD);
        return server().jdbcUrl("127.0.0.1", name);
    }

    private static void delete(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: the system's to clean up then
        }
    }
}
