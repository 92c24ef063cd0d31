package koala.jdf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Bad input never escapes as anything but a {@link JdfException} with at least one error: the
 * examples, cut short and mangled at random (with a fixed seed, so a failure can be replayed), read
 * on the testbed's clusters with their hosts unknown and, every other round, with unequal hosts.
 */
class JdfRobustnessTest {
    private static final String PIECES = "()=&|+<>!\"'* \n(*)*abc12/-";

    @Test
    void mangledExamplesAreRefusedWithErrorsNeverWithACrash() throws IOException {
        Random random = new Random(20140519);
        int checked = 0;
        for (String text : examples()) {
            for (int round = 0; round < 300; round++) {
                String mangled = mangle(text, random);
                try {
                    JdfParser.parse("fuzz.jdf", mangled, round % 2 == 0 ? Jdf.TESTBED : Jdf.UNEQUAL);
                } catch (JdfException e) {
                    assertThat(e.errors()).as(mangled).isNotEmpty();
                } catch (RuntimeException e) {
                    fail("crashed on:\n" + mangled, e);
                }
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(1000);
    }

    private static String mangle(String text, Random random) {
        StringBuilder b = new StringBuilder(text);
        int edits = 1 + random.nextInt(4);
        for (int i = 0; i < edits && b.length() > 0; i++) {
            int at = random.nextInt(b.length());
            switch (random.nextInt(4)) {
                case 0 -> b.deleteCharAt(at);
                case 1 -> b.insert(at, PIECES.charAt(random.nextInt(PIECES.length())));
                case 2 -> b.setCharAt(at, PIECES.charAt(random.nextInt(PIECES.length())));
                default -> b.setLength(at);
            }
        }
        return b.toString();
    }

    private static List<String> examples() throws IOException {
        List<String> texts = new ArrayList<>();
        try (Stream<Path> files = Stream.concat(Files.list(Path.of("..", "jdf-examples")),
                Files.list(Path.of("..", "jdf-examples", "invalid")))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".jdf")).sorted().toList()) {
                texts.add(Files.readString(file));
            }
        }
        return texts;
    }
}
