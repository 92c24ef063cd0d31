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
    void aNamedStateIsReplacedAndKeptAcrossAReopen() {
        try (H2Store store = H2Store.open(dir.resolve("a"))) {
            assertThat(store.state("arbitration.book")).isEmpty();
            store.saveState("arbitration.book", "{\"owed\":[]}");
            store.saveState("arbitration.book", "{\"owed\":[1]}");
        }
        try (H2Store store = H2Store.open(dir.resolve("a"))) {
            assertThat(store.state("arbitration.book")).contains("{\"owed\":[1]}");
            assertThat(store.pilotTag()).hasSize(6);
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

    private static JobRecord job(long id, koala.scheduler.state.JobState state) {
        return new JobRecord(id, "j" + id, "j.jdf", "&(count = 1)(executable = /bin/true)", "RIGID", state, "wf",
                "high", 0, 0, null, java.time.Instant.parse("2026-11-25T10:00:00Z"), "alice");
    }

    /**
     * Jobs 1 and 2 end at 10:05 and 11:05, job 3 still runs. Kept in memory for 30 min, at 11:20 a
     * restarted scheduler loads jobs 2 and 3; a retention of one hour at 11:20 forgets job 1 (ended
     * 75 min before), its nodes and the answers older than 10:20 with it.
     */
    @Test
    void endedJobsAreLoadedOnlyWhileRecentAndForgottenAfterTheRetention() {
        java.time.Instant t = java.time.Instant.parse("2026-11-25T10:00:00Z");
        try (H2Store store = H2Store.open(dir.resolve("a"))) {
            for (long id = 1; id <= 3; id++) {
                store.saveJob(job(id, koala.scheduler.state.JobState.RUNNING), t);
            }
            store.saveNode(new koala.scheduler.claiming.NodeClaim("1.0.0", 1, 0, 0, "fs0",
                    koala.scheduler.claiming.NodeState.EXITED, "41", "fs0-n1", 0, "tok", t, 1));
            store.saveAnswer("alice", "r-1", null, "1", t);
            store.saveAnswer("alice", "r-3", "{\"kind\":\"SUBMIT\"}", "3", t.plusSeconds(3600));
            store.saveJob(job(1, koala.scheduler.state.JobState.FINISHED), t.plusSeconds(300));
            store.saveJob(job(1, koala.scheduler.state.JobState.FINISHED), t.plusSeconds(900)); // saved again: still ended at 10:05
            store.saveJob(job(2, koala.scheduler.state.JobState.FAILED), t.plusSeconds(3900));

            java.time.Instant now = t.plusSeconds(4800);
            assertThat(store.jobsSince(now.minusSeconds(1800))).extracting(JobRecord::id).containsExactly(2L, 3L);
            assertThat(store.job(1)).isPresent();

            assertThat(store.forget(now.minusSeconds(3600))).isEqualTo(1);
            assertThat(store.job(1)).isEmpty();
            assertThat(store.nodes(1)).isEmpty();
            assertThat(store.answer("alice", "r-1")).isEmpty();
            assertThat(store.answer("alice", "r-3")).contains(new Store.Answer("3", "{\"kind\":\"SUBMIT\"}"));
            assertThat(store.jobs()).extracting(JobRecord::id).containsExactly(2L, 3L);
        }
    }

    /**
     * Jobs 1 and 2 ended at 10:05 with usage records; the accounting file has job 1's, not yet job 2's.
     * The retention forgets both jobs with their spans and tallies, and job 1's record; job 2's stays
     * until the file has it. Spans and a tally are read back as saved, across a reopen.
     */
    @Test
    void usageRecordsOutliveTheRetentionUntilTheAccountingFileHasThem() {
        java.time.Instant t = java.time.Instant.parse("2026-11-25T10:00:00Z");
        koala.scheduler.claiming.NodeSpan span = new koala.scheduler.claiming.NodeSpan("1.0.0", 1, 1, 0, "fs0", t,
                t.plusSeconds(5), t.plusSeconds(300), "EXITED", 212.5);
        try (H2Store store = H2Store.open(dir.resolve("u"))) {
            for (long id = 1; id <= 2; id++) {
                store.saveJob(job(id, koala.scheduler.state.JobState.FINISHED), t.plusSeconds(300));
                store.saveUsageRecord(id, null);
                store.saveUsageRecord(id, "{\"id\":" + id + "}");
            }
            store.saveSpan(span);
            store.saveWorkerTally(1, new koala.scheduler.accounting.WorkerTally(60, null, 90));
            store.usageRecordWritten(1, t.plusSeconds(301));
        }
        try (H2Store store = H2Store.open(dir.resolve("u"))) {
            assertThat(store.spans(1)).containsExactly(span);
            assertThat(store.workerTally(1)).contains(new koala.scheduler.accounting.WorkerTally(60, null, 90));
            assertThat(store.unwrittenUsageRecords()).isEqualTo(java.util.Map.of(2L, "{\"id\":2}"));

            assertThat(store.forget(t.plusSeconds(3600))).isEqualTo(2);
            assertThat(store.spans(1)).isEmpty();
            assertThat(store.workerTally(1)).isEmpty();
            assertThat(store.unwrittenUsageRecords()).containsOnlyKeys(2L);
        }
    }

    @Test
    void anAllocationsGrowsAreAppendedInOrderAndReadBackAfterARestart() {
        try (H2Store store = H2Store.open(dir.resolve("a"))) {
            store.appendComponent(7, 0, "{\"index\":0}");
            store.appendComponent(7, 1, "{\"index\":1}");
            store.appendComponent(8, 0, "{\"index\":0,\"other\":true}");
        }
        try (H2Store reopened = H2Store.open(dir.resolve("a"))) {
            assertThat(reopened.components(7)).containsExactly("{\"index\":0}", "{\"index\":1}");
        }
    }

    /**
     * Transitions are numbered by the store, in the order they were recorded, and go on from the last
     * one after a restart: a job's history reads back in order across it.
     */
    @Test
    void aJobsHistoryKeepsItsOrderAcrossARestart() {
        java.time.Instant t = java.time.Instant.parse("2026-11-25T10:00:00Z");
        try (H2Store store = H2Store.open(dir.resolve("h"))) {
            store.recordTransition(1, new koala.api.scheduler.TransitionView(t, "", "QUEUED", "SUBMITTED", null));
            store.recordTransition(2, new koala.api.scheduler.TransitionView(t, "", "QUEUED", "SUBMITTED", null));
            store.recordTransition(1, new koala.api.scheduler.TransitionView(t, "QUEUED", "CLAIMING", "PLACED", "fs0"));
        }
        try (H2Store store = H2Store.open(dir.resolve("h"))) {
            store.recordTransition(1, new koala.api.scheduler.TransitionView(t, "CLAIMING", "RUNNING", "ALL_CLAIMED", null));
            assertThat(store.history(1)).extracting(koala.api.scheduler.TransitionView::event)
                    .containsExactly("SUBMITTED", "PLACED", "ALL_CLAIMED");
            assertThat(store.history(2)).hasSize(1);
        }
    }

    /** Later saves change a job's life (state, tries, reason), never what it is (its JDF, name, owner). */
    @Test
    void aJobSavedAgainKeepsWhatItIsAndChangesItsState() {
        java.time.Instant t = java.time.Instant.parse("2026-11-25T10:00:00Z");
        try (H2Store store = H2Store.open(dir.resolve("j"))) {
            JobRecord queued = job(1, koala.scheduler.state.JobState.QUEUED);
            store.saveJob(queued, t);
            store.saveJob(queued.triedOnce("no idle node").withState(koala.scheduler.state.JobState.CLAIMING), t);
            assertThat(store.job(1)).contains(queued.triedOnce("no idle node")
                    .withState(koala.scheduler.state.JobState.CLAIMING));
            assertThat(store.jobsSince(t.plusSeconds(3600))).as("not ended").hasSize(1);
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
}
