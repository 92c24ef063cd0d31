package koala.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;
import java.util.Set;

/**
 * A check a request must pass before its handler runs; it refuses by throwing
 * {@link ApiException} (401, 403, 404). A guard runs before the body is read, so an unwelcome
 * caller costs no more than its headers: the {@link Request} it sees has an empty body.
 * Guards are set per route ({@link JsonHttpServer#route(String, String, Guard, JsonHttpServer.Handler)})
 * or per endpoint for every route ({@link JsonHttpServer#guard(String, Guard)}).
 */
@FunctionalInterface
public interface Guard {
    /** Passes, or throws {@link ApiException}. */
    void check(Request request);

    /** Lets every request through. */
    Guard OPEN = request -> {
    };

    /** This guard, then {@code next}. */
    default Guard and(Guard next) {
        Objects.requireNonNull(next, "next");
        return request -> {
            check(request);
            next.check(request);
        };
    }

    /**
     * Serves the route only on these endpoints; elsewhere it does not exist (404, the same answer
     * as an unknown path, so the network side cannot tell a local-only route is there).
     */
    static Guard onlyOn(String... endpoints) {
        Set<String> allowed = Set.of(endpoints);
        return request -> {
            if (!allowed.contains(request.endpoint())) {
                throw new ApiException(404, "no such resource: " + request.path());
            }
        };
    }

    /**
     * Requires {@code Authorization: Bearer <secret>} (401 otherwise). Both sides are hashed first
     * and the hashes compared in constant time, so neither the secret's bytes nor its length leak
     * through response times.
     */
    static Guard bearer(String secret) {
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("a bearer secret must not be empty");
        }
        byte[] expected = sha256(secret);
        return request -> {
            String given = request.header("Authorization").orElse("");
            if (given.isEmpty()) {
                throw new ApiException(401, "missing token: send Authorization: Bearer <token>");
            }
            if (!given.regionMatches(true, 0, "Bearer ", 0, 7)) {
                throw new ApiException(401, "unsupported authorization: send Authorization: Bearer <token>");
            }
            if (!MessageDigest.isEqual(expected, sha256(given.substring(7).strip()))) {
                throw new ApiException(401, "wrong token");
            }
        };
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
