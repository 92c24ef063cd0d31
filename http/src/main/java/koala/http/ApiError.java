package koala.http;

/** The body of every error response: what is wrong and, for a bad request body, which field. */
public record ApiError(String error, String field) {
}
