package koala.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * A standby scheduler's word for a caller it identified, on one request it passes to the leader:
 * {@code relay1.PAYLOAD.MAC}, the payload (user, uid, how the standby identified them, expiry in epoch
 * seconds, the request's digest, the standby's name) in base64url, the MAC an HMAC-SHA256 of it under
 * the token key the schedulers of a grid share. It opens that one request only, for {@link #LIFETIME}:
 * whoever copies it off the wire can send the same request again and nothing else.
 */
public final class Vouchers {
    /** The header that carries a voucher. */
    public static final String HEADER = "Koala-Relayed";
    /** How long a voucher opens its request; the schedulers' hosts must agree on the time within it (as munge's credentials want). */
    public static final Duration LIFETIME = Duration.ofMinutes(5);

    private static final String PREFIX = "relay1.";
    private static final Base64.Encoder ENCODE = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODE = Base64.getUrlDecoder();

    /** Who a standby vouched for, how it knew them, and which standby it was. */
    public record Vouched(Identity who, String via, String standby) {
    }

    private final Supplier<byte[]> key;

    /** Vouchers under the key {@code key} gives now (the token key: read each time, as {@link Tokens} does). */
    public Vouchers(Supplier<byte[]> key) {
        this.key = key;
    }

    /** A voucher for {@code who}, identified {@code via}, on the request whose digest is {@code digest}. */
    public String issue(Identity who, String via, String digest, String standby, Instant now) {
        String payload = String.join(":", who.user(), Integer.toString(who.uid()), encode(via),
                Long.toString(now.plus(LIFETIME).getEpochSecond()), digest, encode(standby));
        String body = ENCODE.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        return PREFIX + body + "." + ENCODE.encodeToString(mac(body));
    }

    /** Who {@code voucher} vouches for, if it is intact, in time at {@code now} and for the request of {@code digest}. */
    public Vouched verify(String voucher, String digest, Instant now) throws TokenRefused {
        if (voucher == null || !voucher.startsWith(PREFIX)) {
            throw new TokenRefused("not a standby's voucher (they start with '" + PREFIX + "')");
        }
        String rest = voucher.substring(PREFIX.length());
        int dot = rest.indexOf('.');
        byte[] given;
        try {
            given = dot < 0 ? new byte[0] : DECODE.decode(rest.substring(dot + 1));
        } catch (IllegalArgumentException e) {
            given = new byte[0];
        }
        String body = dot < 0 ? rest : rest.substring(0, dot);
        if (!MessageDigest.isEqual(mac(body), given)) {
            throw new TokenRefused("a voucher not signed by this scheduler's token key: the standby that relayed the"
                    + " call has another key file (every scheduler of a grid needs the same KOALA_HOME/token.key)");
        }
        String[] fields = new String(DECODE.decode(body), StandardCharsets.UTF_8).split(":");
        if (fields.length != 6) {
            throw new TokenRefused("malformed voucher payload");
        }
        Identity who = new Identity(fields[0], Integer.parseInt(fields[1]));
        String standby = decode(fields[5]);
        Instant expires = Instant.ofEpochSecond(Long.parseLong(fields[3]));
        if (!now.isBefore(expires)) {
            throw new TokenRefused("the voucher of standby " + standby + " for " + who.user() + " expired at " + expires
                    + " (are the schedulers' clocks " + LIFETIME.toMinutes() + " minutes apart?)");
        }
        if (!MessageDigest.isEqual(fields[4].getBytes(StandardCharsets.US_ASCII), digest.getBytes(StandardCharsets.US_ASCII))) {
            throw new TokenRefused("the voucher of standby " + standby + " is for another request");
        }
        return new Vouched(who, decode(fields[2]), standby);
    }

    /**
     * The digest of a request as both ends see it: method, path, query (in name order), the user an admin acts
     * for, and the body.
     */
    public static String digest(String method, String path, Map<String, String> query, String actingFor, byte[] body) {
        StringBuilder canonical = new StringBuilder(method).append('\n').append(path).append('\n');
        new TreeMap<>(query).forEach((name, value) -> canonical.append(name).append('=').append(value).append('&'));
        canonical.append('\n').append(actingFor == null ? "" : actingFor).append('\n');
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha.digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    private static String encode(String text) {
        return ENCODE.encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(String text) {
        return new String(DECODE.decode(text), StandardCharsets.UTF_8);
    }

    private byte[] mac(String body) {
        return Hmac.of(key, body);
    }
}
