package koala.grid;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a key of the grid configuration takes, and why a value is not that: the words are
 * {@link GridConfig}'s own ({@code site.fs0.node.count = 'many': not a whole number}), so that a
 * file is refused by {@code koala config check} as the daemons would refuse it.
 */
public enum ValueType {
    /** Any text. */
    TEXT,
    /** Names, comma-separated. */
    LIST,
    /** A path; empty for the default. */
    PATH,
    /** A TCP port, 0 for any free one. */
    PORT,
    /** A TCP port a daemon listens on: 1 to 65535. */
    LISTEN_PORT,
    /** A whole number, 0 or more. */
    WHOLE,
    /** A whole number, 1 or more. */
    POSITIVE,
    /** Seconds, fractions allowed, 0 or more; empty for the default. */
    SECONDS,
    /** Seconds, fractions allowed, above 0; empty for the default. */
    POSITIVE_SECONDS,
    /** {@code yes} or {@code no}. */
    YES_NO,
    /** Bytes, with a K, M or G suffix for kibi-, mebi- or gibibytes. */
    SIZE,
    /** A number above 0, fractions allowed. */
    RATE,
    /** A Log4j level: off, fatal, error, warn, info, debug, trace or all. */
    LOG_LEVEL,
    /** Host names, ranges ({@code fs0-n1..fs0-n8}) and patterns ({@code fs0-gpu*}), comma-separated ({@link HostList}). */
    HOSTS,
    /** GPU device indices, whole numbers 0 or more, comma-separated, each once ({@link GpuDevices}). */
    GPU_DEVICES,
    /** Checked by the code that reads it, in its own words (placement and sharing policies, provisioning). */
    CHECKED_WHERE_READ;

    /** Compiled when a value is first checked, not when the catalogue is loaded (every command loads it). */
    private static final class Formats {
        static final Pattern WHOLE_NUMBER = Pattern.compile("\\d{1,9}");
        static final Pattern DECIMAL = Pattern.compile("\\d{1,12}(\\.\\d+)?|\\.\\d+");
        static final Pattern BYTES = Pattern.compile("\\d{1,15}[KMG]?", Pattern.CASE_INSENSITIVE);
        static final Set<String> LEVELS = Set.of("off", "fatal", "error", "warn", "info", "debug", "trace", "all");
    }

    /**
     * Why {@code raw} (trimmed) is not a value of this type for {@code key}, as the rest of a message
     * that the file's name and line go before; empty when it is one.
     */
    public Optional<String> problem(String key, String raw) {
        String v = raw.strip();
        return switch (this) {
            case TEXT, LIST, PATH, CHECKED_WHERE_READ -> Optional.empty();
            case HOSTS -> HostList.problem(v).map(p -> key + " = '" + v + "': " + p);
            case GPU_DEVICES -> GpuDevices.problem(v).map(p -> key + " = '" + v + "': " + p);
            case PORT -> whole(key, v).or(() -> range(key, v, 0, 65535, "a port is 0..65535"));
            case LISTEN_PORT -> whole(key, v).or(() -> range(key, v, 1, 65535, "a port is 1..65535"));
            case WHOLE -> whole(key, v);
            case POSITIVE -> whole(key, v).or(() -> range(key, v, 1, Integer.MAX_VALUE, "must be at least 1"));
            case SECONDS -> v.isEmpty() || Formats.DECIMAL.matcher(v).matches() ? Optional.empty()
                    : Optional.of(key + " = '" + v + "': not a number of seconds");
            case POSITIVE_SECONDS -> v.isEmpty() ? Optional.empty() : !Formats.DECIMAL.matcher(v).matches()
                    ? Optional.of(key + " = '" + v + "': not a number of seconds")
                    : Double.parseDouble(v) > 0 ? Optional.empty() : Optional.of(key + " = " + v + ": must be positive");
            case YES_NO -> v.isEmpty() || v.equals("yes") || v.equals("no") ? Optional.empty()
                    : Optional.of(key + " = '" + v + "': yes or no");
            case SIZE -> v.isEmpty() || Formats.BYTES.matcher(v).matches() ? Optional.empty()
                    : Optional.of(key + " = '" + v + "': not a size (e.g. 512M, 4G)");
            case RATE -> Formats.DECIMAL.matcher(v).matches() && Double.parseDouble(v) > 0 ? Optional.empty()
                    : Optional.of(key + " = '" + v + "': not a number above 0");
            case LOG_LEVEL -> v.isEmpty() || Formats.LEVELS.contains(v.toLowerCase(Locale.ROOT)) ? Optional.empty()
                    : Optional.of(key + " = '" + v + "': not a log level (off, fatal, error, warn, info, debug, "
                    + "trace, all)");
        };
    }

    /** An empty whole number is an error, as {@link GridConfig#integer} reads it. */
    private static Optional<String> whole(String key, String v) {
        return Formats.WHOLE_NUMBER.matcher(v).matches() || v.startsWith("-") && Formats.WHOLE_NUMBER.matcher(v.substring(1)).matches()
                ? Optional.empty() : Optional.of(key + " = '" + v + "': not a whole number");
    }

    private static Optional<String> range(String key, String v, long min, long max, String reason) {
        long n = Long.parseLong(v);
        return n >= min && n <= max ? Optional.empty() : Optional.of(key + " = " + v + ": " + reason);
    }
}
