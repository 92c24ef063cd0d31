package koala.testbed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The testbed's PostgreSQL as the schedulers' store ({@code testbed up --store postgres}): what the grid
 * configuration says of it, its password file, who holds its port, and how status shows it. Starting it is
 * {@link PostgresServerTest}'s (on a port of its own: the store's is the testbed's 5432).
 */
class TestbedStoreTest {
    @TempDir
    Path dir;

    @Test
    void theGridConfigurationNamesTheDatabaseOnTheKoalaHostItsLoginAndThePasswordFile() {
        assertThat(TestbedStore.url()).isEqualTo("jdbc:postgresql://198.18.0.1:5432/koala");
        assertThat(TestbedStore.gridSettings()).containsExactly(
                Map.entry("scheduler.database", "jdbc:postgresql://198.18.0.1:5432/koala"),
                Map.entry("scheduler.database.user", "koala"),
                Map.entry("scheduler.database.passwordFile", "/etc/koala/database.password"));
        assertThat(TestbedStore.DIR).isEqualTo(Path.of("/var/lib/koala-testbed/postgres"));
        assertThat(TestbedStore.LISTEN).containsExactly("127.0.0.1", "198.18.0.1");
        assertThat(TestbedStore.CLIENTS).containsExactly("198.18.0.0/16");
    }

    @Test
    void aNewPasswordIsThirtyTwoLettersAndDigits() {
        // a random source that counts: the alphabet in order, then round again
        SecureRandom counting = new SecureRandom() {
            private int next;

            @Override
            public int nextInt(int bound) {
                return next++ % bound;
            }
        };
        assertThat(TestbedStore.newPassword(counting)).isEqualTo("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef");
        assertThat(TestbedStore.newPassword(counting)).isEqualTo("ghijklmnopqrstuvwxyz0123456789AB");
        String random = TestbedStore.newPassword(new SecureRandom());
        assertThat(random).hasSize(32).matches("[A-Za-z0-9]{32}").isNotEqualTo(TestbedStore.newPassword(new SecureRandom()));
    }

    /** Made once, private from the start; a second up reads it and changes nothing; a loose mode is tightened. */
    @Test
    void thePasswordFileIsMadePrivateOnceAndReUsed() throws Exception {
        Path file = dir.resolve("koala").resolve("database.password");

        TestbedStore.Password made = TestbedStore.password(file, new SecureRandom());

        assertThat(made.value()).matches("[A-Za-z0-9]{32}");
        assertThat(made.changes()).containsExactly("made " + file + ", the database password (mode 600)");
        assertThat(Files.readString(file)).isEqualTo(made.value() + "\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.getOwner(file).getName()).isEqualTo(System.getProperty("user.name"));

        TestbedStore.Password again = TestbedStore.password(file, new SecureRandom());
        assertThat(again).isEqualTo(new TestbedStore.Password(made.value(), List.of()));

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThat(TestbedStore.password(file, new SecureRandom()).changes())
                .containsExactly(file + ": mode 600 (it was rw-r--r--)");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void anAdminsPasswordIsKeptAndOneSqlCannotTakeIsRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("database.password"), "Correct-Horse-7\nsecond line\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        assertThat(TestbedStore.password(file, new SecureRandom())).isEqualTo(
                new TestbedStore.Password("Correct-Horse-7", List.of()));

        Files.writeString(file, "it's\n");
        assertThatThrownBy(() -> TestbedStore.password(file, new SecureRandom())).isInstanceOf(TestbedException.class)
                .hasMessage(file + ": its first line is not a password the testbed can give PostgreSQL (empty, or with a "
                        + "quote, a backslash or a control character); remove the file and testbed up makes a new one");
        Files.writeString(file, "");
        assertThatThrownBy(() -> TestbedStore.password(file, new SecureRandom())).isInstanceOf(TestbedException.class);
        Path directory = Files.createDirectory(dir.resolve("a-directory"));
        assertThatThrownBy(() -> TestbedStore.password(directory, new SecureRandom()))
                .hasMessageStartingWith(directory + " is not a plain file");
    }

