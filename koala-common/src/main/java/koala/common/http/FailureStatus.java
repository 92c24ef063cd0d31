package koala.common.http;

import koala.common.failure.Failure;

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
}
