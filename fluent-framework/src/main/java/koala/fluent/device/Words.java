package koala.fluent.device;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How the word count splits text: maximal runs of letters, digits and apostrophes, lower-cased.
 * The mappers count with it, and the master checks an SWC's output against a count of its own.
 */
public final class Words {
    private static final Pattern SEPARATORS = Pattern.compile("[^\\p{L}\\p{N}']+");

    private Words() {
    }

    /** Adds the words of {@code line} to {@code counts}. */
    public static void count(String line, Map<String, Long> counts) {
        for (String word : SEPARATORS.split(line.toLowerCase(Locale.ROOT))) {
            if (!word.isEmpty()) {
                counts.merge(word, 1L, Long::sum);
            }
        }
    }
}
