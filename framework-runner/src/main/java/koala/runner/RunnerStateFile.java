package koala.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import koala.common.json.Json;

/**
 * Where a runner's {@link RunnerState} lives: {@code runner-ID.json}, readable by its owner alone
 * (it holds the instance's token). Each write goes to a new 0600 file beside it, is forced to disk
 * and renamed over the old one, so that a kill -9 at any moment leaves either the previous state
 * or the new one, never half of one.
 */
public final class RunnerStateFile {
    private final Path file;

    public RunnerStateFile(Path file) {
        this.file = file;
    }

    /** The state file of instance {@code instance} in {@code dir}. */
    public static RunnerStateFile of(Path dir, long instance) {
        return new RunnerStateFile(dir.resolve("runner-" + instance + ".json"));
    }

    public Path path() {
        return file;
    }

    /**
     * Writes {@code state} in place of the file's, unless the file is a later runner's: one started in this
     * one's place (on another host, which sees the same file) whose state is not to be written over.
     *
     * @return false, writing nothing, when the file holds a later generation than {@code state}'s
     */
    public boolean write(RunnerState state) {
        long onDisk = generation();
        if (onDisk > state.generation()) {
            return false;
        }
        Path next = file.resolveSibling("." + file.getFileName() + ".next");
        try {
            Files.deleteIfExists(next);
            try (FileChannel out = FileChannel.open(next, java.util.Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(
                    "rw-------")))) {
                ByteBuffer bytes = ByteBuffer.wrap(Json.write(state).getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
                out.force(true);
            }
            Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the runner's state to " + file + ": " + e.getMessage(), e);
        }
    }

    /** The generation of the runner that last wrote the file; 0 when there is none, or none can be read. */
    public long generation() {
        try {
            return Json.mapper().readTree(file.toFile()).path("generation").asLong(0);
        } catch (IOException e) {
            return 0;
        }
    }

    public RunnerState read() throws IOException {
        return Json.mapper().readValue(file.toFile(), RunnerState.class);
    }
}
