package koala.scheduler.config;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * The loggers' levels the configuration sets: {@code scheduler.logLevel} for KOALA's own loggers
 * ({@code koala}), {@code scheduler.logLevel.L} for logger {@code L} and those below it. Set at
 * start and whenever a reload changes them; a key removed gives {@code koala} back the level it
 * started with ({@code KOALA_LOG_LEVEL}, else {@code info}) and another logger its parent's.
 */
public final class LogLevels {
    static final String KOALA = "koala";
    private static final String KEY = "scheduler.logLevel";

    private final Level koalaAtStart;

    private LogLevels(Level koalaAtStart) {
        this.koalaAtStart = koalaAtStart;
    }

    /** Remembers the level {@code koala} has now, before the configuration sets any. */
    public static LogLevels atStart() {
        return new LogLevels(LoggerContext.getContext(false).getConfiguration().getLoggerConfig(KOALA).getLevel());
    }

    /** The levels {@code values} (a configuration's keys) set, by logger: {@code koala} first, then by name. */
    static Map<String, String> of(Map<String, String> values) {
        Map<String, String> levels = new TreeMap<>();
        values.forEach((key, value) -> {
            if (key.equals(KEY)) {
                levels.put(KOALA, value.strip().toLowerCase(Locale.ROOT));
            } else if (key.startsWith(KEY + ".")) {
                levels.put(key.substring(KEY.length() + 1), value.strip().toLowerCase(Locale.ROOT));
            }
        });
        return levels;
    }

    /**
     * What to set, in order (parents before the loggers below them), for the levels of {@code after}
     * to replace those of {@code before}: a level, or empty for the logger's level from the start.
     */
    static Map<String, Optional<String>> changes(Map<String, String> before, Map<String, String> after) {
        Map<String, String> was = of(before);
        Map<String, String> now = of(after);
        Map<String, Optional<String>> changes = new TreeMap<>(java.util.Comparator
                .comparingInt((String name) -> name.split("\\.").length).thenComparing(name -> name));
        was.keySet().stream().filter(name -> !now.containsKey(name)).forEach(name -> changes.put(name, Optional.empty()));
        now.forEach((name, level) -> {
            if (!level.equals(was.get(name))) {
                changes.put(name, Optional.of(level));
            }
        });
        return new LinkedHashMap<>(changes);
    }

    /** Sets the levels {@code after} names where they differ from {@code before}'s (nothing: empty). */
    public void apply(Map<String, String> before, Map<String, String> after) {
        changes(before, after).forEach((name, level) -> Configurator.setLevel(name, level.map(Level::toLevel)
                .orElse(name.equals(KOALA) ? koalaAtStart : null)));
    }
}
