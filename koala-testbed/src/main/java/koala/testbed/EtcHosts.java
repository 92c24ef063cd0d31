package koala.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The testbed's block of the machine's {@code /etc/hosts}, between marker lines of its own, so
 * that {@code down} removes exactly what {@code up} added and nothing else of the file changes.
 * The file is rewritten in place: it may itself be a mount.
 */
final class EtcHosts {
    static final String BEGIN = "# BEGIN koala-testbed: hosts of bin/koala testbed (removed by testbed down)";
    static final String END = "# END koala-testbed";

    private final Path file;

    EtcHosts(Path file) {
        this.file = file;
    }

    /** Puts {@code lines} in the block; true when the file changed. */
    boolean set(List<String> lines) {
        String before = read();
        String after = with(before, lines);
        if (after.equals(before)) {
            return false;
        }
        write(after);
        return true;
    }

    /** Removes the block; true when there was one. */
    boolean clear() {
        String before = read();
        String after = without(before);
        if (after.equals(before)) {
            return false;
        }
        write(after);
        return true;
    }

    static String with(String text, List<String> lines) {
        StringBuilder s = new StringBuilder(without(text));
        s.append(BEGIN).append('\n');
        lines.forEach(l -> s.append(l).append('\n'));
        return s.append(END).append('\n').toString();
    }

    static String without(String text) {
        List<String> kept = new ArrayList<>();
        boolean inside = false;
        for (String line : text.split("\n", -1)) {
            if (line.equals(BEGIN)) {
                inside = true;
            } else if (line.equals(END)) {
                inside = false;
            } else if (!inside) {
                kept.add(line);
            }
        }
        String joined = String.join("\n", kept);
        return joined.isEmpty() || joined.endsWith("\n") ? joined : joined + "\n";
    }

    private String read() {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new TestbedException("cannot write " + file + ": " + e.getMessage());
        }
    }
}
