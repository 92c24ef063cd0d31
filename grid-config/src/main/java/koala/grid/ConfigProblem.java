package koala.grid;

import java.nio.file.Path;

/**
 * Something wrong with a grid configuration, where it is written: {@code grid.properties:7:
 * scheduler.claimTimeout = '90x': not a number of seconds}.
 *
 * @param file   the file the key is written in (an included one for a key written there)
 * @param line   its line, 1-based; 0 when the key is not written (a missing one)
 * @param key    the key the problem is about
 * @param detail the key, its value where it matters, and the reason
 */
public record ConfigProblem(Path file, int line, String key, String detail) {
    @Override
    public String toString() {
        return file + (line > 0 ? ":" + line : "") + ": " + detail;
    }
}
