package koala.scheduler.storage;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.common.api.TransitionView;
import koala.common.json.Json;
import koala.scheduler.accounting.WorkerTally;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeSpan;
import koala.scheduler.claiming.NodeState;
import koala.fjm.FrameworkRecord;
import koala.scheduler.state.JobState;

/**
 * The store as an embedded H2 file database, on one connection that one thread uses at a time: the
 * scheduler's loop, and now and then the agent watch ({@link #saveAgent}), which waits while the
 * loop is in a unit of work.
 *
 * <p><b>Durability.</b> Autocommit is off: a unit of work ({@link #inTransaction}) commits once, at
 * its end, and a write outside a unit is a unit of its own. H2's {@code WRITE_DELAY=0} makes each
 * commit write its changes to the file before {@code commit()} returns (with a delay above 0, H2
 * only marks them, and its background thread writes them up to that many milliseconds later: what
 * a {@code kill -9} in between loses, though the caller was told it was done). So once a unit has
 * returned its writes are in the operating system's hands and survive a {@code kill -9} of this
 * process; a unit that had not returned left nothing (H2 ignores a chunk whose commit is not
 * complete in the file when it opens it). As before, and like every H2 commit, it is not forced to
 * the disk ({@code fsync}): a power cut or a crash of the host itself loses what the operating
 * system had not written out yet.
 *
 * <p><b>Cost.</b> Each commit writes every page the unit changed, so the loop's units (each a batch
 * of calls, events and rounds) commit together what used to be a dozen commits of a statement each.
 * Statements are prepared once and kept. With {@code WRITE_DELAY=0} H2 runs no background thread,
 * so this store tidies H2's file itself ({@link #tidy}). The schema is made, and brought up to date,
 * on every open: {@code CREATE ... IF NOT EXISTS} for tables, {@code ALTER TABLE ... ADD COLUMN IF
 * NOT EXISTS} for columns added since (rows from before read them as NULL).
 */
