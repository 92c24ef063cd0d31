package koala.scheduler.storage;

import static koala.scheduler.storage.H2Database.ts;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import koala.api.scheduler.TransitionView;
import koala.fjm.FrameworkRecord;
import koala.scheduler.accounting.UsageTotals;
import koala.scheduler.accounting.WorkerTally;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeSpan;

/**
 * The store as an embedded H2 file database: one store per entity ({@link H2Jobs}, {@link H2Nodes},
 * {@link H2History}, {@link H2Allocations}, {@link H2Accounting}, {@link H2Agents}, {@link H2Answers},
 * {@link H2SchedulerValues}, {@link H2Frameworks}), each with its tables' SQL, on one
 * {@link H2Database} that holds the connection, the units of work and H2's file. This class opens
 * them together, says what each call goes to, and forgets old jobs across them.
 *
 * <p>The schema is Flyway's versions ({@code koala/scheduler/storage/h2/V*.sql}), applied on every open; a
 * database from before opens as it did (the tables, their columns and indexes are named as ever).
 */
public final class H2Store implements Store {
    /**
     * The schema's versions (Flyway, {@code koala/scheduler/storage/h2/V*.sql}), then what a database from
     * before Flyway needs changed in place. A database without Flyway's table is taken as version 0 and
     * brought up by every version: the first is today's schema as statements that change nothing a database
     * already has, so one made by any release before opens as it did.
     */
    private static final H2Database.Schema SCHEMA = (db, url) -> {
        org.flywaydb.core.Flyway.configure(H2Store.class.getClassLoader())
                .dataSource(url, "koala", "")
                .locations("classpath:koala/scheduler/storage/h2")
                .table("koala_schema_history")
                .baselineOnMigrate(true).baselineVersion("0")
                .load().migrate();
        H2Accounting.recordsInline(db);
    };

    private final H2Database db;
    private final H2Jobs jobs;
    private final H2Nodes nodes;
    private final H2History history;
    private final H2Allocations allocations;
    private final H2Accounting accounting;
    private final H2Agents agents;
    private final H2Answers answers;
    private final H2SchedulerValues values;
    private final H2Frameworks frameworks;

    private H2Store(H2Database db) {
        this.db = db;
        this.jobs = new H2Jobs(db);
        this.nodes = new H2Nodes(db);
        this.history = new H2History(db);
        this.allocations = new H2Allocations(db);
        this.accounting = new H2Accounting(db);
        this.agents = new H2Agents(db);
        this.answers = new H2Answers(db);
        this.values = new H2SchedulerValues(db);
        this.frameworks = new H2Frameworks(db);
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
        return new H2Store(H2Database.open(file, settings, SCHEMA));
    }

    /** A store in memory, gone when closed: the same schema and SQL, for tests and benchmarks. */
    public static H2Store inMemory() {
        return new H2Store(H2Database.inMemory(SCHEMA));
    }

    /** What the store has done since it was opened, for a benchmark to tell where the time went. */
    public record Stats(long units, long commitNanos, long statements, long statementNanos) {
        public Stats minus(Stats earlier) {
            return new Stats(units - earlier.units, commitNanos - earlier.commitNanos, statements - earlier.statements,
                    statementNanos - earlier.statementNanos);
        }
    }

    public Stats stats() {
        return db.stats();
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
        db.backupTo(zip);
    }

    @Override
    public <T> T inTransaction(Supplier<T> work) {
        return db.inTransaction(work);
    }

    @Override
    public void afterCommit(Runnable action) {
        db.afterCommit(action);
    }

    /** Each store forgets its rows of the old jobs, the jobs last (the others find theirs through them). */
    @Override
    public int forget(Instant before) {
        List<Object> at = List.of(ts(before));
        return db.inTransaction(() -> {
            nodes.forget(at);
            history.forget(at);
            allocations.forget(at);
            accounting.forget(at);
            frameworks.forget(at);
            answers.forget(at);
            return jobs.forget(at);
        });
    }

    @Override
    public void close() {
        db.close();
    }

    // ---- each call to its entity's store ------------------------------------------------------

    @Override
    public long nextJobId() {
        return jobs.nextJobId();
    }

    @Override
    public void saveJob(JobRecord job, Instant at) {
        jobs.saveJob(job, at);
    }

    @Override
    public List<JobRecord> jobs() {
        return jobs.jobs();
    }

    @Override
    public Optional<JobRecord> job(long id) {
        return jobs.job(id);
    }

    @Override
    public List<JobRecord> jobsSince(Instant endedAfter) {
        return jobs.jobsSince(endedAfter);
    }

    @Override
    public void saveNode(NodeClaim node) {
        nodes.saveNode(node);
    }

    @Override
    public List<NodeClaim> nodes(long job) {
        return nodes.nodes(job);
    }

    @Override
    public void saveSpan(NodeSpan span) {
        nodes.saveSpan(span);
    }

    @Override
    public List<NodeSpan> spans(long job) {
        return nodes.spans(job);
    }

    @Override
    public void recordTransition(long job, TransitionView transition) {
        history.recordTransition(job, transition);
    }

    @Override
    public List<TransitionView> history(long job) {
        return history.history(job);
    }

    @Override
    public void appendComponent(long job, int index, String component) {
        allocations.appendComponent(job, index, component);
    }

    @Override
    public List<String> components(long job) {
        return allocations.components(job);
    }

    @Override
    public void saveRoles(long job, String roles) {
        allocations.saveRoles(job, roles);
    }

    @Override
    public Optional<String> roles(long job) {
        return allocations.roles(job);
    }

    @Override
    public void saveUsageRecord(long job, String record) {
        accounting.saveUsageRecord(job, record);
    }

    @Override
    public void usageRecordWritten(long job, Instant at) {
        accounting.usageRecordWritten(job, at);
    }

    @Override
    public Map<Long, String> unwrittenUsageRecords() {
        return accounting.unwrittenUsageRecords();
    }

    @Override
    public void saveWorkerTally(long job, WorkerTally tally) {
        accounting.saveWorkerTally(job, tally);
    }

    @Override
    public Optional<WorkerTally> workerTally(long job) {
        return accounting.workerTally(job);
    }

    @Override
    public void addUsage(UsageTotals.Key owner, UsageTotals added) {
        accounting.addUsage(owner, added);
    }

    @Override
    public Map<UsageTotals.Key, UsageTotals> usageTotals() {
        return accounting.usageTotals();
    }

    @Override
    public void saveAgent(AgentRecord agent) {
        agents.saveAgent(agent);
    }

    @Override
    public Map<String, AgentRecord> agents() {
        return agents.agents();
    }

    @Override
    public Optional<Answer> answer(String owner, String requestId) {
        return answers.answer(owner, requestId);
    }

    @Override
    public void saveAnswer(String owner, String requestId, String request, String answer, Instant at) {
        answers.saveAnswer(owner, requestId, request, answer, at);
    }

    @Override
    public String pilotTag() {
        return values.pilotTag();
    }

    @Override
    public Optional<String> state(String name) {
        return values.state(name);
    }

    @Override
    public void saveState(String name, String value) {
        values.saveState(name, value);
    }

    @Override
    public void saveFramework(FrameworkRecord record) {
        frameworks.saveFramework(record);
    }

    @Override
    public List<FrameworkRecord> frameworks() {
        return frameworks.frameworks();
    }
}
