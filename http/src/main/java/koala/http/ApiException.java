package koala.http;

/**
 * A request refused over HTTP, with the status and a reason the caller can read: what a client
 * gets back from a server, and what an API class (the HTTP edge) throws for a request it cannot
 * read. Domain code throws a {@link koala.common.failure.Failure} instead, and the edge maps it
 * ({@link FailureStatus}). When the problem is one field of the request body, {@link #field()}
 * names it.
 */
public class ApiException extends RuntimeException {
    private final int status;
    private final String field;
    private final boolean unreached;

    public ApiException(int status, String message) {
        this(status, message, null);
    }

    public ApiException(int status, String message, String field) {
        this(status, message, field, false);
    }

    private ApiException(int status, String message, String field, boolean unreached) {
        super(message);
        this.status = status;
        this.field = field;
        this.unreached = unreached;
    }

    /** The client could not reach the server at all (connection refused, no route): a 503 the server never sent. */
    public static ApiException unreached(String message) {
        return new ApiException(503, message, null, true);
    }

    /** The answer to a request that failed with {@code failure}, as a client of that server sees it. */
    public static ApiException of(koala.common.failure.Failure failure) {
        return new ApiException(FailureStatus.of(failure), failure.getMessage(), failure.field());
    }

    /**
     * Whether asking again later may succeed: the server was unreachable, did not answer in time,
     * or answered that it is unavailable (503, 504). Anything else will fail the same way again.
     */
    public boolean transientFailure() {
        return status == 503 || status == 504;
    }

    /**
     * Whether the server read the request and refused it (a 4xx: unknown, not allowed, in conflict,
     * invalid): the same request will be refused again, so a caller gives up rather than retries.
     */
    public boolean refused() {
        return status >= 400 && status < 500;
    }

    /** Whether the server was never reached: nothing is listening, or the network is in the way. */
    public boolean unreached() {
        return unreached;
    }

    public static ApiException badRequest(String field, String reason) {
        return new ApiException(400, field + ": " + reason, field);
    }

    public static ApiException notFound(String what) {
        return new ApiException(404, what + " not found");
    }

    public static ApiException unavailable(String reason) {
        return new ApiException(503, reason);
    }

    public int status() {
        return status;
    }

    public String field() {
        return field;
    }

    public ApiError toError() {
        return new ApiError(getMessage(), field);
    }
}
