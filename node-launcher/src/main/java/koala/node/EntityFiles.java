package koala.node;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The entity's copy of its instance's token, in a directory of its own that only its user can
 * read ({@code KOALA_RUNNER_TOKEN_FILE}). The runner replaces the token when one of the instance's
 * nodes is lost or a node not its own used it; the launcher learns the new one in a heartbeat's
 * answer and writes it here (a new file renamed over the old, so a reader never sees half of it),
 * and the entity's clients read it at each call. Beside it, the runner's address in force
 * ({@code KOALA_RUNNER_URL_FILE}): a runner started on another host in the place of one whose host
 * went serves elsewhere, and the launcher, told so by the scheduler, writes its address there.
 * Removed with the entity's run.
 */
final class EntityFiles implements AutoCloseable {
    private static final FileAttribute<Set<PosixFilePermission>> PRIVATE_FILE =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));
    private final Path dir;
    private final Path file;
    private final Path runnerFile;
    private String written;

    private EntityFiles(Path dir) {
        this.dir = dir;
        this.file = dir.resolve("token");
        this.runnerFile = dir.resolve("runner-url");
    }

    /** A new private directory holding {@code token} and the runner's address {@code runner}. */
    static EntityFiles of(String token, String runner) {
        try {
            EntityFiles files = new EntityFiles(PrivateDirectory.make("koala-entity-"));
            files.updateToken(token);
            files.write(files.runnerFile, runner);
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the entity's token file: " + e.getMessage(), e);
        }
    }

    Path path() {
        return file;
    }

    /** The file holding the runner's address in force. */
    Path runnerPath() {
        return runnerFile;
    }

    /** The runner now serves at {@code url}. */
    synchronized void runnerMoved(String url) {
        write(runnerFile, url);
    }

    /** Writes {@code token} when it differs from what the file holds; null (a runner that says none) changes nothing. */
    synchronized void updateToken(String token) {
        if (token == null || token.equals(written)) {
            return;
        }
        if (write(file, token)) {
            written = token;
        }
    }

    /**
     * {@code value} into {@code target}: a new file renamed over the old, so that a reader never sees half of
     * it. The new file's name is fixed: the directory is this user's alone, and its writes are one at a time.
     */
    private boolean write(Path target, String value) {
        Path next = target.resolveSibling(target.getFileName() + ".new");
        try {
            try (var out = Files.newByteChannel(next, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING), PRIVATE_FILE)) {
                out.write(java.nio.ByteBuffer.wrap((value + "\n").getBytes(StandardCharsets.UTF_8)));
            }
            Files.move(next, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return true;
        } catch (IOException e) {
            System.err.println("[koala node] cannot write the entity's file " + target + ": " + e.getMessage());
            return false;
        }
    }

    @Override
    public synchronized void close() {
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.deleteIfExists(p);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // the node's temporary directory goes with the node
        }
    }
}
