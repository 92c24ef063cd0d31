package koala.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** alice (uid 1001) gets a one-hour token at 10:00; it names her until 11:00 and only under this key. */
class TokensTest {
    private static final Instant TEN = Instant.parse("2026-11-23T10:00:00Z");
    private static final Identity ALICE = new Identity("alice", 1001);

    @TempDir
    Path dir;

    @Test
    void aTokenNamesItsUserUntilItExpires() throws Exception {
        Tokens tokens = new Tokens(() -> new byte[32]);
        String token = tokens.issue(ALICE, TEN, Duration.ofHours(1));
        assertThat(token).startsWith("koala1.");
        assertThat(tokens.verify(token, TEN.plusSeconds(3599))).isEqualTo(ALICE);
        assertThat(Tokens.expiry(token)).isEqualTo(Instant.parse("2026-11-23T11:00:00Z"));
        assertThatThrownBy(() -> tokens.verify(token, TEN.plusSeconds(3600))).isInstanceOf(TokenRefused.class)
                .hasMessage("token of alice expired at 2026-11-23T11:00:00Z");
    }

    @Test
    void aTokenWithItsPayloadChangedOrFromAnotherKeyIsRefused() {
        Tokens tokens = new Tokens(() -> new byte[32]);
        String token = tokens.issue(ALICE, TEN, Duration.ofHours(1));
        String body = token.substring(7, token.indexOf('.', 7));
        String asRoot = token.replace(body, java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString("root:0:9999999999:00".getBytes()));
        assertThatThrownBy(() -> tokens.verify(asRoot, TEN)).isInstanceOf(TokenRefused.class)
                .hasMessageContaining("not signed by this scheduler's current key");
        byte[] other = new byte[32];
        other[0] = 1;
        assertThatThrownBy(() -> new Tokens(() -> other).verify(token, TEN)).isInstanceOf(TokenRefused.class);
        assertThatThrownBy(() -> tokens.verify("Bearer xyz", TEN)).hasMessageContaining("not a KOALA token");
        assertThatThrownBy(() -> tokens.issue(ALICE, TEN, Duration.ofDays(400)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theKeyFileIsPrivateAndRotatingItRefusesEveryEarlierToken() throws Exception {
        Path file = dir.resolve("koala/token.key");
        TokenKey key = TokenKey.in(file);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.size(file)).isEqualTo(32);
        Tokens tokens = new Tokens(key);
        String before = tokens.issue(ALICE, TEN, Duration.ofHours(1));
        assertThat(new Tokens(TokenKey.in(file)).verify(before, TEN)).as("another process reads the same key")
                .isEqualTo(ALICE);
        TokenKey.in(file).rotate(); // another process rotates: this one notices the file changed
        assertThatThrownBy(() -> tokens.verify(before, TEN)).isInstanceOf(TokenRefused.class);
        assertThat(tokens.verify(tokens.issue(ALICE, TEN, Duration.ofHours(1)), TEN)).isEqualTo(ALICE);
    }

    @Test
    void aKeyOthersCanReadIsNotUsed() throws Exception {
        Path file = dir.resolve("token.key");
        Files.write(file, new byte[32]);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> TokenKey.in(file)).hasMessageContaining("readable by others (mode rw-r--r--)");
    }
}
