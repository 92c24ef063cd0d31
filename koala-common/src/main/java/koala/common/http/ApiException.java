package koala.common.http;

/**
 * A request the server refuses, with the HTTP status and a reason the caller can read. When the
 * problem is one field of the request body, {@link #field()} names it.
 */
public class ApiException extends RuntimeException {
    private final int status;
    private final String field;

    public ApiException(int status, String message) {
        this(status, message, null);
    }

    public ApiException(int status, String message, String field) {
        super(message);
        this.status = status;
        this.field = field;
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
