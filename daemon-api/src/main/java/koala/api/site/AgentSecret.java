package koala.api.site;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;

/**
 * The secret a site agent and its scheduler share: 32 random bytes, base64url without padding (43
 * characters). The scheduler makes a new one each time it starts an agent and hands it over on the
 * agent's standard input; never on a command line or in the environment, which others on the
 * machine can read ({@code ps}, {@code /proc/PID/cmdline}) or which leak into child processes.
 * Every request to the agent carries it as {@code Authorization: Bearer <secret>}.
 */
public final class AgentSecret {
    private static final int BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String SCHEME = "Bearer ";

    private final String value;

    private AgentSecret(String value) {
        this.value = value;
    }

    public static AgentSecret random() {
        byte[] bytes = new byte[BYTES];
        RANDOM.nextBytes(bytes);
        return new AgentSecret(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }

    /** A secret as written before (a store, a state file); an {@link IllegalArgumentException} if it is not one. */
    public static AgentSecret of(String value) {
        String v = value == null ? "" : value.strip();
        try {
            if (Base64.getUrlDecoder().decode(v).length == BYTES && !v.endsWith("=")) {
                return new AgentSecret(v);
            }
        } catch (IllegalArgumentException e) {
            // not base64url: refused below
        }
        throw new IllegalArgumentException("not an agent secret (" + BYTES + " bytes, base64url)");
    }

    /** The secret itself, for the one who keeps it (the scheduler's store, the agent's state file). */
    public String value() {
        return value;
    }

    /** The value of the {@code Authorization} header that proves knowledge of the secret. */
    public String authorization() {
        return SCHEME + value;
    }

    /** What the agent reads on its standard input: the secret and a newline. */
    public byte[] inputLine() {
        return (value + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Whether an {@code Authorization} header carries this secret. The comparison takes the same
     * time wherever the two differ (it compares digests of equal length), so a caller cannot find
     * the secret a character at a time by timing refusals.
     */
    public boolean admits(String authorization) {
        if (authorization == null || authorization.length() < SCHEME.length()
                || !authorization.substring(0, SCHEME.length()).toLowerCase(Locale.ROOT).equals("bearer ")) {
            return false;
        }
        return MessageDigest.isEqual(sha256(authorization.substring(SCHEME.length()).strip()), sha256(value));
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AgentSecret other && MessageDigest.isEqual(sha256(value), sha256(other.value));
    }

    @Override
    public int hashCode() {
        return value.hashCode();
    }

    /** Never the secret: a secret in a log line is no longer one. */
    @Override
    public String toString() {
        return "AgentSecret[hidden]";
    }
}
