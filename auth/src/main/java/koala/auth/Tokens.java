package koala.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.function.Supplier;

/**
 * Signed, expiring tokens, as HTCondor's IDTOKENS or Slurm's JWTs: {@code koala1.PAYLOAD.MAC}, the
 * payload (user, uid, expiry in epoch seconds, a nonce) in base64url, the MAC an HMAC-SHA256 of
 * it under the scheduler's key. Whoever holds a token is its user until it expires or the key is
 * rotated; nothing is stored per token, so the scheduler can verify one without a database.
 */
public final class Tokens {
    private static final String PREFIX = "koala1.";
    private static final Duration LONGEST = Duration.ofDays(366);
    private static final Base64.Encoder ENCODE = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODE = Base64.getUrlDecoder();

    private final Supplier<byte[]> key;
    private final SecureRandom random = new SecureRandom();

    /** Tokens under the key {@code key} gives now (read each time, so that a rotated key takes effect at once). */
    public Tokens(Supplier<byte[]> key) {
        this.key = key;
    }

    /** A token for {@code who}, valid for {@code lifetime} from {@code now} (at most a year). */
    public String issue(Identity who, Instant now, Duration lifetime) {
        if (lifetime.isNegative() || lifetime.isZero() || lifetime.compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException("a token's lifetime must be more than 0 and at most 366 days, not "
                    + lifetime);
        }
        byte[] nonce = new byte[8];
        random.nextBytes(nonce);
        String payload = who.user() + ":" + who.uid() + ":" + now.plus(lifetime).getEpochSecond() + ":"
                + HexFormat.of().formatHex(nonce);
        String body = ENCODE.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        return PREFIX + body + "." + ENCODE.encodeToString(mac(body));
    }

    /** Who the token names, if it is ours, intact and not expired at {@code now}. */
    public Identity verify(String token, Instant now) throws TokenRefused {
        if (token == null || !token.startsWith(PREFIX)) {
            throw new TokenRefused("not a KOALA token (they start with '" + PREFIX + "'; make one with 'koala token create')");
        }
        String rest = token.substring(PREFIX.length());
        int dot = rest.indexOf('.');
        if (dot < 0) {
            throw new TokenRefused("malformed token: no signature");
        }
        String body = rest.substring(0, dot);
        byte[] given;
        try {
            given = DECODE.decode(rest.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            throw new TokenRefused("malformed token: its signature is not base64url");
        }
        if (!MessageDigest.isEqual(mac(body), given)) {
            throw new TokenRefused("token not signed by this scheduler's current key (forged, or the key was rotated)");
        }
        String[] fields;
        try {
            fields = new String(DECODE.decode(body), StandardCharsets.UTF_8).split(":");
        } catch (IllegalArgumentException e) {
            throw new TokenRefused("malformed token: its payload is not base64url");
        }
        if (fields.length != 4) {
            throw new TokenRefused("malformed token payload");
        }
        Instant expires;
        Identity who;
        try {
            expires = Instant.ofEpochSecond(Long.parseLong(fields[2]));
            who = new Identity(fields[0], Integer.parseInt(fields[1]));
        } catch (IllegalArgumentException e) {
            throw new TokenRefused("malformed token payload: " + e.getMessage());
        }
        if (!now.isBefore(expires)) {
            throw new TokenRefused("token of " + who.user() + " expired at " + expires);
        }
        return who;
    }

    /** When the token expires, without checking it (for {@code koala token create} to print). */
    public static Instant expiry(String token) {
        String rest = token.substring(PREFIX.length());
        String payload = new String(DECODE.decode(rest.substring(0, rest.indexOf('.'))), StandardCharsets.UTF_8);
        return Instant.ofEpochSecond(Long.parseLong(payload.split(":")[2]));
    }

    private byte[] mac(String body) {
        return Hmac.of(key, body);
    }
}
