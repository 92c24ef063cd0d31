package koala.scheduler.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What another user of the machine could reach under KOALA's directories: a directory anyone may
 * write (without the sticky bit), or a file that holds a secret (a token, a key, a state file, the
 * database) that anyone may read, every directory above it open to them.
 */
final class Exposure {
    private static final String SECRET = ".*(token|secret|key|state|\\.mv\\.db|id_).*";

    private Exposure() {
    }

    static List<String> under(List<Path> roots) {
        List<String> found = new ArrayList<>();
        for (Path root : roots) {
            if (!Files.exists(root)) {
                continue;
            }
            try (Stream<Path> paths = Files.walk(root)) {
                paths.filter(p -> !Files.isSymbolicLink(p)).forEach(p -> check(p, found));
            } catch (IOException | UncheckedIOException e) {
                found.add("cannot walk " + root + ": " + e.getMessage());
            }
        }
        return found;
    }

    private static void check(Path p, List<String> found) {
        int mode = mode(p);
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS) && (mode & 02) != 0 && (mode & 01000) == 0) {
            found.add("world-writable directory " + p + " (" + Integer.toOctalString(mode & 07777) + ")");
        }
        if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && (mode & 04) != 0
                && p.getFileName().toString().matches(SECRET) && reachable(p.getParent())) {
            found.add("secret readable by anyone: " + p + " (" + Integer.toOctalString(mode & 0777) + ")");
        }
    }

    private static boolean reachable(Path dir) {
        for (Path d = dir; d != null; d = d.getParent()) {
            if ((mode(d) & 01) == 0) {
                return false;
            }
        }
        return true;
    }

    private static int mode(Path p) {
        try {
            return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return 0;
        }
    }
}
