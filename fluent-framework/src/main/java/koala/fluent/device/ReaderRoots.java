package koala.fluent.device;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The directories under which a DeviceManager's reader may read a file: by default the home of the
 * account it runs as and the instance's log directory (where KOALA puts the framework's files).
 * The reader sends a file's lines to other hosts, so naming a file must not open everything the
 * account can read on the node ({@code /etc}, other users' world-readable files). A file is judged
 * by its real path, symbolic links resolved, and must be a regular file (not a directory, not a
 * device that never ends).
 */
public record ReaderRoots(List<Path> roots) {
    public ReaderRoots {
        roots = List.copyOf(roots);
    }

    /** The account's home ({@code user.home}) and the instance's log directory, if it has one. */
    public static ReaderRoots of(Optional<Path> logDir) {
        List<Path> roots = new ArrayList<>(List.of(Path.of(System.getProperty("user.home"))));
        logDir.ifPresent(roots::add);
        return new ReaderRoots(roots);
    }

    /**
     * Why the reader may not read {@code file}, or empty when it may; {@code file} is a real path
     * ({@link Path#toRealPath}), so that a link under a root cannot lead out of it.
     */
    public Optional<String> refusal(Path file) {
        if (!Files.isRegularFile(file)) {
            return Optional.of(file + " is not a regular file");
        }
        for (Path root : roots) {
            try {
                if (file.startsWith(root.toRealPath())) {
                    return Optional.empty();
                }
            } catch (IOException e) {
                // a root that does not exist holds nothing
            }
        }
        return Optional.of(file + " is outside the directories this DeviceManager reads from: "
                + roots.stream().map(Path::toString).collect(Collectors.joining(", ")));
    }
}
