package koala.scheduler.storage;

import static koala.scheduler.storage.SqlDatabase.ts;

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
 * The store on a SQL database: one store per entity ({@link SqlJobs}, {@link SqlNodes},
 * {@link SqlHistory}, {@link SqlAllocations}, {@link SqlAccounting}, {@link SqlAgents}, {@link SqlAnswers},
 * {@link SqlSchedulerValues}, {@link SqlFrameworks}), each with its tables' SQL, on one
 * {@link SqlDatabase} that holds the connection and the units of work. This class opens them together,
 * says what each call goes to, and forgets old jobs across them. {@link H2Store} opens it on an
 * embedded H2 file, {@link PostgresStore} on a PostgreSQL server; the schema is Flyway's versions of
 * each ({@code koala/scheduler/storage/h2/V*.sql}, {@code .../postgresql/V*.sql}), applied on every open.
 */
public class SqlStore implements Store {
    private final SqlDatabase db;
    private final SqlJobs jobs;
    private final SqlNodes nodes;
    private final SqlHistory history;
    private final SqlAllocations allocations;
    private final SqlAccounting accounting;
    private final SqlAgents agents;
    private final SqlAnswers answers;
    private final SqlSchedulerValues values;
    private final SqlFrameworks frameworks;

    SqlStore(SqlDatabase db) {
        this.db = db;
        this.jobs = new SqlJobs(db);
        this.nodes = new SqlNodes(db);
        this.history = new SqlHistory(db);
        this.allocations = new SqlAllocations(db);
        this.accounting = new SqlAccounting(db);
        this.agents = new SqlAgents(db);
        this.answers = new SqlAnswers(db);
        this.values = new SqlSchedulerValues(db);
        this.frameworks = new SqlFrameworks(db);
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

    SqlDatabase database() {
        return db;
    }

    /**
     * From now on, this store's writes commit only while the lease of {@code epoch} ({@link #lease}) holds:
     * one that would commit after it passed, or after another scheduler took it over, is refused
     * ({@link LeadershipLost}, nothing written) and {@code lost} hears why; so does a unit that lost its
     * connection to the database.
     */
    public void fence(long epoch, java.time.Duration term, java.util.function.Consumer<String> lost) {
        db.fence(epoch, term, lost);
        reread(); // what the last leader wrote since this store was opened
    }

    /**
     * Reads again what the stores keep of their tables in memory (the last transition's number, the names of
     * the requests answered), after others wrote to them: a leader before this one, a copy into this store.
     */
    void reread() {
        history.recount();
        answers.reload();
    }

    /** The leader's lease of this store, of {@code term} at a time: {@link LeaderLease#ALONE} for a store one scheduler opens. */
    public LeaderLease lease(java.time.Duration term) {
        return LeaderLease.ALONE;
    }

    /**
     * Copies the database, as its last commit left it, into the file {@code zip} while the scheduler runs
     * ({@code koala admin backup}); the embedded H2 store does ({@link H2Store#backupTo}).
     *
     * @throws koala.common.failure.Refused on a database server, which its own tools back up
     */
    public void backupTo(java.nio.file.Path zip) {
        throw new koala.common.failure.Refused("the scheduler's store is a PostgreSQL database: back it up with "
                + "PostgreSQL's own tools (pg_dump, or a replica), not koala admin backup");
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
    public List<StoredJob> reload(Instant endedAfter) {
        List<Object> at = List.of(ts(endedAfter));
        String of = SqlJobs.LIVE_OR_ENDED_AFTER;
        return db.inTransaction(() -> {
            List<JobRecord> records = jobs.jobsSince(endedAfter);
            java.util.Map<Long, List<String>> components = allocations.componentsOf(of, at);
            java.util.Map<Long, String> roles = allocations.rolesOf(of, at);
            java.util.Map<Long, List<NodeClaim>> held = nodes.nodesOf(of, at);
            java.util.Map<Long, List<NodeSpan>> spans = nodes.spansOf(of, at);
            java.util.Map<Long, List<TransitionView>> transitions = history.historyOf(of, at);
            return records.stream().map(r -> new StoredJob(r, components.getOrDefault(r.id(), List.of()),
                    Optional.ofNullable(roles.get(r.id())), held.getOrDefault(r.id(), List.of()),
                    spans.getOrDefault(r.id(), List.of()), transitions.getOrDefault(r.id(), List.of()))).toList();
        });
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
