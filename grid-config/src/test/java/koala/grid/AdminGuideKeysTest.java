package koala.grid;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The catalogue of keys and the admin guide's "Configuration reference" say the same: every key of
 * one is a row of the other's tables ({@code | key | meaning | default |}), with the same default,
 * and the table of what a {@code SIGHUP} changes names exactly the catalogue's live keys.
 */
class AdminGuideKeysTest {
    private static final Path GUIDE = Path.of("..", "docs", "admin-guide.md");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    private static List<String> section() throws Exception {
        String text = Files.readString(GUIDE);
        int start = text.indexOf("\n## Configuration reference\n");
        int end = text.indexOf("\n## ", start + 1);
        return text.substring(start, end).lines().toList();
    }

    /** Each table with the given header: its rows, each as its cells. */
    private static List<List<String>> rows(String header) throws Exception {
        List<List<String>> rows = new ArrayList<>();
        boolean in = false;
        for (String line : section()) {
            if (line.equals(header)) {
                in = true;
            } else if (in && line.startsWith("|---")) {
                continue;
            } else if (in && line.startsWith("|")) {
                List<String> cells = new ArrayList<>(List.of(line.substring(1, line.length() - 1).split(" \\| ", -1)));
                cells.replaceAll(String::strip);
                rows.add(cells);
            } else {
                in = false;
            }
        }
        return rows;
    }

    private static List<String> code(String cell) {
        List<String> names = new ArrayList<>();
        Matcher m = CODE.matcher(cell);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    @Test
    void everyCatalogueKeyIsDocumentedWithItsDefaultAndEveryDocumentedKeyIsCatalogued() throws Exception {
        Map<String, String> documented = new LinkedHashMap<>();
        for (List<String> row : rows("| key | meaning | default |")) {
            assertThat(code(row.get(0))).as("one key a row: %s", row).hasSize(1);
            documented.put(code(row.get(0)).get(0), row.get(2).replace("`", ""));
        }
        Map<String, String> catalogued = ConfigKeys.all().stream().collect(Collectors.toMap(ConfigKey::pattern,
                ConfigKey::defaultValue, (a, b) -> a, LinkedHashMap::new));

        assertThat(documented.keySet()).as("keys in the admin guide").containsExactlyInAnyOrderElementsOf(catalogued.keySet());
        assertThat(documented).as("defaults in the admin guide").containsExactlyInAnyOrderEntriesOf(catalogued);
    }

    @Test
    void theReloadTableNamesTheLiveKeysAndOnlyThem() throws Exception {
        Set<String> live = new TreeSet<>();
        Set<String> atRestart = new TreeSet<>();
        Set<String> patterns = ConfigKeys.all().stream().map(ConfigKey::pattern).collect(Collectors.toSet());
        for (List<String> row : rows("| keys | on `SIGHUP` |")) {
            List<String> keys = code(row.get(0)).stream().filter(patterns::contains).toList();
            (row.get(0).startsWith("every other key") ? atRestart : live).addAll(keys);
        }

        assertThat(live).containsExactlyInAnyOrderElementsOf(ConfigKeys.all().stream().filter(ConfigKey::live)
                .map(ConfigKey::pattern).toList());
        assertThat(atRestart).isNotEmpty().allSatisfy(k -> assertThat(ConfigKeys.all().stream()
                .filter(c -> c.pattern().equals(k)).findFirst().orElseThrow().live()).as(k).isFalse());
    }
}
