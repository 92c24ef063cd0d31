package koala.scheduler.storage;

import java.time.Instant;
import java.util.Optional;

/** The answers to named requests, so that a request asked again is answered as before, not done twice. */
public interface AnswerStore {
    /**
     * A named request that was carried out: its answer (JSON), what a retry of it is answered instead
     * of doing it again, and the request itself (JSON: what a retry must repeat; null in an answer kept
     * before requests were), so that the name reused for another request is refused.
     */
    record Answer(String answer, String request) {
    }

    /** The answer given to {@code owner}'s request named {@code requestId}, if that request was carried out. */
    Optional<Answer> answer(String owner, String requestId);

    /** Keeps the answer to a named request with the request, in the same call as the work it answers is kept. */
    void saveAnswer(String owner, String requestId, String request, String answer, Instant at);
}
