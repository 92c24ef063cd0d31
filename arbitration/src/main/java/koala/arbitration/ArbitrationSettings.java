package koala.arbitration;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.regex.Pattern;
import koala.provisioning.InvalidSettingsException;
import koala.provisioning.SettingProblem;

/**
 * How a full grid is shared out between framework instances: the grid's settings, one set for the
 * whole grid ({@code scheduler.arbitration.KEY} in the grid configuration). Per-instance claims
 * (weight, minShare) are provisioning settings, per site and JDF.
 *
 * @param rule          the policy, by name ({@code policy}; default fcfs, today's behaviour)
 * @param roundFraction at most this fraction of the capacity is taken back per round period
 *                      ({@code maxTakeBack}, percent; 10% as YARN's capacity scheduler's
 *                      {@code total_preemption_per_round}); at least one node
 * @param grace         how long an instance asked to shrink has before KOALA ends workers itself
 *                      ({@code grace}, seconds; 15 s as YARN's {@code max_wait_before_kill})
 * @param window        a node taken back and granted to an instance is not taken again within it
 *                      ({@code window}, seconds; 300 s, one RL)
 * @param roundPeriod   how often the scheduler runs a round without a grow request, and the period
 *                      of the bound on taking back ({@code round}, seconds; 15 s)
 * @param margin        performance only: an instance takes from one whose figure is lower than its
 *                      own by more than this fraction ({@code margin}, percent; 25%)
 * @param maxPerHour    at most this many nodes are taken back from one instance in any hour
 *                      ({@code maxPerHour}; 0, the default, for no such bound)
 * @param patience      nodes are taken back for an instance only once it has been refused, below
 *                      its share, for this long ({@code patience}, seconds; as YARN's fair-share
 *                      preemption timeout): a shortfall that free nodes soon make good moves nothing
 * @param queuedDemand  the queued work instances report ({@link Tenant#queued()}) counts as demand,
 *                      and is served between their asks as if they asked for it: from free nodes, and
 *                      by taking back as for an ask ({@code queuedDemand}, true or false; false). fcfs
 *                      ignores it
 */
