package koala.provisioning;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The provisioning policy of a framework instance's worker layer, as the JDF names it
 * ({@code provisioning = ondemand}). Each carries the paper's factor n for {@code t_idle = n · O_grow}.
 */
public enum PolicyKind {
    /** Never grows or shrinks: the instance keeps its initial workers. n = 6 only matters for orchestrator nodes. */
    STATIC("static", 6),
    /** Grows and shrinks when the framework asks; the paper's n = 6. */
    ONDEMAND("ondemand", 6),
    /** Grows and shrinks from the workers' mean CPU utilization; the paper's n = 2. */
    PROACTIVE("proactive", 2);

    private final String shortName;
    private final double defaultIdleFactor;

    PolicyKind(String shortName, double defaultIdleFactor) {
        this.shortName = shortName;
        this.defaultIdleFactor = defaultIdleFactor;
    }

    /** The name used in JDFs and the grid configuration: static, ondemand, proactive. */
    public String shortName() {
        return shortName;
    }

    /** The paper's n in {@code t_idle = n · O_grow} for this policy: 6 for OnDemand, 2 for Proactive. */
    public double defaultIdleFactor() {
        return defaultIdleFactor;
    }

    /** The policy of that short name, case and surrounding blanks ignored; empty if there is none. */
    public static Optional<PolicyKind> byName(String name) {
        String wanted = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(p -> p.shortName.equals(wanted)).findFirst();
    }

    /** "static, ondemand, proactive", for messages. */
    static String names() {
        return Arrays.stream(values()).map(PolicyKind::shortName).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return shortName;
    }
}
