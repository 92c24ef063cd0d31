package koala.scheduler.storage;

import static koala.scheduler.storage.SqlDatabase.nullable;
import static koala.scheduler.storage.SqlDatabase.ts;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The answers table: each owner's named requests carried out, with what they were answered.
 *
 * <p>A request named for the first time is told so from memory ({@link AnsweredNames}), without a look-up
 * in the table: on a database server a round trip for every named submit, which also sent the unit's held
 * answers first. The names are read from the table when the store opens and again when this scheduler is
 * fenced at its epoch ({@link #reload}, as the transitions are recounted): from then on only this scheduler
 * writes the table, and each answer it saves is added. A standby that takes over reads them anew rather
 * than trusting what it read as a standby; a leader that lost its lease may miss an answer the next one
 * gave, but then the work it does for it commits nothing (the fence refuses the unit), so nothing is
 * answered twice.
 */
final class SqlAnswers implements AnswerStore {
    private final SqlDatabase db;
    private final String saveAnswer;
    /** Every name the table holds, and perhaps some more; guarded by this, replaced whole by {@link #reload}. */
    private AnsweredNames names;

    SqlAnswers(SqlDatabase db) {
        this.db = db;
        this.saveAnswer = db.dialect().upsert("answers", List.of("owner", "request", "asked", "answer", "at"),
                List.of("owner", "request"));
        reload();
    }

    /**
     * Reads the names of the answered requests from the table, forgetting those it held. The names are
     * replaced in the same unit as they are read, and a name is added in the unit that saves its answer: the
     * database's lock orders the two, so that no answer is saved between the read and the replacement
     * unseen. This object's lock is only ever taken inside the database's, never around it.
     */
    void reload() {
        db.inTransaction(() -> {
            List<String[]> kept = db.query("SELECT owner, request FROM answers", List.of(),
                    rs -> new String[] {rs.getString(1), rs.getString(2)});
            AnsweredNames read = new AnsweredNames(kept.size() * 2);
            kept.forEach(k -> read.add(k[0], k[1]));
            synchronized (this) {
                names = read;
            }
        });
    }

    @Override
    public Optional<Answer> answer(String owner, String requestId) {
        if (full()) {
            reload();
        }
        if (!mayHold(owner, requestId)) {
            return Optional.empty();
        }
        return db.query("SELECT answer, asked FROM answers WHERE owner = ? AND request = ?", List.of(owner, requestId),
                rs -> new Answer(rs.getString(1), rs.getString(2))).stream().findFirst();
    }

    /** The name is added before the unit commits: a later request of the same unit must find it, and one undone only costs a look-up. */
    @Override
    public void saveAnswer(String owner, String requestId, String request, String answer, Instant at) {
        db.inTransaction(() -> {
            synchronized (this) {
                names.add(owner, requestId);
            }
            db.update(saveAnswer, List.of(owner, requestId, nullable(request), answer, ts(at)));
        });
    }

    private synchronized boolean full() {
        return names.full();
    }

    private synchronized boolean mayHold(String owner, String requestId) {
        return names.mayHold(owner, requestId);
    }

    /** Forgets the answers given before the one parameter (their names stay, each a look-up if asked again). */
    void forget(List<Object> before) {
        db.update("DELETE FROM answers WHERE at < ?", before);
    }
}
