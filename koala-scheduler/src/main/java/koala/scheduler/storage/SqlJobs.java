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

    /** Ids drawn from the server's sequence and not given yet (a database server: drawn {@value #BLOCK} at a time). */
    private final java.util.ArrayDeque<Long> drawn = new java.util.ArrayDeque<>();
    private static final int BLOCK = 64;

    /**
     * The sequence's next value. A database server's is drawn {@value #BLOCK} at a time, each draw a round
     * trip: ids drawn and not given (a crash, a take-over) are skipped, never given twice, as H2's cache skips them.
     */
    @Override
    public synchronized long nextJobId() {
        if (db.dialect() != SqlDialect.POSTGRESQL) {
            return db.query(db.dialect().nextValue("job_ids"), List.of(), rs -> rs.getLong(1)).get(0);
        }
        if (drawn.isEmpty()) {
            drawn.addAll(db.query("SELECT nextval('job_ids') FROM generate_series(1, " + BLOCK + ")", List.of(),
                    rs -> rs.getLong(1)));
        }
        return drawn.poll();
    }

    /**
     * The job's changing part (state, tries, claim failures, reason, when it ended) is updated in
     * place; its description (the JDF, a CLOB that H2 copies anew whenever it is written) is written
     * once, when the job is first saved.
     */
    @Override
    public void saveJob(JobRecord j, Instant at) {
        if (db.dialect() == SqlDialect.POSTGRESQL) {
            saveJobInOne(j, at);
            return;
        }
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

    /**
     * As {@link #saveJob}, in one statement whose count nobody needs, so that it waits in the unit's batch
     * of writes ({@link HeldWrites}) on a database server: the description is sent each time, and kept as first written.
     */
    private void saveJobInOne(JobRecord j, Instant at) {
        db.update("INSERT INTO jobs AS t (id, name, source, jdf, kind, state, policy, priority, place_tries, claim_failures, "
                + "waiting, submitted_at, owner, ended_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (id) DO UPDATE "
                + "SET state = EXCLUDED.state, place_tries = EXCLUDED.place_tries, claim_failures = EXCLUDED.claim_failures, "
                + "waiting = EXCLUDED.waiting, ended_at = CASE WHEN EXCLUDED.ended_at IS NOT NULL THEN "
                + "COALESCE(t.ended_at, EXCLUDED.ended_at) END",
                List.of(j.id(), j.name(), j.source(), j.jdf(), j.kind(), j.state().name(), j.policy(), j.priority(),
                        j.placeTries(), j.claimFailures(), nullable(j.waitingBecause()), ts(j.submittedAt()),
                        nullable(j.owner()), nullable(j.state().ended() ? ts(at) : null)));
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
