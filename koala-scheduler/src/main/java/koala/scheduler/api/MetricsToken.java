package koala.scheduler.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import koala.http.ApiException;
import koala.http.Guard;
import koala.http.Request;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The secret that lets a scraper read {@code GET /metrics} and nothing else: a site's Prometheus
 * sends it as {@code Authorization: Bearer <secret>} (its {@code authorization: credentials_file}
 * names a copy of the file). The scheduler makes the file at its first start (a random secret,
 * mode 0600) where {@code scheduler.metrics.tokenFile} says, {@code KOALA_HOME/metrics.token} by
 * default. An admin changes the secret by writing a new one into the file: it is read again when
 * the file changes, no restart needed. A file that others than its owner and group may read or
 * write, or whose secret is shorter than 16 characters, is refused.
 *
 * <p>Compared as {@link Guard#bearer} does: both sides hashed first, the hashes in constant time.
 */
public final class MetricsToken {
    private static final Logger LOG = LogManager.getLogger(MetricsToken.class);
    static final int MIN_LENGTH = 16;
    private static final Set<PosixFilePermission> OTHERS = Set.of(PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    /** The secret as last read, and the file's modification time and size then. */
    private record Known(FileTime modified, long size, byte[] hash) {
    }

    private volatile Path file;
    private volatile Known known;

    private MetricsToken(Path file, Known known) {
        this.file = file;
        this.known = known;
    }

    /** The token in {@code file}, made there with a new random secret (mode 0600) if there is none. */
    public static MetricsToken at(Path file) throws IOException {
        made(file);
        return new MetricsToken(file, read(file));
    }

    /**
     * Takes the token in {@code next} from now on, made there if there is none, as at the first start:
     * {@code scheduler.metrics.tokenFile} changed in a re-read configuration. A token refused there (open
     * to others, too short) refuses every scrape until it is mended, as an edit of the file in use does.
     */
    public void moveTo(Path next) throws IOException {
        made(next);
        Known read;
        try {
            read = read(next);
        } catch (IllegalArgumentException e) {
            LOG.warn("the metrics token {} is refused until it is mended: {}", next, e.getMessage());
            read = null;
        }
        known = read;
        file = next;
    }

    private static void made(Path file) throws IOException {
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            byte[] secret = new byte[32];
            new SecureRandom().nextBytes(secret);
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(Files.createFile(file, PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rw-------"))), "koala-metrics-" + HexFormat.of().formatHex(secret)
                    + "\n");
            LOG.info("made the metrics scrape token {} (give a copy to Prometheus: authorization.credentials_file)",
                    file);
        }
    }

    public Path file() {
        return file;
    }

    /**
     * For a route that needs the metrics token or any caller {@code callers} identifies (the Unix
     * socket's peer, a KOALA token): 401 otherwise.
     */
    public Guard orCaller(Callers callers) {
        return r -> {
            if (!matches(r)) {
                callers.of(r);
            }
        };
    }

    /** For a route that needs the metrics token itself: 401 otherwise. */
    public Guard alone() {
        return r -> {
            if (!matches(r)) {
                throw new ApiException(401, "send 'Authorization: Bearer TOKEN' with the scheduler's metrics token (the "
                        + "file scheduler.metrics.tokenFile names, KOALA_HOME/metrics.token by default)");
            }
        };
    }

    /** Whether the request carries the secret now in the file. */
    boolean matches(Request r) {
        String header = r.header("Authorization").orElse("");
        if (!header.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        byte[] expected = current();
        return expected != null && MessageDigest.isEqual(expected, sha256(header.substring(7).strip()));
    }

    /** The secret's hash, read again when the file changed; null when it is unreadable or refused now. */
    private byte[] current() {
        Known now = known;
        Path file = this.file;
        try {
            FileTime modified = Files.getLastModifiedTime(file);
            if (now == null || !modified.equals(now.modified()) || Files.size(file) != now.size()) {
                now = read(file);
                known = now;
            }
            return now.hash();
        } catch (IOException | IllegalArgumentException e) {
            if (known != null) {
                LOG.warn("the metrics token {} is refused until it is mended: {}", file, e.getMessage());
            }
            known = null;
            return null;
        }
    }

    private static Known read(Path file) throws IOException {
        if (Files.isSymbolicLink(file)) {
            throw new IllegalArgumentException(file + " is a symbolic link; the metrics token must be a plain file");
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(file);
        if (mode.stream().anyMatch(OTHERS::contains)) {
            throw new IllegalArgumentException(file + " is open to others (mode " + PosixFilePermissions.toString(mode)
                    + "); the metrics token must be 0600 or 0640");
        }
        FileTime modified = Files.getLastModifiedTime(file);
        long size = Files.size(file);
        String secret = Files.readString(file, StandardCharsets.UTF_8).strip();
        if (secret.length() < MIN_LENGTH) {
            throw new IllegalArgumentException(file + " holds a secret of " + secret.length() + " characters; the "
                    + "metrics token needs at least " + MIN_LENGTH);
        }
        return new Known(modified, size, sha256(secret));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
