package koala.provisioning;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Reads a {@link SettingsLayer} from text, with the JDF checker's formats and messages
 * ({@code uMin: '101' is not a percentage (0 to 100)}), so that a site's configuration and a JDF
 * are refused in the same words. Problems come in the order of {@link Setting}, unknown keys last.
 */
final class SettingsText {
    private static final Pattern WHOLE = Pattern.compile("\\d+");
    private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?|\\.\\d+");

    private final Map<String, String> values;
    private final List<SettingProblem> problems = new ArrayList<>();

    private SettingsText(Map<String, String> values) {
        this.values = values;
    }

    static SettingsLayer parse(Map<String, String> values) {
        SettingsText text = new SettingsText(values);
        SettingsLayer layer = text.layer();
        text.unknownKeys();
        text.problems.addAll(layer.problems());
        if (!text.problems.isEmpty()) {
            throw new InvalidSettingsException(text.problems);
        }
        return layer;
    }

    private SettingsLayer layer() {
        PolicyKind policy = read(Setting.POLICY.key(), t -> PolicyKind.byName(t)
                .orElseThrow(() -> new Bad("is not one of: " + PolicyKind.names())));
        Integer fMax = read(Setting.F_MAX.key(), t -> positiveWhole(t, "is not a positive whole number"));
        IdleTime tIdle = idleTime();
        Double uMin = read(Setting.U_MIN.key(), SettingsText::percent);
        Double uMax = read(Setting.U_MAX.key(), SettingsText::percent);
        Duration samplePeriod = read(Setting.SAMPLE_PERIOD.key(),
                t -> Duration.ofSeconds(positiveWhole(t, "is not a positive whole number of seconds")));
        Double threshold = read(Setting.ORCHESTRATOR_THRESHOLD.key(), SettingsText::positiveNumber);
        Integer initial = read(Setting.INITIAL_WORKERS.key(), t -> whole(t, "is not a whole number"));
        Double reserve = read(Setting.RESERVE.key(), SettingsText::percent);
        Integer pool = read(Setting.POOL.key(), t -> whole(t, "is not a whole number of workers"));
        Double weight = read(Setting.WEIGHT.key(), SettingsText::positiveNumber);
        Integer minShare = read(Setting.MIN_SHARE.key(), t -> whole(t, "is not a whole number of nodes"));
        return new SettingsLayer(policy, fMax, tIdle, uMin, uMax, samplePeriod, threshold, initial, reserve, pool,
                weight, minShare);
    }

    private IdleTime idleTime() {
        IdleTime seconds = read(Setting.T_IDLE.key(),
                t -> IdleTime.fixed(Duration.ofSeconds(whole(t, "is not a whole number of seconds"))));
        IdleTime factor = read(Setting.T_IDLE_FACTOR_KEY, t -> IdleTime.factor(positiveNumber(t)));
        if (values.containsKey(Setting.T_IDLE.key()) && values.containsKey(Setting.T_IDLE_FACTOR_KEY)) {
            problems.add(new SettingProblem(Setting.T_IDLE_FACTOR_KEY,
                    "give tIdle (seconds) or tIdleFactor (times the grow time), not both"));
            return null;
        }
        return seconds != null ? seconds : factor;
    }

    private void unknownKeys() {
        List<String> known = new ArrayList<>(Arrays.stream(Setting.values()).map(Setting::key).toList());
        known.add(Setting.T_IDLE_FACTOR_KEY);
        for (String key : new TreeSet<>(values.keySet())) {
            if (!known.contains(key)) {
                problems.add(new SettingProblem(key, "unknown setting; known: " + Setting.keys()));
            }
        }
    }

    /** The value under key read by reader; null when absent or malformed (then a problem is noted). */
    private <T> T read(String key, Function<String, T> reader) {
        String raw = values.get(key);
        if (raw == null) {
            return null;
        }
        String text = raw.strip();
        if (text.isEmpty()) {
            problems.add(new SettingProblem(key, "no value"));
            return null;
        }
        try {
            return reader.apply(text);
        } catch (Bad bad) {
            problems.add(new SettingProblem(key, "'" + text + "' " + bad.getMessage()));
            return null;
        }
    }

    private static int whole(String text, String reason) {
        if (!WHOLE.matcher(text).matches() || text.length() > 9) {
            throw new Bad(reason);
        }
        return Integer.parseInt(text);
    }

    private static int positiveWhole(String text, String reason) {
        if (whole(text, reason) < 1) {
            throw new Bad(reason);
        }
        return Integer.parseInt(text);
    }

    private static double positiveNumber(String text) {
        if (!NUMBER.matcher(text).matches() || Double.parseDouble(text) <= 0) {
            throw new Bad("is not a positive number");
        }
        return Double.parseDouble(text);
    }

    private static double percent(String text) {
        if (!NUMBER.matcher(text).matches() || Double.parseDouble(text) > 100) {
            throw new Bad("is not a percentage (0 to 100)");
        }
        return Double.parseDouble(text);
    }

    /** A malformed value; the message completes "'text' ...". */
    private static final class Bad extends RuntimeException {
        Bad(String reason) {
            super(reason, null, false, false);
        }
    }
}
