package koala.scheduler.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class H2StoreTest {
    @TempDir
    Path dir;

    @Test
    void thePilotTagIsDrawnOnceAndKeptWithTheDatabase() {
        String tag;
        try (H2Store store = H2Store.open(dir.resolve("a"))) {
            tag = store.pilotTag();
            assertThat(tag).matches("[a-z0-9]{6}");
            assertThat(store.pilotTag()).isEqualTo(tag);
        }
        try (H2Store reopened = H2Store.open(dir.resolve("a"))) {
            assertThat(reopened.pilotTag()).as("after a restart").isEqualTo(tag);
        }
        try (H2Store other = H2Store.open(dir.resolve("b"))) {
            assertThat(other.pilotTag()).as("another scheduler's database").isNotEqualTo(tag);
        }
    }

    @Test
    void anAgentsSecretIsKeptForARestartedSchedulerToReattach() {
        try (H2Store store = H2Store.open(dir.resolve("a"))) {
            store.saveAgent(new Store.AgentRecord("fs0", "http://127.0.0.1:41234", 777, "c2VjcmV0"));
            store.saveAgent(new Store.AgentRecord("fs0", "http://127.0.0.1:41235", 778, "bmV3ZXI"));
        }
        try (H2Store reopened = H2Store.open(dir.resolve("a"))) {
            assertThat(reopened.agents()).containsExactly(java.util.Map.entry("fs0",
                    new Store.AgentRecord("fs0", "http://127.0.0.1:41235", 778, "bmV3ZXI")));
            assertThat(reopened.agents().get("fs0").toString()).doesNotContain("bmV3ZXI");
        }
    }

    @Test
    void theDatabaseAndADirectoryMadeForItAreReadableByItsAccountOnly() throws Exception {
        try (H2Store store = H2Store.open(dir.resolve("db").resolve("koala"))) {
            assertThat(permissions(dir.resolve("db"))).isEqualTo("rwx------");
            assertThat(permissions(dir.resolve("db").resolve("koala.mv.db"))).isEqualTo("rw-------");
        }
        Path shared = java.nio.file.Files.createDirectory(dir.resolve("shared"),
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x")));
        try (H2Store store = H2Store.open(shared.resolve("koala"))) {
            assertThat(permissions(shared)).as("a directory that was there is left as it is").isEqualTo("rwxr-xr-x");
            assertThat(permissions(shared.resolve("koala.mv.db"))).isEqualTo("rw-------");
        }
    }

    private static String permissions(Path p) throws java.io.IOException {
        return java.nio.file.attribute.PosixFilePermissions.toString(java.nio.file.Files.getPosixFilePermissions(p));
    }

    @Test
    void aDatabaseFromBeforeAgentsHadSecretsGainsTheColumnAndReadsNone() throws Exception {
        Path file = dir.resolve("old");
        try (java.sql.Connection db = java.sql.DriverManager.getConnection("jdbc:h2:file:" + file.toAbsolutePath(), "koala", "");
             java.sql.Statement s = db.createStatement()) {
            s.execute("CREATE TABLE agents (site VARCHAR PRIMARY KEY, url VARCHAR, pid BIGINT)");
            s.execute("INSERT INTO agents VALUES ('fs0', 'http://127.0.0.1:41234', 777)");
        }
        try (H2Store store = H2Store.open(file)) {
            assertThat(store.agents().get("fs0")).isEqualTo(new Store.AgentRecord("fs0", "http://127.0.0.1:41234", 777, null));
            store.saveAgent(new Store.AgentRecord("fs0", "http://127.0.0.1:41236", 779, "c2VjcmV0"));
            assertThat(store.agents().get("fs0").secret()).isEqualTo("c2VjcmV0");
        }
    }
}
