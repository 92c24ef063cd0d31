package koala.scheduler.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.TransitionView;
import koala.fjm.FrameworkRecord;
import koala.scheduler.accounting.UsageTotals;
import koala.scheduler.accounting.WorkerTally;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeSpan;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.state.JobState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The database on disk is the same whichever store makes its tables: a database of the release before
 * the store was split per entity ({@link #SCHEMA_BEFORE}, its schema as one text) with the columns
 * added since ({@link #ADDED_SINCE}) and one made now have the same tables, columns, types, keys, indexes and sequence; and one written then opens now
 * with every row it had, its job ids and transition numbers going on from where they were.
 */
class SchemaTest {
    /** The schema as the release before made it, word for word: what a scheduler's database on disk has. */
    static final String SCHEMA_BEFORE = """
            CREATE TABLE IF NOT EXISTS jobs (id BIGINT PRIMARY KEY, name VARCHAR, source VARCHAR, jdf CLOB,
              kind VARCHAR, state VARCHAR, policy VARCHAR, priority VARCHAR, place_tries INT, claim_failures INT,
              waiting VARCHAR, submitted_at TIMESTAMP WITH TIME ZONE);
            CREATE TABLE IF NOT EXISTS nodes (id VARCHAR PRIMARY KEY, job BIGINT, component INT, node_rank INT,
              site VARCHAR, state VARCHAR, pilot VARCHAR, host VARCHAR, exit_status INT, token VARCHAR,
              submitted_at TIMESTAMP WITH TIME ZONE, attempt INT);
            CREATE INDEX IF NOT EXISTS nodes_job ON nodes(job);
            CREATE TABLE IF NOT EXISTS transitions (job BIGINT, seq BIGINT AUTO_INCREMENT PRIMARY KEY,
              at TIMESTAMP WITH TIME ZONE, from_state VARCHAR, to_state VARCHAR, event VARCHAR, reason VARCHAR);
            CREATE INDEX IF NOT EXISTS transitions_job ON transitions(job);
            CREATE TABLE IF NOT EXISTS agents (site VARCHAR PRIMARY KEY, url VARCHAR, pid BIGINT);
            ALTER TABLE agents ADD COLUMN IF NOT EXISTS secret VARCHAR;
            CREATE TABLE IF NOT EXISTS frameworks (id BIGINT PRIMARY KEY, name VARCHAR, jdf_file VARCHAR, jdf CLOB,
              policy VARCHAR, parameters CLOB, runner VARCHAR, master_node VARCHAR, master_address VARCHAR,
              registered_at TIMESTAMP WITH TIME ZONE);
            ALTER TABLE jobs ADD COLUMN IF NOT EXISTS owner VARCHAR;
            ALTER TABLE frameworks ADD COLUMN IF NOT EXISTS runner_state VARCHAR;
            CREATE TABLE IF NOT EXISTS meta (name VARCHAR PRIMARY KEY, val VARCHAR);
            CREATE SEQUENCE IF NOT EXISTS job_ids START WITH 1;
            ALTER SEQUENCE job_ids CACHE 1024;
            CREATE TABLE IF NOT EXISTS components (job BIGINT, idx INT, spec CLOB, PRIMARY KEY (job, idx));
            CREATE TABLE IF NOT EXISTS answers (owner VARCHAR, request VARCHAR, answer CLOB,
              at TIMESTAMP WITH TIME ZONE, PRIMARY KEY (owner, request));
            ALTER TABLE jobs ADD COLUMN IF NOT EXISTS ended_at TIMESTAMP WITH TIME ZONE;
            CREATE INDEX IF NOT EXISTS jobs_ended ON jobs(ended_at);
            CREATE TABLE IF NOT EXISTS node_spans (node VARCHAR, attempt INT, job BIGINT, component INT, site VARCHAR,
              arrived_at TIMESTAMP WITH TIME ZONE, started_at TIMESTAMP WITH TIME ZONE,
              ended_at TIMESTAMP WITH TIME ZONE, ended_as VARCHAR, cpu_seconds DOUBLE PRECISION,
              PRIMARY KEY (node, attempt));
            CREATE INDEX IF NOT EXISTS node_spans_job ON node_spans(job);
            CREATE TABLE IF NOT EXISTS usage_records (job BIGINT PRIMARY KEY, record VARCHAR,
              written_at TIMESTAMP WITH TIME ZONE);
            ALTER TABLE nodes ADD COLUMN IF NOT EXISTS daemon CLOB;
            CREATE TABLE IF NOT EXISTS worker_tallies (job BIGINT PRIMARY KEY, busy_seconds DOUBLE PRECISION,
              cpu_seconds DOUBLE PRECISION, reported_seconds DOUBLE PRECISION);
            CREATE TABLE IF NOT EXISTS allocation_roles (job BIGINT PRIMARY KEY, roles VARCHAR);
            ALTER TABLE answers ADD COLUMN IF NOT EXISTS asked CLOB;
            """;

    /** What this release adds to {@link #SCHEMA_BEFORE}: a database of the release before gets it when opened. */
    static final String ADDED_SINCE = """
            ALTER TABLE nodes ADD COLUMN IF NOT EXISTS gpus VARCHAR;
            ALTER TABLE agents ADD COLUMN IF NOT EXISTS host VARCHAR;
            ALTER TABLE frameworks ADD COLUMN IF NOT EXISTS runner_host VARCHAR;
            ALTER TABLE frameworks ADD COLUMN IF NOT EXISTS runner_generation BIGINT DEFAULT 0 NOT NULL;
            CREATE TABLE IF NOT EXISTS usage_totals (owner VARCHAR NOT NULL, kind VARCHAR NOT NULL,
              records BIGINT NOT NULL, node_seconds DOUBLE PRECISION NOT NULL, core_seconds DOUBLE PRECISION NOT NULL,
              memory_gb_seconds DOUBLE PRECISION NOT NULL, gpu_seconds DOUBLE PRECISION NOT NULL,
              PRIMARY KEY (owner, kind));
            """;

    /** Flyway's own table, where it keeps which versions of the schema a database has. */
    private static final String NOT_FLYWAYS = " AND TABLE_NAME <> 'koala_schema_history'";

    @TempDir
    Path dir;

    @Test
    void theTablesAreTheOnesTheReleaseBeforeMade() throws Exception {
        Path before = dir.resolve("before");
        try (Connection db = connect(before); Statement s = db.createStatement()) {
            s.execute(SCHEMA_BEFORE);
            s.execute(ADDED_SINCE);
        }
        try (H2Store store = H2Store.open(dir.resolve("now"))) {
            assertThat(store.jobs()).isEmpty();
        }

        List<String> then = describe(before);
        List<String> now = describe(dir.resolve("now"));
        assertThat(now).isEqualTo(then);
        assertThat(then).as("12 tables' columns, their keys and indexes, and the job ids").hasSizeGreaterThan(90)
                .contains("column JOBS.OWNER 13 CHARACTER VARYING", "column USAGE_RECORDS.RECORD 2 CHARACTER VARYING",
                        "sequence JOB_IDS 1 1024", "index TRANSITIONS_JOB on TRANSITIONS (JOB)");
    }

    @Test
    void aDatabaseWrittenByTheReleaseBeforeOpensWithEveryRow() throws Exception {
        Path file = dir.resolve("koala");
        Instant t = Instant.parse("2026-11-25T10:00:00Z");
        try (Connection db = connect(file); Statement s = db.createStatement()) {
            s.execute(SCHEMA_BEFORE);
            s.execute("SELECT NEXT VALUE FOR job_ids"); // job 1 was given out
            s.execute("INSERT INTO jobs (id, name, source, jdf, kind, state, policy, priority, place_tries, claim_failures,"
                    + " waiting, submitted_at, owner) VALUES (1, 'runner', '-', '{}', 'ALLOCATION', 'RUNNING', 'wf', 'high',"
                    + " 2, 1, NULL, TIMESTAMP WITH TIME ZONE '2026-11-25 10:00:00+00', 'alice')");
            s.execute("INSERT INTO nodes (id, job, component, node_rank, site, state, pilot, host, exit_status, token,"
                    + " submitted_at, attempt, daemon) VALUES ('1.0.0', 1, 0, 0, 'fs0', 'RUNNING', '41', 'fs0-n1', NULL,"
                    + " 'tok', TIMESTAMP WITH TIME ZONE '2026-11-25 10:00:00+00', 1, '[\"dask\"]')");
            s.execute("INSERT INTO transitions (job, seq, at, from_state, to_state, event, reason) VALUES (1, 41,"
                    + " TIMESTAMP WITH TIME ZONE '2026-11-25 10:00:00+00', 'QUEUED', 'RUNNING', 'OPENED', NULL)");
            s.execute("INSERT INTO agents VALUES ('fs0', 'http://127.0.0.1:41234', 777, 'c2VjcmV0')");
            s.execute("INSERT INTO frameworks (id, name, jdf_file, jdf, policy, parameters, runner, master_node,"
                    + " master_address, registered_at, runner_state) VALUES (1, 'demo', 'demo.jdf', '&(...)', 'ondemand',"
                    + " '{\"fMax\":\"8\"}', 'http://127.0.0.1:7601', '1.0.0', 'fs0-n1:7700',"
                    + " TIMESTAMP WITH TIME ZONE '2026-11-25 10:00:00+00', '/home/alice/.koala/runners/runner-1.json')");
            s.execute("INSERT INTO meta VALUES ('pilot_tag', 'k0a1a2'), ('state.arbitration.book', '{\"owed\":[]}')");
            s.execute("INSERT INTO components VALUES (1, 0, '{\"count\":1}')");
            s.execute("INSERT INTO allocation_roles VALUES (1, '[]')");
            s.execute("INSERT INTO answers (owner, request, answer, at, asked) VALUES ('alice', 'r-1', '1',"
                    + " TIMESTAMP WITH TIME ZONE '2026-11-25 10:00:00+00', '{\"kind\":\"OPEN\"}')");
            s.execute("INSERT INTO node_spans VALUES ('1.0.0', 1, 1, 0, 'fs0', TIMESTAMP WITH TIME ZONE"
                    + " '2026-11-25 10:00:00+00', NULL, NULL, NULL, NULL)");
            s.execute("INSERT INTO usage_records VALUES (1, '{\"job\":1}', NULL)");
            s.execute("INSERT INTO worker_tallies VALUES (1, 12.5, NULL, 30.0)");
        }

        try (H2Store store = H2Store.open(file)) {
            assertThat(store.job(1)).contains(new JobRecord(1, "runner", "-", "{}", "ALLOCATION", JobState.RUNNING, "wf",
                    "high", 2, 1, null, t, "alice"));
            assertThat(store.nodes(1)).containsExactly(new NodeClaim("1.0.0", 1, 0, 0, "fs0", NodeState.RUNNING, "41",
                    "fs0-n1", null, "tok", t, 1, List.of("dask")));
            assertThat(store.history(1)).containsExactly(new TransitionView(t, "QUEUED", "RUNNING", "OPENED", null));
            assertThat(store.agents()).containsExactly(Map.entry("fs0", new Store.AgentRecord("fs0",
                    "http://127.0.0.1:41234", 777, "c2VjcmV0")));
            assertThat(store.frameworks()).containsExactly(new FrameworkRecord(1, "demo", "demo.jdf", "&(...)", "ondemand",
                    Map.of("fMax", "8"), "http://127.0.0.1:7601", "1.0.0", "fs0-n1:7700", t,
                    "/home/alice/.koala/runners/runner-1.json"));
            assertThat(store.pilotTag()).isEqualTo("k0a1a2");
            assertThat(store.state("arbitration.book")).contains("{\"owed\":[]}");
            assertThat(store.components(1)).containsExactly("{\"count\":1}");
            assertThat(store.roles(1)).contains("[]");
            assertThat(store.answer("alice", "r-1")).contains(new Store.Answer("1", "{\"kind\":\"OPEN\"}"));
            assertThat(store.spans(1)).containsExactly(new NodeSpan("1.0.0", 1, 1, 0, "fs0", t, null, null, null, null));
            assertThat(store.unwrittenUsageRecords()).containsExactly(Map.entry(1L, "{\"job\":1}"));
            assertThat(store.workerTally(1)).contains(new WorkerTally(12.5, null, 30.0));
            assertThat(store.usageTotals()).as("none kept before: counted from the first record on").isEmpty();
            UsageTotals.Key alice = new UsageTotals.Key("alice", "job");
            store.addUsage(alice, new UsageTotals(1, 180, 720, 1440, 0));
            store.addUsage(alice, new UsageTotals(1, 30, 30, 15, 60));
            assertThat(store.usageTotals()).containsExactly(Map.entry(alice, new UsageTotals(2, 210, 750, 1455, 60)));

            assertThat(store.nextJobId()).as("the ids go on").isEqualTo(2);
            store.recordTransition(1, new TransitionView(t.plusSeconds(60), "RUNNING", "RUNNING", "GREW", "1 worker"));
        }
        try (Connection db = connect(file); Statement s = db.createStatement();
             ResultSet rs = s.executeQuery("SELECT seq FROM transitions ORDER BY seq")) {
            List<Long> seqs = new ArrayList<>();
            while (rs.next()) {
                seqs.add(rs.getLong(1));
            }
            assertThat(seqs).as("numbered on from the last").containsExactly(41L, 42L);
        }
    }

    private static Connection connect(Path file) throws SQLException {
        return DriverManager.getConnection("jdbc:h2:file:" + file.toAbsolutePath(), "koala", "");
    }

    /**
     * The database's schema as lines: each column with its place and type, each table's primary key,
     * each index with its columns (H2 names a key's own index after a counter, so keys go by their columns),
     * and the sequences.
     */
    private static List<String> describe(Path file) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection db = connect(file); Statement s = db.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT TABLE_NAME, COLUMN_NAME, ORDINAL_POSITION, DATA_TYPE, IS_NULLABLE,"
                    + " COLUMN_DEFAULT, IS_IDENTITY FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = 'PUBLIC'" + NOT_FLYWAYS
                    + " ORDER BY TABLE_NAME, ORDINAL_POSITION")) {
                while (rs.next()) {
                    out.add("column " + rs.getString(1) + "." + rs.getString(2) + " " + rs.getInt(3) + " "
                            + rs.getString(4) + (rs.getString(5).equals("YES") ? "" : " not null")
                            + (rs.getString(6) == null ? "" : " default " + rs.getString(6))
                            + (rs.getString(7).equals("YES") ? " identity" : ""));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT i.TABLE_NAME, i.INDEX_NAME, i.INDEX_TYPE_NAME,"
                    + " LISTAGG(c.COLUMN_NAME, ', ') WITHIN GROUP (ORDER BY c.ORDINAL_POSITION)"
                    + " FROM INFORMATION_SCHEMA.INDEXES i JOIN INFORMATION_SCHEMA.INDEX_COLUMNS c"
                    + " ON c.INDEX_SCHEMA = i.INDEX_SCHEMA AND c.INDEX_NAME = i.INDEX_NAME"
                    + " WHERE i.TABLE_SCHEMA = 'PUBLIC'" + NOT_FLYWAYS.replace("TABLE_NAME", "i.TABLE_NAME") + " GROUP BY i.TABLE_NAME, i.INDEX_NAME, i.INDEX_TYPE_NAME"
                    + " ORDER BY i.TABLE_NAME, i.INDEX_TYPE_NAME, 4")) {
                while (rs.next()) {
                    out.add(rs.getString(3).equals("PRIMARY KEY")
                            ? "primary key of " + rs.getString(1) + " (" + rs.getString(4) + ")"
                            : "index " + rs.getString(2) + " on " + rs.getString(1) + " (" + rs.getString(4) + ")");
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT SEQUENCE_NAME, START_VALUE, CACHE FROM INFORMATION_SCHEMA.SEQUENCES"
                    + " WHERE SEQUENCE_SCHEMA = 'PUBLIC' ORDER BY SEQUENCE_NAME")) {
                while (rs.next()) {
                    out.add("sequence " + rs.getString(1) + " " + rs.getLong(2) + " " + rs.getLong(3));
                }
            }
        }
        return out;
    }
}
