package koala.fluent.wire;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Map;
import java.util.function.Supplier;
import koala.http.ApiException;
import koala.http.JsonHttpServer;
import koala.http.Request;

/**
 * A secret its holder presents as {@code Authorization: Bearer SECRET}. Two are in use: the
 * instance's token, which the master asks of every caller (clients, DeviceManagers), and the
 * master's own key, which a DeviceManager asks of every caller (its master, and the other
 * DeviceManagers an application spans). Compared in constant time; {@link #toString()} hides it,
 * so that no log line carries it.
 */
public record Secret(String value) {
    /** 256 bits: the master's key, made afresh at each start. */
    private static final int RANDOM_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();

    public Secret {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("a secret cannot be empty");
        }
    }

    public static Secret random() {
        byte[] bytes = new byte[RANDOM_BYTES];
        RANDOM.nextBytes(bytes);
        return new Secret(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }

    /** The header a client sends with every request. */
    public Map<String, String> header() {
        return Map.of("Authorization", "Bearer " + value);
    }

    /**
     * {@code handler}, answering only requests that present the secret {@code expected} gives at the
     * time of the request (null: none yet, and nobody is let in); any other is refused with a 401
     * naming {@code what} was missing or wrong, and {@code handler} does not run.
     */
    public static JsonHttpServer.Handler required(Supplier<Secret> expected, String what,
                                                  JsonHttpServer.Handler handler) {
        return request -> {
            Secret secret = expected.get();
            String given = presented(request);
            if (given.isEmpty()) {
                throw new ApiException(401, "missing credentials: send Authorization: Bearer <" + what + ">",
                        "Authorization");
            }
            if (secret == null) {
                throw new ApiException(401, what + " is not known here yet: nobody is let in", "Authorization");
            }
            if (!MessageDigest.isEqual(secret.value.getBytes(StandardCharsets.UTF_8),
                    given.getBytes(StandardCharsets.UTF_8))) {
                throw new ApiException(401, "the secret presented is not " + what, "Authorization");
            }
            return handler.handle(request);
        };
    }

    private static String presented(Request request) {
        return request.header("Authorization").map(h -> h.replaceFirst("^Bearer\\s+", "").trim()).orElse("");
    }

    @Override
    public String toString() {
        return "Secret[hidden]";
    }
}
