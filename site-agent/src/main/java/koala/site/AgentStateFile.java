package koala.site;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.UnaryOperator;
import koala.api.site.AgentState;

/**
 * The file where a detached agent says where it serves, with its secret, and which relays it runs
 * ({@link AgentState}). Written whole (a temporary file moved into place) so that a reader never
 * sees half a line, and readable by the agent's account only, since it holds the secret.
 */
final class AgentStateFile {
    private final Path file;

    AgentStateFile(Path file) {
        this.file = file.toAbsolutePath();
    }

    Path path() {
        return file;
    }

    /** What the file says; empty when there is none (the first agent here) or it cannot be read. */
    synchronized AgentState read() {
        try {
            return AgentState.parse(Files.readString(file));
        } catch (NoSuchFileException e) {
            return AgentState.empty();
        } catch (IOException e) {
            return AgentState.empty();
        }
    }

    synchronized void update(UnaryOperator<AgentState> change) {
        write(change.apply(read()));
    }

    /** On stop: the agent line goes if it still names {@code pid} (a newer agent may have replaced it); relays stay. */
    synchronized void stopped(long pid) {
        AgentState state = read();
        if (state.serving().map(s -> s.pid() == pid).orElse(false)) {
            write(state.stopped());
        }
    }

    private void write(AgentState state) {
        try {
            Path parent = file.getParent();
            Files.createDirectories(parent);
            Path staging = Files.createTempFile(parent, file.getFileName() + ".", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(staging, state.text());
            Files.move(staging, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the agent's state file " + file, e);
        }
    }
}
