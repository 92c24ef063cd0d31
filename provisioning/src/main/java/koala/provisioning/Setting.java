package koala.provisioning;

import java.util.Arrays;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One provisioning setting, by the key a JDF or the grid configuration gives it. {@code tIdle} is
 * one setting with two spellings: {@code tIdle} (seconds) or {@code tIdleFactor} (times O_grow).
 */
public enum Setting {
    POLICY("provisioning", s -> s.policy().shortName()),
    F_MAX("fMax", s -> String.valueOf(s.fMax())),
    T_IDLE("tIdle", s -> s.tIdle().describe()),
    U_MIN("uMin", s -> Texts.percent(s.uMin())),
    U_MAX("uMax", s -> Texts.percent(s.uMax())),
    SAMPLE_PERIOD("samplePeriod", s -> Texts.seconds(s.samplePeriod())),
    ORCHESTRATOR_THRESHOLD("orchestratorThreshold", s -> Texts.number(s.orchestratorThreshold())),
    INITIAL_WORKERS("initialWorkers", s -> String.valueOf(s.initialWorkers())),
    /** The reserve policy's warm reserve, percent of the busy workers. */
    RESERVE("reserve", s -> Texts.percent(s.reservePercent())),
    /** The pool policy's warm pool, idle workers. */
    POOL("pool", s -> Texts.count(s.pool(), "idle worker")),
    /** The instance's weight when a full grid is shared out; a site's value is a ceiling. */
    WEIGHT("weight", s -> Texts.number(s.weight())),
    /** Nodes never taken back when a full grid is shared out; a site's value is a ceiling. */
    MIN_SHARE("minShare", s -> Texts.count(s.minShare(), "node"));

    /** The other spelling of {@link #T_IDLE}: {@code t_idle} as a multiple of O_grow. */
    public static final String T_IDLE_FACTOR_KEY = "tIdleFactor";

    private final String key;
    private final Function<ProvisioningSettings, String> format;

    Setting(String key, Function<ProvisioningSettings, String> format) {
        this.key = key;
        this.format = format;
    }

    /** The key as written in a JDF or the grid configuration, e.g. "fMax". */
    public String key() {
        return key;
    }

    /** This setting's value in {@code settings} as a user reads it: "20", "6 × O_grow", "40%", "40 s". */
    public String format(ProvisioningSettings settings) {
        return format.apply(settings);
    }

    /** Every key a settings map may hold, tIdleFactor included, for messages. */
    static String keys() {
        return Arrays.stream(values()).map(Setting::key).collect(Collectors.joining(", ")) + ", " + T_IDLE_FACTOR_KEY;
    }

    @Override
    public String toString() {
        return key;
    }
}
