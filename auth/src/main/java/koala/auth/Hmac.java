package koala.auth;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The HMAC-SHA256 that signs tokens and vouchers, under the key a supplier gives now (a rotated key counts at once). */
final class Hmac {
    private Hmac() {
    }

    static byte[] of(Supplier<byte[]> key, String body) {
        try {
            Mac hmac = Mac.getInstance("HmacSHA256");
            hmac.init(new SecretKeySpec(key.get(), "HmacSHA256"));
            return hmac.doFinal(body.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every JDK has HmacSHA256", e);
        }
    }
}
