package koala.fluent.client;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.JobRequest;

/**
 * A job file: one application per line, {@code #} starts a comment.
 * <pre>
 * # three video filters, then a word count over 4 mappers
 * rl  count=3 duration=20s cpu=40 loadPeriod=5s
 * swc n=2 file=/usr/share/common-licenses/GPL-3 duration=10s
 * </pre>
 * {@code rl} takes {@code duration} (60s), {@code cpu} (percent of a core, 50) and
 * {@code loadPeriod} (10s); {@code swc} takes {@code file} (required; relative to the job file),
 * {@code n} (2^n mappers, 1) and {@code duration} (how long the reader streams, 10s); both take
 * {@code count} (1). Durations are {@code 500ms}, {@code 20s}, {@code 2m} or plain seconds. A
 * mistake is reported as {@code file:line:column: what is wrong}.
 */
public final class JobFile {
    private static final Pattern WORD = Pattern.compile("\\S+");
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m)?");
    private static final Map<String, Set<String>> KEYS = Map.of(
            "rl", Set.of("count", "duration", "cpu", "loadPeriod"),
            "swc", Set.of("count", "duration", "cpu", "n", "file"));

    /** A mistake in a job file, at a line and column. */
    public static final class JobFileException extends IllegalArgumentException {
        public JobFileException(String name, int line, int column, String message) {
            super(name + ":" + line + ":" + column + ": " + message);
        }
    }

    private JobFile() {
    }

    public static JobRequest parse(String name, String text, Path baseDir) {
        List<AppRequest> apps = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].replaceFirst("#.*", "");
            new Line(name, i + 1, line, baseDir).parse(apps);
        }
        if (apps.isEmpty()) {
            throw new JobFileException(name, 1, 1, "no application: write e.g. 'rl count=2 duration=30s'");
        }
        return new JobRequest(name, apps);
    }

    private record Line(String name, int number, String text, Path baseDir) {
        void parse(List<AppRequest> apps) {
            Matcher words = WORD.matcher(text);
            if (!words.find()) {
                return;
            }
            String kind = words.group();
            if (!KEYS.containsKey(kind)) {
                throw error(words.start(), "'" + kind + "': an application is rl or swc");
            }
            Map<String, String> values = new LinkedHashMap<>();
            Map<String, Integer> columns = new LinkedHashMap<>();
            while (words.find()) {
                String word = words.group();
                int eq = word.indexOf('=');
                if (eq <= 0 || eq == word.length() - 1) {
                    throw error(words.start(), "'" + word + "': write key=value");
                }
                String key = word.substring(0, eq);
                if (!KEYS.get(kind).contains(key)) {
                    throw error(words.start(), "'" + key + "' is not a setting of " + kind + "; it takes "
                            + String.join(", ", KEYS.get(kind).stream().sorted().toList()));
                }
                if (values.put(key, word.substring(eq + 1)) != null) {
                    throw error(words.start(), key + " given twice");
                }
                columns.put(key, words.start() + eq + 1);
            }
            int count = values.containsKey("count") ? integer(values, columns, "count", 1, 1000) : 1;
            AppRequest app = kind.equals("rl")
                    ? new AppRequest("rl", millis(values, columns, "duration"), percent(values, columns),
                            millis(values, columns, "loadPeriod"), null, null)
                    : new AppRequest("swc", millis(values, columns, "duration"), percent(values, columns), null,
                            values.containsKey("n") ? integer(values, columns, "n", 0, 6) : null,
                            file(values, columns));
            for (int i = 0; i < count; i++) {
                apps.add(app);
            }
        }

        private String file(Map<String, String> values, Map<String, Integer> columns) {
            if (!values.containsKey("file")) {
                throw error(0, "swc needs file=PATH, the text whose words it counts");
            }
            return baseDir.resolve(values.get("file")).toAbsolutePath().normalize().toString();
        }

        private Long millis(Map<String, String> values, Map<String, Integer> columns, String key) {
            String value = values.get(key);
            if (value == null) {
                return null;
            }
            Matcher m = DURATION.matcher(value);
            if (!m.matches()) {
                throw error(columns.get(key), key + " '" + value + "': write 500ms, 20s, 2m or seconds");
            }
            double amount = Double.parseDouble(m.group(1));
            double factor = m.group(2) == null || m.group(2).equals("s") ? 1000 : m.group(2).equals("m") ? 60_000 : 1;
            long millis = Math.round(amount * factor);
            if (millis <= 0) {
                throw error(columns.get(key), key + " '" + value + "' is not positive");
            }
            return millis;
        }

        private Double percent(Map<String, String> values, Map<String, Integer> columns) {
            String value = values.get("cpu");
            if (value == null) {
                return null;
            }
            try {
                double cpu = Double.parseDouble(value.replaceFirst("%$", ""));
                if (cpu > 0 && cpu <= 100) {
                    return cpu;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw error(columns.get("cpu"), "cpu '" + value + "': a percentage in (0, 100]");
        }

        private int integer(Map<String, String> values, Map<String, Integer> columns, String key, int min, int max) {
            String value = values.get(key);
            try {
                int n = Integer.parseInt(value);
                if (n >= min && n <= max) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw error(columns.get(key), key + " '" + value + "': a whole number in " + min + ".." + max);
        }

        private JobFileException error(int index, String message) {
            return new JobFileException(name, number, index + 1, message);
        }
    }
}
