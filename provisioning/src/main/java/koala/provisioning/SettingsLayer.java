package koala.provisioning;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Some provisioning settings, as one source gives them: the built-in defaults, a site's configured
 * defaults, or a JDF. A null component means "this source does not say"; {@link SettingsResolver}
 * merges layers into complete {@link ProvisioningSettings}.
 *
 * <p>Build one from text with {@link #parse}, or from values with {@link #EMPTY} and the
 * {@code with…} methods. A layer may hold bad values; {@link #problems()} lists them.
 */
public record SettingsLayer(PolicyKind policy, Integer fMax, IdleTime tIdle, Double uMin, Double uMax,
        Duration samplePeriod, Double orchestratorThreshold, Integer initialWorkers, Double reservePercent,
        Integer pool, Double weight, Integer minShare) {

    /** A layer that says nothing. */
    public static final SettingsLayer EMPTY = new SettingsLayer(null, null, null, null, null, null, null, null, null, null,
            null, null);

    /**
     * Reads settings written as text, keyed as in a JDF: {@code provisioning}, {@code fMax},
     * {@code tIdle} (whole seconds) or {@code tIdleFactor}, {@code uMin}, {@code uMax} (0 to 100),
     * {@code samplePeriod} (whole seconds), {@code orchestratorThreshold}, {@code initialWorkers},
     * {@code reserve} (0 to 100), {@code pool} (a whole number of workers),
     * {@code weight} (a positive number) and {@code minShare} (a whole number of nodes), the instance's
     * claim on a full grid (see {@code koala.arbitration}).
     * A JDF's framework attributes or a site's {@code provisioning.*} keys, prefix removed, go here as they are.
     *
     * @throws InvalidSettingsException listing every malformed value, unknown key and conflict
     *         (e.g. uMin not below uMax) in the map
     */
    public static SettingsLayer parse(Map<String, String> values) {
        return SettingsText.parse(values);
    }

    /** Each problem with the values given here (a conflict only when both its values are here). */
    public List<SettingProblem> problems() {
        return SettingsChecks.problems(this);
    }

    /** True when this layer gives every setting. */
    public boolean isComplete() {
        return policy != null && fMax != null && tIdle != null && uMin != null && uMax != null
                && samplePeriod != null && orchestratorThreshold != null && initialWorkers != null
                && reservePercent != null && pool != null && weight != null && minShare != null;
    }

    /**
     * The settings this complete layer gives.
     *
     * @throws IllegalStateException if a setting is missing
     * @throws InvalidSettingsException if a value is refused
     */
    public ProvisioningSettings toSettings() {
        if (!isComplete()) {
            throw new IllegalStateException("not every setting is given: " + this);
        }
        return new ProvisioningSettings(policy, fMax, tIdle, uMin, uMax, samplePeriod, orchestratorThreshold,
                initialWorkers, reservePercent, pool, weight, minShare);
    }

    public SettingsLayer withPolicy(PolicyKind value) {
        return new SettingsLayer(value, fMax, tIdle, uMin, uMax, samplePeriod, orchestratorThreshold, initialWorkers,
                reservePercent, pool, weight, minShare);
    }

    public SettingsLayer withFMax(int value) {
        return new SettingsLayer(policy, value, tIdle, uMin, uMax, samplePeriod, orchestratorThreshold, initialWorkers,
                reservePercent, pool, weight, minShare);
    }

    public SettingsLayer withTIdle(IdleTime value) {
        Objects.requireNonNull(value, "tIdle");
        return new SettingsLayer(policy, fMax, value, uMin, uMax, samplePeriod, orchestratorThreshold, initialWorkers,
                reservePercent, pool, weight, minShare);
    }

    public SettingsLayer withUMin(double percent) {
        return new SettingsLayer(policy, fMax, tIdle, percent, uMax, samplePeriod, orchestratorThreshold, initialWorkers,
                reservePercent, pool, weight, minShare);
    }

    public SettingsLayer withUMax(double percent) {
        return new SettingsLayer(policy, fMax, tIdle, uMin, percent, samplePeriod, orchestratorThreshold, initialWorkers,
                reservePercent, pool, weight, minShare);
    }

    public SettingsLayer withSamplePeriod(Duration value) {
        Objects.requireNonNull(value, "samplePeriod");
        return new SettingsLayer(policy, fMax, tIdle, uMin, uMax, value, orchestratorThreshold, initialWorkers,
                reservePercent, pool, weight, minShare);
    }

    public SettingsLayer withOrchestratorThreshold(double value) {
        return new SettingsLayer(policy, fMax, tIdle, uMin, uMax, samplePeriod, value, initialWorkers,
                reservePercent, pool, weight, minShare);
    }

    /** The JDF's worker count: the sum of its worker components' {@code count}. */
    public SettingsLayer withInitialWorkers(int value) {
        return new SettingsLayer(policy, fMax, tIdle, uMin, uMax, samplePeriod, orchestratorThreshold, value,
                reservePercent, pool, weight, minShare);
    }

    /** The warm reserve of the reserve policy, percent of the busy workers. */
    public SettingsLayer withReservePercent(double percent) {
        return new SettingsLayer(policy, fMax, tIdle, uMin, uMax, samplePeriod, orchestratorThreshold, initialWorkers,
                percent, pool, weight, minShare);
    }

    /** The warm pool of the pool policy, idle workers. */
    public SettingsLayer withPool(int workers) {
        return new SettingsLayer(policy, fMax, tIdle, uMin, uMax, samplePeriod, orchestratorThreshold, initialWorkers,
                reservePercent, workers, weight, minShare);
    }

    /** The instance's weight when the grid is shared out (see {@code koala.arbitration}). */
    public SettingsLayer withWeight(double value) {
        return new SettingsLayer(policy, fMax, tIdle, uMin, uMax, samplePeriod, orchestratorThreshold, initialWorkers,
                reservePercent, pool, value, minShare);
    }

    /** The nodes never taken back from the instance when the grid is shared out (see {@code koala.arbitration}). */
    public SettingsLayer withMinShare(int nodes) {
        return new SettingsLayer(policy, fMax, tIdle, uMin, uMax, samplePeriod, orchestratorThreshold, initialWorkers,
                reservePercent, pool, weight, nodes);
    }
}
