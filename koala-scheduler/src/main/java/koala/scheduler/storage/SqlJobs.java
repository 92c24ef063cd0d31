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

    private final SqlDatabase db;

    SqlJobs(SqlDatabase db) {
        this.db = db;
    }

    @Override
    public long nextJobId() {
        return db.query(db.dialect().nextValue("job_ids"), List.of(), rs -> rs.getLong(1)).get(0);
    }

    /**
     * The job's changing part (state, tries, claim failures, reason, when it ended) is updated in
     * place; its description (the JDF, a CLOB that H2 copies anew whenever it is written) is written
     * once, when the job is first saved.
     */
    @Override
    public void saveJob(JobRecord j, Instant at) {
        db.inTransaction(() -> {
            int updated = db.updated("UPDATE jobs SET state = ?, place_tries = ?, claim_failures = ?, waiting = ?, "
                    + "ended_at = CASE WHEN ? THEN COALESCE(ended_at, ?) END WHERE id = ?", List.of(j.state().name(),
                    j.placeTries(), j.claimFailures(), nullable(j.waitingBecause()), j.state().ended(), ts(at), j.id()));
            if (updated == 0) {
                db.update("INSERT INTO jobs (id, name, source, jdf, kind, state, policy, priority, place_tries, "
                        + "claim_failures, waiting, submitted_at, owner, ended_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        List.of(j.id(), j.name(), j.source(), j.jdf(), j.kind(), j.state().name(), j.policy(),
                                j.priority(), j.placeTries(), j.claimFailures(), nullable(j.waitingBecause()),
                                ts(j.submittedAt()), nullable(j.owner()), nullable(j.state().ended() ? ts(at) : null)));
            }
        });
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