    @Test
    void thePortHeldByTheSystemsOwnClusterNamesItAndHowToStopIt() {
        String message = TestbedStore.takenMessage("127.0.0.1", 5432, Optional.of(
                new TestbedStore.SystemCluster(4242, Path.of("/var/lib/postgresql/15/main"))));

        assertThat(message).isEqualTo("port 5432 at 127.0.0.1 is taken by the system's own PostgreSQL cluster (pid 4242, "
                + "data /var/lib/postgresql/15/main, socket in /var/run/postgresql). The testbed's PostgreSQL listens on "
                + "port 5432 at 127.0.0.1 and 198.18.0.1, and the grid configuration names "
                + "jdbc:postgresql://198.18.0.1:5432/koala: stop that cluster (pg_ctlcluster 15 main stop), or bring the "
                + "testbed up without --store postgres");
        assertThat(TestbedStore.takenMessage("198.18.0.1", 5432, Optional.empty())).startsWith(
                "port 5432 at 198.18.0.1 is taken by a program other than the testbed's PostgreSQL (ss -ltnp "
                        + "'sport = :5432' names it). ").endsWith(": stop it, or bring the testbed up without --store postgres");
    }

    /** A cluster's socket lock file: its pid on the first line, its data directory on the second. */
    @Test
    void theSystemsClusterIsFoundByItsSocketsLockFileWhenItsProcessLives() throws Exception {
        Files.writeString(dir.resolve(".s.PGSQL.5432.lock"), ProcessHandle.current().pid()
                + "\n/var/lib/postgresql/15/main\n1733450000\n5432\n/var/run/postgresql\n");
        assertThat(TestbedStore.systemCluster(dir, 5432)).contains(
                new TestbedStore.SystemCluster(ProcessHandle.current().pid(), Path.of("/var/lib/postgresql/15/main")));
        assertThat(TestbedStore.systemCluster(dir, 5433)).isEmpty();

        Files.writeString(dir.resolve(".s.PGSQL.5432.lock"), "999999999\n/var/lib/postgresql/15/main\n");
        assertThat(TestbedStore.systemCluster(dir, 5432)).isEmpty();
    }

    @Test
    void aPortSomethingAnswersOnIsTakenAndAFreeOneIsNot() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            assertThat(TestbedStore.portTaken(List.of("127.0.0.1"), port, dir)).hasValueSatisfying(m -> assertThat(m)
                    .startsWith("port " + port + " at 127.0.0.1 is taken by a program other than the testbed's PostgreSQL"));
        }
        int free;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            free = s.getLocalPort();
        }
        assertThat(TestbedStore.portTaken(List.of("127.0.0.1"), free, dir)).isEmpty();
    }

    @Test
    void statusShowsTheStoreOnOneLine() {
        assertThat(StoreStatus.H2.describe()).isEqualTo("h2 (the scheduler's own file)");
        assertThat(StoreStatus.H2.up()).isTrue();
        StoreStatus running = new StoreStatus("postgresql", "15", "198.18.0.1", 5432, "koala",
                "/var/lib/koala-testbed/postgres", true);
        assertThat(running.describe()).isEqualTo("postgresql 15 at 198.18.0.1:5432 (running)");
        assertThat(running.up()).isTrue();
        StoreStatus stopped = new StoreStatus("postgresql", "15", "198.18.0.1", 5432, "koala",
                "/var/lib/koala-testbed/postgres", false);
        assertThat(stopped.describe()).isEqualTo("postgresql 15 at 198.18.0.1:5432 (stopped)");
        assertThat(stopped.up()).isFalse();
        assertThat(new StoreStatus("postgresql", null, "198.18.0.1", 5432, "koala", "/var/lib/koala-testbed/postgres",
                false).describe()).isEqualTo("postgresql at 198.18.0.1:5432 (stopped: PostgreSQL is not installed)");

        assertThat(koala.common.json.Json.write(StoreStatus.H2)).isEqualTo("{\"kind\":\"h2\"}");
        assertThat(koala.common.json.Json.write(running)).isEqualTo("{\"kind\":\"postgresql\",\"version\":\"15\","
                + "\"address\":\"198.18.0.1\",\"port\":5432,\"database\":\"koala\",\"directory\":"
                + "\"/var/lib/koala-testbed/postgres\",\"running\":true}");
    }
}
