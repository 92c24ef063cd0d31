package koala.scheduler.storage;

import static koala.scheduler.storage.SqlDatabase.instant;
import static koala.scheduler.storage.SqlDatabase.nullable;
import static koala.scheduler.storage.SqlDatabase.ts;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import koala.scheduler.state.JobState;

/** The jobs table and the sequence of job ids. */
final class SqlJobs implements JobStore {
    /** The ids of the jobs that ended before the one parameter: what the other tables forget with them. */
    static final String ENDED_BEFORE = "(SELECT id FROM jobs WHERE ended_at < ?)";
    /** The jobs a restart reads back, for the one parameter: live, or ended after it. */
    static final String LIVE_OR_ENDED_AFTER = "(SELECT id FROM jobs WHERE ended_at IS NULL OR ended_at > ?)";

    private final SqlDatabase db;
    /** A job's save: its changing part (state, tries, claim failures, reason, when it ended) written anew each time. */
    private final SqlDialect.Resave save;
    /** The sequence's next values, as many as a draw takes on this database. */
    private final String drawIds;

    SqlJobs(SqlDatabase db) {
        this.db = db;
        this.save = db.dialect().resave("jobs", List.of("id", "name", "source", "jdf", "kind", "state", "policy",
                "priority", "place_tries", "claim_failures", "waiting", "submitted_at", "owner", "ended_at"),
                List.of("state", "place_tries", "claim_failures", "waiting"), "ended_at");
        this.drawIds = db.dialect().nextValues("job_ids");
    }

    /** Ids drawn from the sequence and not given yet. */
    private final java.util.ArrayDeque<Long> drawn = new java.util.ArrayDeque<>();

    /**
     * The sequence's next value, drawn as the database draws them ({@link SqlDialect#nextValues}: on a server
     * several at a time, each draw a round trip): ids drawn and not given (a crash, a take-over) are skipped,
     * never given twice, as H2's cache skips them.
     */
    @Override
    public synchronized long nextJobId() {
        if (drawn.isEmpty()) {
            drawn.addAll(db.query(drawIds, List.of(), rs -> rs.getLong(1)));
        }
        return drawn.poll();
    }

    /**
     * The job's changing part is written anew; its description (the JDF) is kept as first written
     * ({@link SqlDialect#resave}: how, is each database's).
     */
    @Override
    public void saveJob(JobRecord j, Instant at) {
        save.save(db, List.of(j.id(), j.name(), j.source(), j.jdf(), j.kind(), j.state().name(), j.policy(), j.priority(),
                j.placeTries(), j.claimFailures(), nullable(j.waitingBecause()), ts(j.submittedAt()), nullable(j.owner()),
                nullable(j.state().ended() ? ts(at) : null)));
    }

    @Override
    public List<JobRecord> jobs() {
        return db.query("SELECT * FROM jobs ORDER BY id", List.of(), SqlJobs::job);
    }

    @Override
    public Optional<JobRecord> job(long id) {
        return db.query("SELECT * FROM jobs WHERE id = ?", List.of(id), SqlJobs::job).stream().findFirst();
    }

    @Override
    public List<JobRecord> jobsSince(Instant endedAfter) {
        return db.query("SELECT * FROM jobs WHERE ended_at IS NULL OR ended_at > ? ORDER BY id", List.of(ts(endedAfter)),
                SqlJobs::job);
    }

    /** Forgets the jobs that ended before {@code before}; the other tables forget theirs first. Returns how many. */
    int forget(List<Object> before) {
        return db.updated("DELETE FROM jobs WHERE ended_at < ?", before);
    }

    private static JobRecord job(ResultSet rs) throws SQLException {
        return new JobRecord(rs.getLong("id"),
                rs.getString("name"), rs.getString("source"), rs.getString("jdf"), rs.getString("kind"),
                JobState.valueOf(rs.getString("state")), rs.getString("policy"), rs.getString("priority"),
                rs.getInt("place_tries"), rs.getInt("claim_failures"), rs.getString("waiting"),
                instant(rs.getTimestamp("submitted_at")), rs.getString("owner"));
    }
}
