package koala.provisioning;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The provisioning policy of a framework instance's worker layer, as the JDF names it
 * ({@code provisioning = ondemand}). Each carries the paper's factor n for {@code t_idle = n · O_grow}.
 *
 * <p>The one list of policy names: the JDF parser (given {@link #shortNames()} by the runner and the
 * CLI), the FrameworkJobManager's registry and the CLI's options read them from here.
 */
public enum PolicyKind {
    /** Never grows or shrinks: the instance keeps its initial workers. n = 6 only matters for orchestrator nodes. */
    STATIC("static", 6, Initiative.NOBODY),
    /** Grows and shrinks when the framework asks; the paper's n = 6. */
    ONDEMAND("ondemand", 6, Initiative.FRAMEWORK),
    /** Grows and shrinks from the workers' mean CPU utilization; the paper's n = 2. */
    PROACTIVE("proactive", 2, Initiative.SCHEDULER),
    /**
     * OnDemand's grows, with a warm reserve of idle workers sized from the load: the reserve is kept
     * for t_idle (n = 6), the other idle workers go at once. Not in the paper; see {@link ReservePolicy}.
     */
    RESERVE("reserve", 6, Initiative.FRAMEWORK),
    /**
     * OnDemand's grows, with a warm pool of a fixed number of idle workers kept for t_idle (n = 60,
     * half an hour at O_grow 30 s); the others go at once. Not in the paper; see {@link PoolPolicy}.
     */
    POOL("pool", 60, Initiative.FRAMEWORK);

    /** Who takes the initiative to resize, the paper's table: what runners and framework masters act on. */
    private enum Initiative { NOBODY, FRAMEWORK, SCHEDULER }

    private final String shortName;
    private final double defaultIdleFactor;
    private final Initiative initiative;

    PolicyKind(String shortName, double defaultIdleFactor, Initiative initiative) {
        this.shortName = shortName;
        this.defaultIdleFactor = defaultIdleFactor;
        this.initiative = initiative;
    }

    /**
     * True when the framework asks for its grows and shrinks (OnDemand): its master sends the
     * requests it computes instead of only reporting them.
     */
    public boolean frameworkResizes() {
        return initiative == Initiative.FRAMEWORK;
    }

    /**
     * True when the instance never runs below its initial workers whatever the framework does
     * (Static, Proactive): the runner replaces a lost worker. Under a framework-driven policy the
     * framework asks for what it needs instead.
     */
    public boolean keepsInitialWorkers() {
        return initiative != Initiative.FRAMEWORK;
    }

    /**
     * True when the policy, not t_idle alone, decides which idle workers go (Reserve, Pool): the
     * framework asks each sample period to release every idle worker, and the policy keeps its warm
     * ones. Under OnDemand the framework asks only for those idle at least t_idle.
     */
    public boolean keepsWarm() {
        return this == RESERVE || this == POOL;
    }

    /** True when a sample may grow the layer, so the runner gives the policy the grid's free nodes then (Proactive). */
    public boolean growsOnSample() {
        return initiative == Initiative.SCHEDULER;
    }

    /** The name used in JDFs and the grid configuration: static, ondemand, proactive, reserve, pool. */
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

    /** Every short name, in declaration order: static, ondemand, proactive, reserve, pool. */
    public static List<String> shortNames() {
        return Arrays.stream(values()).map(PolicyKind::shortName).toList();
    }

    /** "static, ondemand, proactive, reserve, pool", for messages. */
    public static String names() {
        return String.join(", ", shortNames());
    }

    @Override
    public String toString() {
        return shortName;
    }
}
