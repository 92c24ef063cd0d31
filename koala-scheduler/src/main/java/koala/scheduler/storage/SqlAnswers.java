package koala.scheduler.storage;

import static koala.scheduler.storage.SqlDatabase.nullable;
import static koala.scheduler.storage.SqlDatabase.ts;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The answers table: each owner's named requests carried out, with what they were answered. */
final class SqlAnswers implements AnswerStore {
    /** {@code asked} (the request itself) was added after the table was first made. */

    private final SqlDatabase db;
    private final String saveAnswer;

    SqlAnswers(SqlDatabase db) {
        this.db = db;
        this.saveAnswer = db.dialect().upsert("answers", List.of("owner", "request", "asked", "answer", "at"),
                List.of("owner", "request"));
    }

    @Override
    public Optional<Answer> answer(String owner, String requestId) {
        return db.query("SELECT answer, asked FROM answers WHERE owner = ? AND request = ?", List.of(owner, requestId),
                rs -> new Answer(rs.getString(1), rs.getString(2))).stream().findFirst();
    }

    @Override
    public void saveAnswer(String owner, String requestId, String request, String answer, Instant at) {
        db.update(saveAnswer, List.of(owner, requestId, nullable(request), answer, ts(at)));
    }

    /** Forgets the answers given before the one parameter. */
    void forget(List<Object> before) {
        db.update("DELETE FROM answers WHERE at < ?", before);
    }
}
