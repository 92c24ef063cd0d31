package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import koala.common.net.FreePort;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Two schedulers share one PostgreSQL: the testbed starts a cluster of its own and makes the schedulers'
 * database, which they reach over TCP with a password, and which is still there after a restart.
 */
class PostgresServerTest {
    /** Not JUnit's @TempDir: as root the directory goes to the account postgres, so it lies under /tmp. */
    private Path dir;

    @AfterEach
    void removeDirectory() throws IOException {
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
    }

    @Test
    void aClusterOfItsOwnServesADatabaseOverTcpWithAPasswordAndAgainAfterARestart() throws IOException {
        Assumptions.assumeTrue(PostgresServer.installed(), "PostgreSQL is not installed (apt-get install postgresql)");
        dir = Files.createTempDirectory("koala-postgres-");
        int port = FreePort.any();

        try (PostgresServer server = PostgresServer.start(dir, port, List.of("127.0.0.1"), List.of("198.18.0.0/16"),
                List.of())) {
            assertThat(server.running()).isTrue();
            assertThat(server.port()).isEqualTo(port);
            server.createDatabase("koala", "koala", "secret");
            server.createDatabase("koala", "koala", "secret"); // a testbed brought up again asks again
            assertThat(server.jdbcUrl("127.0.0.1", "koala")).isEqualTo("jdbc:postgresql://127.0.0.1:" + port + "/koala");

            Shell.Result login = currentUser(port, "secret");
            assertThat(login.ok()).as(login.err()).isTrue();
            assertThat(login.out().strip()).isEqualTo("koala");
            assertThat(currentUser(port, "wrong").ok()).isFalse();
            assertThatThrownBy(() -> server.createDatabase("koala", "koala", "it's")).isInstanceOf(
                    IllegalArgumentException.class);
            assertThatThrownBy(() -> server.createDatabase("Koala; drop", "koala", "secret")).isInstanceOf(
                    IllegalArgumentException.class);

            server.stop();
            assertThat(server.running()).isFalse();
            assertThat(currentUser(port, "secret").ok()).isFalse();
            server.stop(); // nothing: it is stopped

            server.start();
            assertThat(server.running()).isTrue();
            assertThat(currentUser(port, "secret").out().strip()).isEqualTo("koala");
        }
        assertThat(Files.readString(dir.resolve("postgresql.log"))).contains("database system is ready");
    }

    /**
     * What {@code testbed up --store postgres} asks of a server before it starts one: whether the directory holds a
     * cluster, whether it runs as asked (then it is left running) and whether the scheduler's database is ready.
     */
    @Test
    void aServerRunningAsAskedIsSeenSoAndItsDatabaseReadyOnlyWithTheRightPassword() throws IOException {
        Assumptions.assumeTrue(PostgresServer.installed(), "PostgreSQL is not installed (apt-get install postgresql)");
        dir = Files.createTempDirectory("koala-postgres-");
        int port = FreePort.any();
        assertThat(PostgresServer.version()).hasValueSatisfying(v -> assertThat(v).matches("[0-9]+(\\.[0-9]+)*"));

        PostgresServer before = PostgresServer.at(dir, port, List.of("127.0.0.1"), List.of());
        assertThat(before.made()).isFalse();
        assertThat(before.running()).isFalse();
        assertThat(before.runsWith(List.of("198.18.0.0/16"))).isFalse();

        try (PostgresServer server = PostgresServer.start(dir, port, List.of("127.0.0.1"), List.of("198.18.0.0/16"),
                List.of())) {
            PostgresServer seen = PostgresServer.at(dir, port, List.of("127.0.0.1"), List.of());
            assertThat(seen.made()).isTrue();
            assertThat(seen.runsWith(List.of("198.18.0.0/16"))).isTrue();
            assertThat(seen.runsWith(List.of("10.0.0.0/8"))).isFalse();
            assertThat(PostgresServer.at(dir, port, List.of("127.0.0.1", "::1"), List.of()).runsWith(
                    List.of("198.18.0.0/16"))).isFalse();
            assertThat(PostgresServer.at(dir, port + 1 > 65_535 ? port - 1 : port + 1, List.of("127.0.0.1"), List.of())
                    .runsWith(List.of("198.18.0.0/16"))).isFalse();

            assertThat(seen.hasDatabase("koala", "koala", "secret")).isFalse();
            server.createDatabase("koala", "koala", "secret");
            assertThat(seen.hasDatabase("koala", "koala", "secret")).isTrue();
            assertThat(seen.hasDatabase("koala", "koala", "other")).isFalse();
            assertThat(seen.hasDatabase("other", "koala", "secret")).isFalse();

            seen.stop();
            assertThat(server.running()).isFalse();
            assertThat(seen.runsWith(List.of("198.18.0.0/16"))).isFalse();
        }
    }

    /** What a scheduler's connection does: the owner logs in over TCP with its password. */
    private static Shell.Result currentUser(int port, String password) {
        return Shell.root().with(Map.of("PGPASSWORD", password, "PGCONNECT_TIMEOUT", "10")).run(
                PostgresServer.program("psql"), "-X", "-w", "-h", "127.0.0.1", "-p", String.valueOf(port), "-U", "koala",
                "-d", "koala", "-tAc", "select current_user");
    }
}
