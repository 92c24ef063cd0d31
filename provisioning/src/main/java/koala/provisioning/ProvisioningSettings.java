package koala.provisioning;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The provisioning settings in force for one framework instance; every value checked.
 *
 * @param policy                how the worker layer is sized: static, ondemand or proactive
 * @param fMax                  the most workers the instance may have, starting ones included (paper: 20)
 * @param tIdle                 how long a worker or orchestrator node must be idle before it is given
 *                              back: fixed, or {@code n · O_grow} (paper: n = 6 OnDemand, 2 Proactive)
 * @param uMin                  mean worker CPU utilization, percent, below which Proactive shrinks (40)
 * @param uMax                  mean worker CPU utilization, percent, above which Proactive grows (50)
 * @param samplePeriod          how often the runner samples CPU utilization and ticks the policy (40 s)
 * @param orchestratorThreshold the average number of orchestrators per orchestrator node above
 *                              which a new orchestrator node is asked for (45)
 * @param initialWorkers        the workers the JDF starts with; Proactive grows by this many and
 *                              never shrinks below it
 * @param reservePercent        reserve policy: the warm reserve of idle workers kept for t_idle, as a
 *                              percentage of the busy workers (50); the other idle workers go at once
 * @param pool                  pool policy: the idle workers kept for t_idle (8); the others go at once
 * @param weight                the instance's weight when a full grid is shared out between instances (1):
 *                              under a weighted policy it is entitled to nodes in proportion to it
 * @param minShare              nodes never taken back from the instance when a full grid is shared out (0)
 * @throws InvalidSettingsException listing every refused value
 */
public record ProvisioningSettings(PolicyKind policy, int fMax, IdleTime tIdle, double uMin, double uMax,
        Duration samplePeriod, double orchestratorThreshold, int initialWorkers, double reservePercent,
        int pool, double weight, int minShare) {

    /** The policy when no layer names one: OnDemand, the paper's best on utilization (73%, Table 2). */
    public static final PolicyKind DEFAULT_POLICY = PolicyKind.ONDEMAND;
    public static final int DEFAULT_F_MAX = 20;
    public static final double DEFAULT_U_MIN = 40;
    public static final double DEFAULT_U_MAX = 50;
    public static final Duration DEFAULT_SAMPLE_PERIOD = Duration.ofSeconds(40);
    public static final double DEFAULT_ORCHESTRATOR_THRESHOLD = 45;
    /** The reserve policy keeps this share of its busy workers idle as a warm reserve (see {@link ReservePolicy}). */
    public static final double DEFAULT_RESERVE_PERCENT = 50;
    /** The pool policy keeps this many idle workers (see {@link PoolPolicy}): enough for 98% of W_rl's batches. */
    public static final int DEFAULT_POOL = 8;
    /** Every instance weighs the same unless an admin (or a JDF, within the site's cap) says otherwise. */
    public static final double DEFAULT_WEIGHT = 1;
    /** No node is guaranteed unless an admin (or a JDF, within the site's cap) says so. */
    public static final int DEFAULT_MIN_SHARE = 0;

    public ProvisioningSettings {
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(tIdle, "tIdle");
        Objects.requireNonNull(samplePeriod, "samplePeriod");
        List<SettingProblem> problems = SettingsChecks.problems(new SettingsLayer(policy, fMax, tIdle, uMin, uMax,
                samplePeriod, orchestratorThreshold, initialWorkers, reservePercent, pool, weight, minShare));
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
    }

    /**
     * The built-in defaults (the paper's) for a policy, as a complete layer with no initial workers:
     * F_max 20, t_idle = n · O_grow with the policy's n, U_min/U_max 40%/50%, samples every 40 s,
     * 45 orchestrators per orchestrator node, a reserve of 50% of the busy workers, a pool of 8,
     * weight 1 and no minimum share.
     */
    public static SettingsLayer builtIn(PolicyKind policy) {
        return new SettingsLayer(policy, DEFAULT_F_MAX, IdleTime.factor(policy.defaultIdleFactor()), DEFAULT_U_MIN,
                DEFAULT_U_MAX, DEFAULT_SAMPLE_PERIOD, DEFAULT_ORCHESTRATOR_THRESHOLD, 0, DEFAULT_RESERVE_PERCENT, DEFAULT_POOL,
                DEFAULT_WEIGHT, DEFAULT_MIN_SHARE);
    }

    /** The built-in defaults for a policy and an instance that starts with {@code initialWorkers}. */
    public static ProvisioningSettings defaults(PolicyKind policy, int initialWorkers) {
        return builtIn(policy).withInitialWorkers(initialWorkers).toSettings();
    }

    /** {@code t_idle} in force when the grow-overhead estimate is {@code growOverhead}. */
    public Duration idleTime(Duration growOverhead) {
        return tIdle.after(growOverhead);
    }

    /** These settings as a complete layer, e.g. to change one value and check the result. */
    public SettingsLayer asLayer() {
        return new SettingsLayer(policy, fMax, tIdle, uMin, uMax, samplePeriod, orchestratorThreshold, initialWorkers,
                reservePercent, pool, weight, minShare);
    }
}
