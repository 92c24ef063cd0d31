package koala.grid;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.configuration2.PropertiesConfiguration;

/**
 * Where each key of a grid configuration is written: its file and line, in the order read, following
 * {@code include} lines as Commons Configuration does (relative to the including file). Keys are
 * read by Commons Configuration's own {@code PropertiesReader}, so a key here is the key the
 * configuration holds; a property continued over several lines is placed on its first.
 */
final class KeyLines {
    /** A place in a file; line 0 when not known. */
    record Place(Path file, int line) {
        @Override
        public String toString() {
            return line > 0 ? file + ":" + line : file.toString();
        }
    }

    private final Map<String, List<Place>> places = new LinkedHashMap<>();

    private KeyLines() {
    }

    /** Reads {@code file} and what it includes; an unreadable include is left out. */
    static KeyLines of(Path file) {
        KeyLines lines = new KeyLines();
        lines.read(file, new HashSet<>());
        return lines;
    }

    /** {@code text}, the content of {@code file}, with what it includes. */
    static KeyLines of(Path file, String text) {
        KeyLines lines = new KeyLines();
        lines.read(file, text, new HashSet<>());
        return lines;
    }

    private void read(Path file, Set<Path> seen) {
        try {
            read(file, Files.readString(file, StandardCharsets.ISO_8859_1), seen);
        } catch (IOException e) {
            // an include that cannot be read: Commons Configuration said so when the file was loaded
        }
    }

    private void read(Path file, String text, Set<Path> seen) {
        if (!seen.add(file.toAbsolutePath().normalize())) {
            return;
        }
        String[] raw = text.split("\r\n|\r|\n", -1);
        try (PropertiesConfiguration.PropertiesReader reader = new PropertiesConfiguration.PropertiesReader(
                new StringReader(text))) {
            while (reader.nextProperty()) {
                String key = reader.getPropertyName();
                int line = firstLine(raw, reader.getLineNumber());
                if (key.equals(PropertiesConfiguration.getInclude()) || key.equals(PropertiesConfiguration.getIncludeOptional())) {
                    Path included = Path.of(reader.getPropertyValue().strip());
                    read(included.isAbsolute() ? included : file.toAbsolutePath().resolveSibling(included), seen);
                } else {
                    places.computeIfAbsent(key, k -> new ArrayList<>()).add(new Place(file, line));
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The first line of the property that ends on line {@code last} (1-based): lines ending in an odd number of backslashes continue. */
    private static int firstLine(String[] raw, int last) {
        int line = Math.min(last, raw.length);
        while (line > 1 && continues(raw[line - 2])) {
            line--;
        }
        return line;
    }

    private static boolean continues(String line) {
        int backslashes = 0;
        for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
            backslashes++;
        }
        return backslashes % 2 == 1;
    }

    /** Where {@code key} is first written; line 0 in {@code fallback} when it is not. */
    Place first(String key, Path fallback) {
        List<Place> at = places.get(key);
        return at == null ? new Place(fallback, 0) : at.get(0);
    }

    /** Every place {@code key} is written, in the order read. */
    List<Place> all(String key) {
        return places.getOrDefault(key, List.of());
    }

    /** The keys, in the order first read. */
    Set<String> keys() {
        return places.keySet();
    }
}
