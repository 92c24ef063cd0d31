package koala.http;

import koala.common.failure.Conflict;
import koala.common.failure.Failure;
import koala.common.failure.Forbidden;
import koala.common.failure.Gone;
import koala.common.failure.InvalidField;
import koala.common.failure.NotFound;
import koala.common.failure.OverLimit;
import koala.common.failure.Refused;
import koala.common.failure.Unauthenticated;
import koala.common.failure.Unavailable;

/**
 * The HTTP status of each domain {@link Failure}: the one place the domain's failures meet HTTP.
 * A switch over the kinds, so a new kind does not compile until it has a status.
 */
public final class FailureStatus {
    private FailureStatus() {
    }

    public static int of(Failure failure) {
        return switch (failure.kind()) {
            case INVALID_FIELD -> 400;
            case UNAUTHENTICATED -> 401;
            case FORBIDDEN -> 403;
            case NOT_FOUND -> 404;
            case CONFLICT -> 409;
            case GONE -> 410;
            case REFUSED -> 422;
            case OVER_LIMIT -> 429;
            case UNAVAILABLE -> 503;
        };
    }

    /**
     * The domain failure that {@code answer} (a KOALA server's, as its client read it) reports: the
     * way back from a status, for code that calls another of KOALA's processes behind a domain
     * interface and must not reason in statuses. A 504 (no answer in time) and a server never reached
     * are {@link Unavailable} like a 503; a status with no kind of its own (a 500) is {@link Refused}:
     * asking again will not help.
     */
    public static Failure failureOf(ApiException answer) {
        String message = answer.getMessage();
        String field = answer.field();
        return switch (answer.status()) {
            case 400 -> InvalidField.worded(field == null ? "request" : field, message);
            case 401 -> new Unauthenticated(message, field);
            case 403 -> new Forbidden(message, field);
            case 404 -> NotFound.worded(message);
            case 409 -> new Conflict(message, field);
            case 410 -> new Gone(message, field);
            case 429 -> new OverLimit(message);
            case 503, 504 -> new Unavailable(message, answer);
            default -> new Refused(message);
        };
    }
}
