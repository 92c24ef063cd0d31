package koala.scheduler.storage;

import static koala.scheduler.storage.SqlDatabase.instant;
import static koala.scheduler.storage.SqlDatabase.nullable;
import static koala.scheduler.storage.SqlDatabase.ts;

import java.util.List;
import koala.api.scheduler.TransitionView;

/** The transitions table: every job's history, numbered in the order it was recorded. */
final class SqlHistory implements HistoryStore {

    private final SqlDatabase db;
    /**
     * The last transition's number, counted here rather than by the column's own sequence: H2 writes
     * a sequence's state with a commit of its own every 32 values, a third of all the commits.
     * Guarded by the database's unit of work, in which every write of one is made.
     */
    private long lastTransition;

    SqlHistory(SqlDatabase db) {
        this.db = db;
        recount();
    }

    /**
     * Reads the last transition's number again: a scheduler that opened the store as a standby, while
     * another led and recorded transitions, counts on from the leader's last once it leads.
     */
    void recount() {
        db.inTransaction(() -> {
            lastTransition = db.query("SELECT COALESCE(MAX(seq), 0) FROM transitions", List.of(), rs -> rs.getLong(1))
                    .get(0);
        });
    }

    @Override
    public void recordTransition(long job, TransitionView t) {
        db.inTransaction(() -> db.update("INSERT INTO transitions (job, seq, at, from_state, to_state, event, reason) "
                + "VALUES (?,?,?,?,?,?,?)", List.of(job, ++lastTransition, ts(t.at()), t.from(), t.to(), t.event(),
                nullable(t.reason()))));
    }

    @Override
    public List<TransitionView> history(long job) {
        return db.query("SELECT * FROM transitions WHERE job = ? ORDER BY seq", List.of(job), SqlHistory::transition);
    }

    /** The history of the jobs {@code jobs} (a subquery of ids) names, by job. */
    java.util.Map<Long, List<TransitionView>> historyOf(String jobs, List<Object> params) {
        return SqlDatabase.byJob(db.query("SELECT * FROM transitions WHERE job IN " + jobs + " ORDER BY job, seq",
                params, rs -> java.util.Map.entry(rs.getLong("job"), transition(rs))), java.util.Map.Entry::getKey,
                java.util.Map.Entry::getValue);
    }

    private static TransitionView transition(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new TransitionView(instant(rs.getTimestamp("at")), rs.getString("from_state"),
                rs.getString("to_state"), rs.getString("event"), rs.getString("reason"));
    }

    /** Forgets the history of the jobs that ended before the one parameter. */
    void forget(List<Object> before) {
        db.update("DELETE FROM transitions WHERE job IN " + SqlJobs.ENDED_BEFORE, before);
    }
}