public final class H2Store implements Store {
    private static final String SCHEMA = """
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

    private final Connection db;
    /** Held by the thread in a unit of work, and by one making a write or a read outside one. */
    private final java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock(true);
    /** How many units the lock's holder is in (0: none); guarded by {@link #lock}, as every field below. */
    private int depth;
    private final List<Runnable> afterCommit = new ArrayList<>();
    private final Map<String, PreparedStatement> prepared = new java.util.HashMap<>();
    private long units;
    private long commitNanos;
    private long statements;
    private long statementNanos;
    private volatile String pilotTag;
    /**
     * The last transition's number, counted here rather than by the column's own sequence: H2 writes
     * a sequence's state with a commit of its own every 32 values, a third of all the commits.
     */
    private long lastTransition;
    /** H2's store underneath, for {@link #tidy}; null in memory. */
    private final org.h2.mvstore.MVStore files;
    /** Every this many commits, H2's chunks filled less than {@link #TIDY_FILL_RATE}% are rewritten, up to {@link #TIDY_BYTES}. */
    private static final int TIDY_EVERY = 64;
    private static final int TIDY_FILL_RATE = 90;
    private static final int TIDY_BYTES = 512 * 1024;

    private H2Store(Connection db) throws SQLException {
        this.db = db;
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT COALESCE(MAX(seq), 0) FROM transitions")) {
            rs.next();
            lastTransition = rs.getLong(1);
        }
        db.setAutoCommit(false);
        org.h2.mvstore.MVStore store = ((org.h2.engine.SessionLocal) db.unwrap(org.h2.jdbc.JdbcConnection.class)
                .getSession()).getDatabase().getStore().getMvStore();
        this.files = store.getFileStore() == null ? null : store;
    }

    /** What the store has done since it was opened, for a benchmark to tell where the time went. */
    public record Stats(long units, long commitNanos, long statements, long statementNanos) {
        public Stats minus(Stats earlier) {
            return new Stats(units - earlier.units, commitNanos - earlier.commitNanos, statements - earlier.statements,
                    statementNanos - earlier.statementNanos);
        }
    }

    public Stats stats() {
        lock.lock();
        try {
            return new Stats(units, commitNanos, statements, statementNanos);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public <T> T inTransaction(java.util.function.Supplier<T> work) {
        List<Runnable> then;
        T result;
        lock.lock();
        try {
            if (depth > 0) {
                depth++;
                try {
                    return work.get(); // joins the unit it is in: commits or is undone with it
                } finally {
                    depth--;
                }
            }
            depth = 1;
            try {
                result = work.get();
            } catch (RuntimeException | Error e) {
                depth = 0;
                undo(e);
                throw e;
            }
            depth = 0;
            commit();
            then = List.copyOf(afterCommit);
            afterCommit.clear();
        } finally {
            lock.unlock();
        }
        then.forEach(Runnable::run);
        return result;
    }

    @Override
    public void afterCommit(Runnable action) {
        lock.lock();
        try {
            if (depth > 0) {
                afterCommit.add(action);
                return;
            }
        } finally {
            lock.unlock();
        }
        action.run();
    }

    private void commit() {
        long start = System.nanoTime();
        try {
            db.commit();
        } catch (SQLException e) {
            undo(e);
            throw new StoreException("commit: " + e.getMessage(), e);
        } finally {
            units++;
            commitNanos += System.nanoTime() - start;
        }
        if (units % TIDY_EVERY == 0) {
            tidy();
        }
    }

    /**
     * Rewrites the live pages of H2's sparsest chunks (filled under {@value #TIDY_FILL_RATE}%, up to
     * {@value #TIDY_BYTES} bytes of them) into new ones every {@value #TIDY_EVERY} commits, so that the
     * old chunks can be dropped. H2 does this on its background thread, which {@code WRITE_DELAY=0}
     * stops: without it every chunk that keeps a live page stays, with its bookkeeping in the heap
     * (about a kilobyte) and its space in the file; with a commit per statement that was a few chunks
     * for every job kept. Nothing acknowledged is at stake: the pages are copied into a new chunk,
     * committed like any, and the old one is dropped only once nothing refers to it.
     */
    private void tidy() {
        if (files != null) {
            long start = System.nanoTime();
            try {
                files.compact(TIDY_FILL_RATE, TIDY_BYTES);
            } finally {
                commitNanos += System.nanoTime() - start;
            }
        }
    }

    /**
     * Copies the database, as its last commit left it, into the zip file {@code zip} (H2's
     * {@code BACKUP TO}), while the scheduler runs: on this store's connection, between two units of
     * work (the loop's next unit waits until the copy is made; H2 copies the file's live chunks, a
     * few megabytes a second at worst). The zip holds the database's file under its own name
     * ({@code koala.mv.db}): unpacked beside where the scheduler looks for it, it is the database as
     * it was. An existing {@code zip} is overwritten; {@link Backups} picks a new name in a private
     * directory and sets the file's mode.
     *
     * @throws IllegalStateException inside a unit of work (its writes are not committed yet), or in memory
     */
    public void backupTo(Path zip) {
        lock.lock();
        try {
            if (depth > 0) {
                throw new IllegalStateException("a backup is taken between units of work, not inside one");
            }
            if (files == null) {
                throw new IllegalStateException("a database in memory has no file to back up");
            }
            try (Statement s = db.createStatement()) {
                s.execute("BACKUP TO '" + zip.toAbsolutePath().toString().replace("'", "''") + "'");
                db.commit();
            } catch (SQLException e) {
                throw new StoreException("cannot back up the scheduler database to " + zip + ": " + e.getMessage(), e);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Undoes the unit's writes and forgets its actions; a failure to undo is added to {@code cause}. */
    private void undo(Throwable cause) {
        afterCommit.clear();
        try {
            db.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * Opens (creating if needed) the database {@code file}.mv.db, readable by this account only: it
     * holds the agents' secrets and the nodes' tokens. A directory made for it is private too (one
     * that exists is left as it is: {@code scheduler.database} may name a file in a shared one).
     */
    public static H2Store open(Path file) {
        return open(file, "");
    }

    /**
     * As {@link #open(Path)}, with H2 settings added to its URL (e.g. {@code ;CACHE_SIZE=2048}: a
     * benchmark that measures the scheduler's heap keeps H2's page cache, 16 MB by default, small).
     */
    public static H2Store open(Path file, String settings) {
        privateDirectory(file.toAbsolutePath().getParent());
        try {
            // "retry:": a thread interrupted while it writes (JSch leaves interrupt flags behind, executors
            // interrupt on shutdown) must not close the database's file under every other thread
            Connection db = DriverManager.getConnection("jdbc:h2:retry:" + file.toAbsolutePath() + ";DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0" + settings,
                    "koala", "");
            privateFile(Path.of(file.toAbsolutePath() + ".mv.db"));
            try (Statement s = db.createStatement()) {
                s.execute(SCHEMA);
            }
            recordsInline(db);
            return new H2Store(db);
        } catch (SQLException e) {
            throw new StoreException("cannot open the scheduler database " + file + ".mv.db: " + e.getMessage(), e);
        }
    }

    /** A store in memory, gone when closed: the same schema and SQL, for tests and benchmarks. */
    public static H2Store inMemory() {
        try {
            Connection db = DriverManager.getConnection("jdbc:h2:mem:koala-" + java.util.UUID.randomUUID(), "koala", "");
            try (Statement s = db.createStatement()) {
                s.execute(SCHEMA);
            }
            recordsInline(db);
            return new H2Store(db);
        } catch (SQLException e) {
            throw new StoreException("cannot open a database in memory: " + e.getMessage(), e);
        }
    }

    /**
     * A usage record (some 600 characters of JSON), written twice for every job, was a CLOB: H2 keeps
     * a CLOB longer than 256 characters apart from its row and cleans up its old copies on a thread
     * of its own, which the loop asked for after nearly every commit. A database from before keeps
     * its records, as VARCHARs now.
     */
    private static void recordsInline(Connection db) throws SQLException {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery("SELECT DATA_TYPE FROM "
                + "INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = 'PUBLIC' AND TABLE_NAME = 'USAGE_RECORDS' AND "
                + "COLUMN_NAME = 'RECORD'")) {
            if (rs.next() && "CHARACTER LARGE OBJECT".equals(rs.getString(1))) {
                s.execute("ALTER TABLE usage_records ALTER COLUMN record SET DATA TYPE VARCHAR");
            }
        }
    }

    private static void privateDirectory(Path dir) {
        if (java.nio.file.Files.isDirectory(dir)) {
            return;
        }
        try {
            java.nio.file.Files.createDirectories(dir, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        } catch (java.io.IOException | UnsupportedOperationException e) {
            throw new StoreException("cannot make the scheduler database's directory " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void privateFile(Path file) {
        try {
            java.nio.file.Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
        } catch (java.io.IOException | UnsupportedOperationException e) {
            throw new StoreException("cannot make the scheduler database " + file + " private: " + e.getMessage(), e);
        }
    }

    /**
     * Made on the database's first open from 6 random letters and digits, then read back ever after;
     * kept here once known (it never changes), since placement asks for it every time it looks.
     */
    @Override
    public String pilotTag() {
        String known = pilotTag;
        if (known != null) {
            return known;
        }
        return inTransaction(() -> {
            List<String> kept = query("SELECT val FROM meta WHERE name = 'pilot_tag'", List.of(), rs -> rs.getString(1));
            if (!kept.isEmpty()) {
                pilotTag = kept.get(0);
                return kept.get(0);
            }
            java.security.SecureRandom random = new java.security.SecureRandom();
            StringBuilder tag = new StringBuilder();
            for (int i = 0; i < 6; i++) {
                tag.append(Character.forDigit(random.nextInt(36), 36));
            }
            update("INSERT INTO meta (name, val) VALUES ('pilot_tag', ?)", List.of(tag.toString()));
            afterCommit(() -> pilotTag = tag.toString()); // known for good once it is on disk
            return tag.toString();
        });
    }

    @Override
    public java.util.Optional<String> state(String name) {
        return query("SELECT val FROM meta WHERE name = ?", List.of("state." + name), rs -> rs.getString(1)).stream()
                .findFirst();
    }

    @Override
    public void saveState(String name, String value) {
        update("MERGE INTO meta (name, val) KEY (name) VALUES (?, ?)", List.of("state." + name, value));
    }

    @Override
    public long nextJobId() {
        return query("SELECT NEXT VALUE FOR job_ids", List.of(), rs -> rs.getLong(1)).get(0);
    }

    /**
     * The job's changing part (state, tries, claim failures, reason, when it ended) is updated in
     * place; its description (the JDF, a CLOB that H2 copies anew whenever it is written) is written
     * once, when the job is first saved.
     */
    @Override
    public void saveJob(JobRecord j, Instant at) {
        inTransaction(() -> {
            int updated = updated("UPDATE jobs SET state = ?, place_tries = ?, claim_failures = ?, waiting = ?, "
                    + "ended_at = CASE WHEN ? THEN COALESCE(ended_at, ?) END WHERE id = ?", List.of(j.state().name(),
                    j.placeTries(), j.claimFailures(), nullable(j.waitingBecause()), j.state().ended(), ts(at), j.id()));
            if (updated == 0) {
                update("INSERT INTO jobs (id, name, source, jdf, kind, state, policy, priority, place_tries, "
                        + "claim_failures, waiting, submitted_at, owner, ended_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        List.of(j.id(), j.name(), j.source(), j.jdf(), j.kind(), j.state().name(), j.policy(),
                                j.priority(), j.placeTries(), j.claimFailures(), nullable(j.waitingBecause()),
                                ts(j.submittedAt()), nullable(j.owner()), nullable(j.state().ended() ? ts(at) : null)));
            }
        });
    }

    @Override
    public void saveNode(NodeClaim n) {
        update("MERGE INTO nodes (id, job, component, node_rank, site, state, pilot, host, exit_status, token, "
                + "submitted_at, attempt, daemon) KEY(id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", List.of(n.id(), n.job(),
                n.component(), n.rank(), n.site(), n.state().name(), nullable(n.pilot()), nullable(n.host()),
                nullable(n.exitStatus()), n.token(), nullable(ts(n.submittedAt())), n.attempt(),
                nullable(n.daemon() == null ? null : Json.write(n.daemon()))));
    }

    @Override
    public void appendComponent(long job, int index, String component) {
        update("MERGE INTO components (job, idx, spec) KEY(job, idx) VALUES (?,?,?)", List.of(job, index, component));
    }

    @Override
    public List<String> components(long job) {
        return query("SELECT spec FROM components WHERE job = ? ORDER BY idx", List.of(job), rs -> rs.getString(1));
    }

    @Override
    public void saveRoles(long job, String roles) {
        update("MERGE INTO allocation_roles (job, roles) KEY(job) VALUES (?,?)", List.of(job, roles));
    }

    @Override
    public java.util.Optional<String> roles(long job) {
        return query("SELECT roles FROM allocation_roles WHERE job = ?", List.of(job), rs -> rs.getString(1)).stream()
                .findFirst();
    }

    @Override
    public void recordTransition(long job, TransitionView t) {
        inTransaction(() -> update("INSERT INTO transitions (job, seq, at, from_state, to_state, event, reason) "
                + "VALUES (?,?,?,?,?,?,?)", List.of(job, ++lastTransition, ts(t.at()), t.from(), t.to(), t.event(),
                nullable(t.reason()))));
    }

    @Override
    public void saveAgent(AgentRecord a) {
        update("MERGE INTO agents (site, url, pid, secret) KEY(site) VALUES (?,?,?,?)", List.of(a.site(), a.url(), a.pid(),
                nullable(a.secret())));
    }

    @Override
    public List<JobRecord> jobs() {
        return query("SELECT * FROM jobs ORDER BY id", List.of(), H2Store::job);
    }

    @Override
    public java.util.Optional<JobRecord> job(long id) {
        return query("SELECT * FROM jobs WHERE id = ?", List.of(id), H2Store::job).stream().findFirst();
    }

    @Override
    public List<JobRecord> jobsSince(Instant endedAfter) {
        return query("SELECT * FROM jobs WHERE ended_at IS NULL OR ended_at > ? ORDER BY id", List.of(ts(endedAfter)),
                H2Store::job);
    }

    private static JobRecord job(ResultSet rs) throws SQLException {
        return new JobRecord(rs.getLong("id"),
                rs.getString("name"), rs.getString("source"), rs.getString("jdf"), rs.getString("kind"),
                JobState.valueOf(rs.getString("state")), rs.getString("policy"), rs.getString("priority"),
                rs.getInt("place_tries"), rs.getInt("claim_failures"), rs.getString("waiting"),
                instant(rs.getTimestamp("submitted_at")), rs.getString("owner"));
    }

    @Override
    public int forget(Instant before) {
        List<Object> at = List.of(ts(before));
        String old = "(SELECT id FROM jobs WHERE ended_at < ?)";
        return inTransaction(() -> {
            update("DELETE FROM nodes WHERE job IN " + old, at);
            update("DELETE FROM transitions WHERE job IN " + old, at);
            update("DELETE FROM components WHERE job IN " + old, at);
            update("DELETE FROM allocation_roles WHERE job IN " + old, at);
            update("DELETE FROM node_spans WHERE job IN " + old, at);
            update("DELETE FROM worker_tallies WHERE job IN " + old, at);
            // a record the accounting file does not have yet stays until it has it
            update("DELETE FROM usage_records WHERE written_at IS NOT NULL AND job IN " + old, at);
            update("DELETE FROM frameworks WHERE id IN " + old, at);
            update("DELETE FROM answers WHERE at < ?", at);
            return updated("DELETE FROM jobs WHERE ended_at < ?", at);
        });
    }

    @Override
    public void saveSpan(NodeSpan n) {
        update("MERGE INTO node_spans (node, attempt, job, component, site, arrived_at, started_at, ended_at, ended_as, "
                + "cpu_seconds) KEY(node, attempt) VALUES (?,?,?,?,?,?,?,?,?,?)", List.of(n.node(), n.attempt(),
                n.job(), n.component(), n.site(), ts(n.arrivedAt()), nullable(ts(n.startedAt())),
                nullable(ts(n.endedAt())), nullable(n.endedAs()), nullable(n.cpuSeconds())));
    }

    @Override
    public List<NodeSpan> spans(long job) {
        return query("SELECT * FROM node_spans WHERE job = ? ORDER BY node, attempt", List.of(job),
                rs -> new NodeSpan(rs.getString("node"), rs.getInt("attempt"), rs.getLong("job"), rs.getInt("component"),
                        rs.getString("site"), instant(rs.getTimestamp("arrived_at")),
                        instant(rs.getTimestamp("started_at")), instant(rs.getTimestamp("ended_at")),
                        rs.getString("ended_as"), rs.getObject("cpu_seconds", Double.class)));
    }

    @Override
    public void saveUsageRecord(long job, String record) {
        update("MERGE INTO usage_records (job, record, written_at) KEY(job) VALUES (?, ?, NULL)",
                List.of(job, nullable(record)));
    }

    @Override
    public void usageRecordWritten(long job, Instant at) {
        update("UPDATE usage_records SET written_at = ? WHERE job = ?", List.of(ts(at), job));
    }

    @Override
    public Map<Long, String> unwrittenUsageRecords() {
        Map<Long, String> records = new LinkedHashMap<>();
        query("SELECT job, record FROM usage_records WHERE written_at IS NULL ORDER BY job", List.of(),
                rs -> new java.util.AbstractMap.SimpleEntry<>(rs.getLong(1), rs.getString(2)))
                .forEach(e -> records.put(e.getKey(), e.getValue()));
        return records;
    }

    @Override
    public void saveWorkerTally(long job, WorkerTally t) {
        update("MERGE INTO worker_tallies (job, busy_seconds, cpu_seconds, reported_seconds) KEY(job) VALUES (?,?,?,?)",
                List.of(job, t.busySeconds(), nullable(t.cpuSeconds()), t.reportedSeconds()));
    }

    @Override
    public java.util.Optional<WorkerTally> workerTally(long job) {
        return query("SELECT busy_seconds, cpu_seconds, reported_seconds FROM worker_tallies WHERE job = ?",
                List.of(job), rs -> new WorkerTally(rs.getDouble(1), rs.getObject(2, Double.class), rs.getDouble(3)))
                .stream().findFirst();
    }

    @Override
    public java.util.Optional<Answer> answer(String owner, String requestId) {
        return query("SELECT answer, asked FROM answers WHERE owner = ? AND request = ?", List.of(owner, requestId),
                rs -> new Answer(rs.getString(1), rs.getString(2))).stream().findFirst();
    }

    @Override
    public void saveAnswer(String owner, String requestId, String request, String answer, Instant at) {
        update("MERGE INTO answers (owner, request, asked, answer, at) KEY(owner, request) VALUES (?,?,?,?,?)",
                List.of(owner, requestId, nullable(request), answer, ts(at)));
    }

    @Override
    public List<NodeClaim> nodes(long job) {
        return query("SELECT * FROM nodes WHERE job = ? ORDER BY component, node_rank", List.of(job),
                rs -> new NodeClaim(rs.getString("id"), rs.getLong("job"), rs.getInt("component"),
                        rs.getInt("node_rank"), rs.getString("site"), NodeState.valueOf(rs.getString("state")),
                        rs.getString("pilot"), rs.getString("host"), (Integer) rs.getObject("exit_status"),
                        rs.getString("token"), instant(rs.getTimestamp("submitted_at")), rs.getInt("attempt"),
                        words(rs.getString("daemon"))));
    }

    /** A JSON array of strings as written by {@link #saveNode}; null for none. */
    private static List<String> words(String json) {
        if (json == null) {
            return null;
        }
        try {
            return Json.mapper().readValue(json, new com.fasterxml.jackson.core.type.TypeReference<List<String>>() { });
        } catch (java.io.IOException e) {
            throw new IllegalStateException("nodes.daemon is not a JSON array of strings: " + json, e);
        }
    }

    @Override
    public List<TransitionView> history(long job) {
        return query("SELECT * FROM transitions WHERE job = ? ORDER BY seq", List.of(job),
                rs -> new TransitionView(instant(rs.getTimestamp("at")), rs.getString("from_state"),
                        rs.getString("to_state"), rs.getString("event"), rs.getString("reason")));
    }

    @Override
    public Map<String, AgentRecord> agents() {
        Map<String, AgentRecord> agents = new LinkedHashMap<>();
        query("SELECT * FROM agents", List.of(), rs -> new AgentRecord(rs.getString("site"), rs.getString("url"),
                rs.getLong("pid"), rs.getString("secret"))).forEach(a -> agents.put(a.site(), a));
        return agents;
    }

    @Override
    public void saveFramework(FrameworkRecord f) {
        update("MERGE INTO frameworks (id, name, jdf_file, jdf, policy, parameters, runner, master_node, master_address, "
                + "registered_at, runner_state) KEY(id) VALUES (?,?,?,?,?,?,?,?,?,?,?)", List.of(f.id(), f.name(),
                nullable(f.jdfFile()), nullable(f.jdf()), f.policy(), Json.write(f.parameters()), nullable(f.runner()),
                nullable(f.masterNode()), nullable(f.masterAddress()), ts(f.registeredAt()), nullable(f.runnerState())));
    }

    @Override
    public List<FrameworkRecord> frameworks() {
        return query("SELECT * FROM frameworks ORDER BY id", List.of(), rs -> new FrameworkRecord(rs.getLong("id"),
                rs.getString("name"), rs.getString("jdf_file"), rs.getString("jdf"), rs.getString("policy"),
                parameters(rs.getString("parameters")), rs.getString("runner"), rs.getString("master_node"),
                rs.getString("master_address"), instant(rs.getTimestamp("registered_at")), rs.getString("runner_state")));
    }

    private static Map<String, String> parameters(String json) {
        try {
            return Json.mapper().readValue(json, new com.fasterxml.jackson.core.type.TypeReference<Map<String, String>>() { });
        } catch (java.io.IOException e) {
            throw new StoreException("unreadable framework parameters: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        lock.lock();
        try {
            for (PreparedStatement s : prepared.values()) {
                s.close();
            }
            db.close();
        } catch (SQLException e) {
            throw new StoreException("closing the database: " + e.getMessage(), e);
        } finally {
            lock.unlock();
        }
    }

    // ---- JDBC plumbing ----------------------------------------------------------------------

    @FunctionalInterface
    private interface Row<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** Marks a SQL NULL of the given type in a parameter list. */
    private record Null(int sqlType) {
    }

    private static Object nullable(Object value) {
        if (value != null) {
            return value;
        }
        return new Null(java.sql.Types.NULL);
    }

    private void update(String sql, List<Object> params) {
        updated(sql, params);
    }

    /** One statement, in the calling thread's unit, or as a unit of its own. */
    private int updated(String sql, List<Object> params) {
        return inTransaction(() -> {
            long start = System.nanoTime();
            try {
                return prepare(sql, params).executeUpdate();
            } catch (SQLException e) {
                throw new StoreException(sql + ": " + e.getMessage(), e);
            } finally {
                counted(start);
            }
        });
    }

    private <T> List<T> query(String sql, List<Object> params, Row<T> row) {
        return inTransaction(() -> {
            long start = System.nanoTime();
            try (ResultSet rs = prepare(sql, params).executeQuery()) {
                List<T> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(row.read(rs));
                }
                return out;
            } catch (SQLException e) {
                throw new StoreException(sql + ": " + e.getMessage(), e);
            } finally {
                counted(start);
            }
        });
    }

    private void counted(long start) {
        statements++;
        statementNanos += System.nanoTime() - start;
    }

    /** The statement for {@code sql}, prepared the first time it is asked for and kept, with {@code params} set. */
    private PreparedStatement prepare(String sql, List<Object> params) throws SQLException {
        PreparedStatement s = prepared.get(sql);
        if (s == null) {
            s = db.prepareStatement(sql);
            prepared.put(sql, s);
        }
        for (int i = 0; i < params.size(); i++) {
            Object p = params.get(i);
            if (p instanceof Null n) {
                s.setNull(i + 1, n.sqlType());
            } else {
                s.setObject(i + 1, p);
            }
        }
        return s;
    }

    private static Timestamp ts(Instant i) {
        return i == null ? null : Timestamp.from(i);
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
