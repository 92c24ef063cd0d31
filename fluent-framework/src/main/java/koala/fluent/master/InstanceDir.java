package koala.fluent.master;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;

/**
 * The master's log directory ({@code instance-ID/}) belongs to one instance, marked with a digest
 * of its token (which stays the same across its runner's and master's restarts). Instance ids are
 * a scheduler database's: a scheduler on a new database numbers from 1 again, and a master that
 * found another instance's journal under its id would take over that instance's jobs. A directory
 * marked for another instance, or not marked, is moved aside ({@code instance-ID.replaced-TIME})
 * and the master starts afresh.
 */
final class InstanceDir {
    static final String MARK = "instance.mark";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC);

    private InstanceDir() {
    }

    /** Makes {@code dir} this instance's; the directory moved aside, if one was. */
    static java.util.Optional<Path> claim(Path dir, String token, Instant now) {
        String mark = digest(token);
        try {
            Path marker = dir.resolve(MARK);
            java.util.Optional<Path> moved = java.util.Optional.empty();
            if (Files.isDirectory(dir) && !(Files.isRegularFile(marker) && Files.readString(marker).strip().equals(mark))) {
                Path aside = dir.resolveSibling(dir.getFileName() + ".replaced-" + STAMP.format(now));
                Files.move(dir, aside);
                moved = java.util.Optional.of(aside);
            }
            Files.createDirectories(dir);
            if (!Files.isRegularFile(marker)) {
                Files.writeString(marker, mark + "\n");
            }
            return moved;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot claim the instance's log directory " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Not the token: the directory is readable by the instance's account, and the mark only tells instances apart. */
    private static String digest(String token) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(("koala instance " + token)
                    .getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