public record ArbitrationSettings(ShareRule rule, double roundFraction, Duration grace, Duration window,
        Duration roundPeriod, double margin, int maxPerHour, Duration patience, boolean queuedDemand) {

    /** Settings that do not count queued work as demand. */
    public ArbitrationSettings(ShareRule rule, double roundFraction, Duration grace, Duration window,
            Duration roundPeriod, double margin, int maxPerHour, Duration patience) {
        this(rule, roundFraction, grace, window, roundPeriod, margin, maxPerHour, patience, false);
    }

    public static final ArbitrationSettings DEFAULTS = new ArbitrationSettings(ShareRule.FCFS, 0.10,
            Duration.ofSeconds(15), Duration.ofSeconds(300), Duration.ofSeconds(15), 0.25, 0, Duration.ZERO, false);

    private static final List<String> KEYS = List.of("policy", "maxTakeBack", "grace", "window", "round", "margin",
            "maxPerHour", "patience", "queuedDemand");
    private static final Pattern WHOLE = Pattern.compile("\\d{1,9}");
    private static final Pattern NUMBER = Pattern.compile("\\d{1,9}(\\.\\d+)?|\\.\\d+");

    public ArbitrationSettings {
        Objects.requireNonNull(rule, "policy");
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(roundPeriod, "roundPeriod");
        Objects.requireNonNull(patience, "patience");
        List<SettingProblem> problems = new ArrayList<>();
        if (!(roundFraction > 0 && roundFraction <= 1)) {
            problems.add(new SettingProblem("maxTakeBack", percent(roundFraction) + " is not above 0% and at most 100%"));
        }
        if (grace.isNegative() || window.isNegative() || patience.isNegative()) {
            problems.add(new SettingProblem(grace.isNegative() ? "grace" : window.isNegative() ? "window" : "patience",
                    "must not be negative"));
        }
        if (roundPeriod.isNegative() || roundPeriod.isZero()) {
            problems.add(new SettingProblem("round", "must be positive"));
        }
        if (!(margin >= 0 && Double.isFinite(margin))) {
            problems.add(new SettingProblem("margin", percent(margin) + " must not be negative"));
        }
        if (maxPerHour < 0) {
            problems.add(new SettingProblem("maxPerHour", maxPerHour + " must not be negative"));
        }
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
    }

    /** The defaults with this policy. */
    public static ArbitrationSettings of(ShareRule rule) {
        return DEFAULTS.withRule(rule);
    }

    /**
     * Reads {@code policy}, {@code maxTakeBack} (percent), {@code grace}, {@code window},
     * {@code round}, {@code patience} (whole seconds), {@code margin} (percent), {@code maxPerHour}
     * (nodes) and {@code queuedDemand} (true or false); what is not given keeps its default.
     *
     * @throws InvalidSettingsException listing every malformed value and unknown key
     */
    public static ArbitrationSettings parse(Map<String, String> values) {
        List<SettingProblem> problems = new ArrayList<>();
        ArbitrationSettings d = DEFAULTS;
        ShareRule rule = d.rule;
        String name = values.get("policy");
        if (name != null) {
            rule = ShareRule.byName(name).orElse(null);
            if (rule == null) {
                problems.add(new SettingProblem("policy", "'" + name.strip() + "' is not one of: " + ShareRule.names()));
                rule = d.rule;
            }
        }
        double fraction = number(values, "maxTakeBack", d.roundFraction * 100, problems) / 100;
        Duration grace = Duration.ofSeconds((long) whole(values, "grace", d.grace.toSeconds(), problems));
        Duration window = Duration.ofSeconds((long) whole(values, "window", d.window.toSeconds(), problems));
        Duration round = Duration.ofSeconds((long) whole(values, "round", d.roundPeriod.toSeconds(), problems));
        double margin = number(values, "margin", d.margin * 100, problems) / 100;
        int perHour = (int) whole(values, "maxPerHour", d.maxPerHour, problems, "is not a whole number of nodes");
        Duration patience = Duration.ofSeconds((long) whole(values, "patience", d.patience.toSeconds(), problems));
        boolean queued = yesNo(values, "queuedDemand", d.queuedDemand, problems);
        for (String key : new TreeSet<>(values.keySet())) {
            if (!KEYS.contains(key)) {
                problems.add(new SettingProblem(key, "unknown setting; known: " + String.join(", ", KEYS)));
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
        return new ArbitrationSettings(rule, fraction, grace, window, round, margin, perHour, patience, queued);
    }

    public ArbitrationSettings withRule(ShareRule value) {
        return new ArbitrationSettings(value, roundFraction, grace, window, roundPeriod, margin, maxPerHour,
                patience, queuedDemand);
    }

    public ArbitrationSettings withRoundFraction(double value) {
        return new ArbitrationSettings(rule, value, grace, window, roundPeriod, margin, maxPerHour, patience,
                queuedDemand);
    }

    public ArbitrationSettings withGrace(Duration value) {
        return new ArbitrationSettings(rule, roundFraction, value, window, roundPeriod, margin, maxPerHour, patience,
                queuedDemand);
    }

    public ArbitrationSettings withWindow(Duration value) {
        return new ArbitrationSettings(rule, roundFraction, grace, value, roundPeriod, margin, maxPerHour, patience,
                queuedDemand);
    }

    public ArbitrationSettings withRoundPeriod(Duration value) {
        return new ArbitrationSettings(rule, roundFraction, grace, window, value, margin, maxPerHour, patience,
                queuedDemand);
    }

    public ArbitrationSettings withMargin(double value) {
        return new ArbitrationSettings(rule, roundFraction, grace, window, roundPeriod, value, maxPerHour, patience,
                queuedDemand);
    }

    public ArbitrationSettings withPatience(Duration value) {
        return new ArbitrationSettings(rule, roundFraction, grace, window, roundPeriod, margin, maxPerHour, value,
                queuedDemand);
    }

    public ArbitrationSettings withMaxPerHour(int value) {
        return new ArbitrationSettings(rule, roundFraction, grace, window, roundPeriod, margin, value, patience,
                queuedDemand);
    }

    public ArbitrationSettings withQueuedDemand(boolean value) {
        return new ArbitrationSettings(rule, roundFraction, grace, window, roundPeriod, margin, maxPerHour, patience,
                value);
    }

    /** Nodes that may be taken back per round period: the fraction of the capacity, rounded down, at least 1. */
    public int roundBudget(int capacity) {
        return Math.max(1, (int) Math.floor(roundFraction * capacity + 1e-9));
    }

    /** "policy fair, at most 10% of the capacity taken back per 15 s, grace 15 s, window 300 s". */
    public String describe() {
        return "policy " + rule + ", at most " + percent(roundFraction) + " of the capacity taken back per "
                + roundPeriod.toSeconds() + " s, grace " + grace.toSeconds() + " s, window " + window.toSeconds() + " s"
                + (rule == ShareRule.PERFORMANCE ? ", margin " + percent(margin) : "")
                + (patience.isZero() ? "" : ", patience " + patience.toSeconds() + " s")
                + (maxPerHour > 0 ? ", at most " + maxPerHour + " nodes from one instance an hour" : "")
                + (queuedDemand ? ", queued work counted as demand" : "");
    }

    private static String percent(double fraction) {
        return koala.provisioning.Texts.percent(fraction * 100);
    }

    private static double number(Map<String, String> values, String key, double fallback, List<SettingProblem> problems) {
        String raw = values.get(key);
        if (raw == null) {
            return fallback;
        }
        if (!NUMBER.matcher(raw.strip()).matches()) {
            problems.add(new SettingProblem(key, "'" + raw.strip() + "' is not a number"));
            return fallback;
        }
        return Double.parseDouble(raw.strip());
    }

    private static boolean yesNo(Map<String, String> values, String key, boolean fallback, List<SettingProblem> problems) {
        String raw = values.get(key);
        if (raw == null) {
            return fallback;
        }
        String v = raw.strip().toLowerCase(java.util.Locale.ROOT);
        if (!v.equals("true") && !v.equals("false")) {
            problems.add(new SettingProblem(key, "'" + raw.strip() + "' is not true or false"));
            return fallback;
        }
        return v.equals("true");
    }

    private static double whole(Map<String, String> values, String key, double fallback, List<SettingProblem> problems) {
        return whole(values, key, fallback, problems, "is not a whole number of seconds");
    }

    private static double whole(Map<String, String> values, String key, double fallback, List<SettingProblem> problems,
                                String what) {
        String raw = values.get(key);
        if (raw == null) {
            return fallback;
        }
        if (!WHOLE.matcher(raw.strip()).matches()) {
            problems.add(new SettingProblem(key, "'" + raw.strip() + "' " + what));
            return fallback;
        }
        return Long.parseLong(raw.strip());
    }
}
