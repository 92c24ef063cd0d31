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
 * of a secret that stays the same for the instance's life, across its runner's and master's
 * restarts: its device token (its token is replaced when a node is lost; a directory marked with
 * the token by an earlier master is still taken as the instance's, and marked anew). Instance ids are
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

    /**
     * Makes {@code dir} this instance's, marked with {@code lifelong}'s digest; a directory marked with
     * {@code earlier}'s (a master before marks moved to the device token) is the instance's too. The
     * directory moved aside, if one was.
     */
    static java.util.Optional<Path> claim(Path dir, String lifelong, String earlier, Instant now) {
        String mark = digest(lifelong);
        try {
            Path marker = dir.resolve(MARK);
            java.util.Optional<Path> moved = java.util.Optional.empty();
            String found = Files.isRegularFile(marker) ? Files.readString(marker).strip() : "";
            boolean ours = found.equals(mark) || (earlier != null && found.equals(digest(earlier)));
            if (Files.isDirectory(dir) && !ours) {
                Path aside = dir.resolveSibling(dir.getFileName() + ".replaced-" + STAMP.format(now));
                Files.move(dir, aside);
                moved = java.util.Optional.of(aside);
            }
            Files.createDirectories(dir);
            if (!Files.isRegularFile(marker) || !Files.readString(marker).strip().equals(mark)) {
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
