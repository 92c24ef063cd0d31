package koala.sge;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The file where a detached agent says where it serves: one line {@code PORT PID}. Written whole
 * (a temporary file moved into place) so that a reader never sees half a line.
 */
final class StateFile {
    private StateFile() {
    }

    static void write(Path file, int port) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            Path staging = Files.createTempFile(parent, file.getFileName() + ".", ".tmp");
            Files.writeString(staging, port + " " + ProcessHandle.current().pid() + "\n");
            Files.move(staging, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the agent's state file " + file, e);
        }
    }

    /** Removes the file if it still names this process (a newer agent may have replaced it). */
    static void remove(Path file) {
        try {
            String[] line = Files.readString(file).trim().split(" ");
            if (line.length == 2 && line[1].equals(Long.toString(ProcessHandle.current().pid()))) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // the reader checks that the process named there lives; a stale file misleads nobody
        }
    }
}
