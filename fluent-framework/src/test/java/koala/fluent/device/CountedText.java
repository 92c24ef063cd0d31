package koala.fluent.device;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import koala.fluent.wire.FluentMessages.AppDone;

/**
 * The text the word-count tests count: 1000 lines "Line i of the text, the end? (i mod 7)", 8 words
 * each, 8000 words, 13 distinct; "the" 2000 times, "end", "line", "of" and "text" 1000 times each.
 */
public final class CountedText {
    public static final List<String> LINES = IntStream.range(0, 1000)
            .mapToObj(i -> "Line " + i + " of the text, the end? " + (i % 7)).toList();
    public static final long WORDS = 8000;

    private CountedText() {
    }

    /** Writes the text to {@code dir/text.txt}; its path. */
    public static Path write(Path dir) throws IOException {
        return Files.write(dir.resolve("text.txt"), LINES);
    }

    /** {@code result}, reported by {@code node}'s counter, holds exactly the text's counts. */
    public static void assertCounted(AppDone result, String node) {
        Map<String, Long> expected = new HashMap<>();
        LINES.forEach(l -> Words.count(l, expected));
        assertThat(result.error()).isNull();
        assertThat(result.node()).isEqualTo(node);
        assertThat(((Number) result.result().get("words")).longValue()).isEqualTo(WORDS);
        assertThat(((Number) result.result().get("distinct")).longValue()).isEqualTo(expected.size());
        assertThat(result.result().get("top")).asList().containsExactly("the=2000", "end=1000", "line=1000",
                "of=1000", "text=1000");
    }
}
