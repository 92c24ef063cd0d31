package koala.scheduler.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store on H2: the contract ({@link StoreContract}), and what only H2's file has (its mode, databases from before). */
class H2StoreTest extends StoreContract {
    @TempDir
    Path dir;

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

    /**
     * A database from before kept usage records as CLOBs (which H2 stores apart from their rows);
     * opened now, the column is a VARCHAR and the records read back as they were.
     */
    @Test
    void usageRecordsKeptAsClobsBeforeReadBackAsTheyWere() throws Exception {
        Path file = dir.resolve("old-records");
        String record = "{\"id\":1,\"pad\":\"" + "x".repeat(600) + "\"}";
        try (java.sql.Connection db = java.sql.DriverManager.getConnection("jdbc:h2:file:" + file.toAbsolutePath(), "koala", "");
             java.sql.Statement s = db.createStatement()) {
            s.execute("CREATE TABLE usage_records (job BIGINT PRIMARY KEY, record CLOB, written_at TIMESTAMP WITH TIME ZONE)");
            s.execute("INSERT INTO usage_records VALUES (1, '" + record + "', NULL)");
        }
        try (H2Store store = H2Store.open(file)) {
            assertThat(store.unwrittenUsageRecords()).isEqualTo(java.util.Map.of(1L, record));
        }
        try (java.sql.Connection db = java.sql.DriverManager.getConnection("jdbc:h2:file:" + file.toAbsolutePath(), "koala", "");
             java.sql.ResultSet rs = db.createStatement().executeQuery("SELECT DATA_TYPE FROM INFORMATION_SCHEMA.COLUMNS "
                     + "WHERE TABLE_NAME = 'USAGE_RECORDS' AND COLUMN_NAME = 'RECORD'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("CHARACTER VARYING");
        }
    }

    /**
     * A database from before allocations kept their roles' constraints (a jobs table, an allocation in it)
     * gains the table when opened: the old allocation has none, a new one keeps its roles across a reopen,
     * and they are forgotten with their job.
     */
    @Test
    void aDatabaseFromBeforeAllocationRolesGainsTheTableAndKeepsThemFromNowOn() throws Exception {
        Path file = dir.resolve("old-allocations");
        try (java.sql.Connection db = java.sql.DriverManager.getConnection("jdbc:h2:file:" + file.toAbsolutePath(), "koala", "");
             java.sql.Statement s = db.createStatement()) {
            s.execute("CREATE TABLE jobs (id BIGINT PRIMARY KEY, name VARCHAR, source VARCHAR, jdf CLOB, kind VARCHAR, "
                    + "state VARCHAR, policy VARCHAR, priority VARCHAR, place_tries INT, claim_failures INT, waiting VARCHAR, "
                    + "submitted_at TIMESTAMP WITH TIME ZONE)");
            s.execute("INSERT INTO jobs VALUES (1, 'runner', '-', '{}', 'ALLOCATION', 'RUNNING', 'fcm', 'high', 0, 0, "
                    + "NULL, TIMESTAMP WITH TIME ZONE '2026-11-25 10:00:00+00')");
        }
        String roles = "[{\"role\":\"master\",\"component\":0,\"tags\":[],\"constraints\":[\"anti-affinity "
                + "role=orchestrator site\"]}]";
        try (H2Store store = H2Store.open(file)) {
            assertThat(store.roles(1)).isEmpty();
            store.saveRoles(2, roles);
        }
        try (H2Store store = H2Store.open(file)) {
            assertThat(store.roles(2)).contains(roles);
            store.saveJob(job(2, koala.scheduler.state.JobState.FINISHED), java.time.Instant.parse("2026-11-25T10:00:00Z"));
            store.forget(java.time.Instant.parse("2026-11-25T11:00:00Z"));
            assertThat(store.roles(2)).isEmpty();
        }
    }

    @Override
    Store open(String name) {
        return H2Store.open(dir.resolve(name));
    }
}
