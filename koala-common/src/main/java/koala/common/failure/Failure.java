package koala.common.failure;

/**
 * Why the domain refuses what it was asked: the few ways a request can fail, as types, so that
 * domain code says what went wrong and only the HTTP edge ({@code koala.http.FailureStatus})
 * decides which status that is. The message is what the caller reads; {@link #field()} names the
 * request field at fault, when there is one.
 *
 * <p>Throw the subclass that says what happened: {@link NotFound}, {@link Gone} (was there, is no
 * more), {@link Conflict} (the thing is
 * in a state that does not allow it), {@link InvalidField}, {@link Unavailable} (try again later),
 * {@link Forbidden} (not the caller's), {@link OverLimit} (past a per-user cap),
 * {@link Unauthenticated} (the caller did not prove who it is) or {@link Refused} (well-formed, but
 * the system behind KOALA will not do it, e.g. SGE refuses a job).
 */
public abstract sealed class Failure extends RuntimeException
        permits NotFound, Gone, Conflict, InvalidField, Unavailable, Forbidden, OverLimit, Unauthenticated, Refused {

    /** The kinds, one per subclass, for code that switches over them (the edge does, exhaustively). */
    public enum Kind { NOT_FOUND, GONE, CONFLICT, INVALID_FIELD, UNAVAILABLE, FORBIDDEN, OVER_LIMIT, UNAUTHENTICATED, REFUSED }

    private final String field;

    Failure(String message, String field) {
        super(message);
        this.field = field;
    }

    Failure(String message, String field, Throwable cause) {
        super(message, cause);
        this.field = field;
    }

    public abstract Kind kind();

    /** The request field at fault, or null. */
    public String field() {
        return field;
    }
}
