package koala.scheduler.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Map;
import koala.http.Request;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The metrics scrape token: made once, read again when an admin writes a new one, refused when open to others. */
class MetricsTokenTest {
    @TempDir
    Path dir;

    @Test
    void madeAtTheFirstStartReadableByItsOwnerOnly() throws Exception {
        Path file = dir.resolve("home").resolve("metrics.token");
        MetricsToken token = MetricsToken.at(file);
        String secret = Files.readString(file).strip();

        assertThat(secret).matches("koala-metrics-[0-9a-f]{64}");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(token.matches(bearer(secret))).isTrue();
        assertThat(token.matches(bearer(secret + "x"))).isFalse();
        assertThat(token.matches(bearer(""))).isFalse();
        assertThat(MetricsToken.at(file).matches(bearer(secret))).as("kept across starts").isTrue();
    }

    /** An admin writes a new secret (0640, for the prometheus group): the old one is refused at once. */
    @Test
    void aNewSecretInTheFileTakesOverWithoutARestart() throws Exception {
        Path file = dir.resolve("metrics.token");
        MetricsToken token = MetricsToken.at(file);
        String old = Files.readString(file).strip();

        Files.writeString(file, "a-new-secret-of-enough-length\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));

        assertThat(token.matches(bearer("a-new-secret-of-enough-length"))).isTrue();
        assertThat(token.matches(bearer(old))).isFalse();
    }

    /** scheduler.metrics.tokenFile changed by a reload: the new file (made if missing) holds the secret from then on. */
    @Test
    void movedToAnotherFileTheTokenThereIsTheOneTaken() throws Exception {
        MetricsToken token = MetricsToken.at(dir.resolve("metrics.token"));
        String old = Files.readString(dir.resolve("metrics.token")).strip();
        Path moved = dir.resolve("etc").resolve("metrics.token");

        token.moveTo(moved);

        String secret = Files.readString(moved).strip();
        assertThat(token.file()).isEqualTo(moved);
        assertThat(token.matches(bearer(secret))).isTrue();
        assertThat(token.matches(bearer(old))).isFalse();
    }

    @Test
    void aFileOpenToOthersOrAShortSecretIsRefused() throws Exception {
        Path open = Files.writeString(dir.resolve("open.token"), "long-enough-secret-here");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> MetricsToken.at(open)).hasMessageContaining("open to others (mode rw-r--r--)");

        Path shortOne = Files.writeString(dir.resolve("short.token"), "short");
        Files.setPosixFilePermissions(shortOne, PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(() -> MetricsToken.at(shortOne)).hasMessageContaining("at least 16");

        Path file = dir.resolve("later.token");
        MetricsToken token = MetricsToken.at(file);
        String secret = Files.readString(file).strip();
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(token.matches(bearer(secret))).as("opened to others after the start").isFalse();
    }

    private static Request bearer(String secret) {
        return new Request("GET", "/metrics", Map.of(), Map.of(), new byte[0], Map.of("authorization", "Bearer " + secret));
    }
}
