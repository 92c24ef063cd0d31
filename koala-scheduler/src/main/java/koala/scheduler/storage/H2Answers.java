package koala.scheduler.storage;

import static koala.scheduler.storage.H2Database.nullable;
import static koala.scheduler.storage.H2Database.ts;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The answers table: each owner's named requests carried out, with what they were answered. */
final class H2Answers implements AnswerStore {
    /** {@code asked} (the request itself) was added after the table was first made. */

    private final H2Database db;

    H2Answers(H2Database db) {
        this.db = db;
    }

    @Override
    public Optional<Answer> answer(String owner, String requestId) {
        return db.query("SELECT answer, asked FROM answers WHERE owner = ? AND request = ?", List.of(owner, requestId),
                rs -> new Answer(rs.getString(1), rs.getString(2))).stream().findFirst();
    }

    @Override
    public void saveAnswer(String owner, String requestId, String request, String answer, Instant at) {
        db.update("MERGE INTO answers (owner, request, asked, answer, at) KEY(owner, request) VALUES (?,?,?,?,?)",
                List.of(owner, requestId, nullable(request), answer, ts(at)));
    }

    /** Forgets the answers given before the one parameter. */
    void forget(List<Object> before) {
        db.update("DELETE FROM answers WHERE at < ?", before);
    }
}
