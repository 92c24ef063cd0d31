package koala.provisioning;

import static koala.provisioning.Setting.F_MAX;
import static koala.provisioning.Setting.INITIAL_WORKERS;
import static koala.provisioning.Setting.ORCHESTRATOR_THRESHOLD;
import static koala.provisioning.Setting.POLICY;
import static koala.provisioning.Setting.RESERVE;
import static koala.provisioning.Setting.SAMPLE_PERIOD;
import static koala.provisioning.Setting.T_IDLE;
import static koala.provisioning.Setting.U_MAX;
import static koala.provisioning.Setting.U_MIN;

import java.util.ArrayList;
import java.util.List;

/**
 * The rules a set of provisioning settings must keep, checked on whatever a layer gives: a value
 * alone when only it is given, a pair (uMin below uMax, fMax not below the initial workers,
 * Proactive with at least one initial worker, minShare not above fMax) when both are. Each problem names the settings it
 * involves, so that the resolver can say where each value came from.
 */
final class SettingsChecks {
    /** A problem and the settings whose values make it. */
    record Found(SettingProblem problem, List<Setting> involved) {
    }

    private final SettingsLayer layer;
    private final List<Found> found = new ArrayList<>();

    private SettingsChecks(SettingsLayer layer) {
        this.layer = layer;
    }

    static List<SettingProblem> problems(SettingsLayer layer) {
        return found(layer).stream().map(Found::problem).toList();
    }

    static List<Found> found(SettingsLayer layer) {
        SettingsChecks checks = new SettingsChecks(layer);
        checks.policy();
        checks.workers();
        checks.idleTime();
        checks.utilization();
        checks.periodAndThreshold();
        checks.sharing();
        return List.copyOf(checks.found);
    }

    private void policy() {
        if (layer.policy() == PolicyKind.PROACTIVE && layer.initialWorkers() != null && layer.initialWorkers() == 0) {
            add(POLICY.key(), "proactive grows by the number of initial workers, and this job starts with none",
                    POLICY, INITIAL_WORKERS);
        }
    }

    private void workers() {
        Integer fMax = layer.fMax();
        Integer initial = layer.initialWorkers();
        if (fMax != null && fMax < 1) {
            add(F_MAX.key(), fMax + " must be at least 1", F_MAX);
        }
        if (layer.pool() != null && layer.pool() < 0) {
            add(Setting.POOL.key(), layer.pool() + " must not be negative", Setting.POOL);
        }
        if (initial != null && initial < 0) {
            add(INITIAL_WORKERS.key(), initial + " must not be negative", INITIAL_WORKERS);
        }
        if (fMax != null && initial != null && fMax >= 1 && fMax < initial) {
            add(F_MAX.key(), fMax + " is fewer than the " + Texts.count(initial, "worker") + " the job starts with",
                    F_MAX, INITIAL_WORKERS);
        }
    }

    private void idleTime() {
        if (layer.tIdle() instanceof IdleTime.Fixed fixed && fixed.duration().isNegative()) {
            add(T_IDLE.key(), Texts.seconds(fixed.duration()) + " must not be negative", T_IDLE);
        }
        if (layer.tIdle() instanceof IdleTime.Factor factor && !(factor.n() > 0 && Double.isFinite(factor.n()))) {
            add(Setting.T_IDLE_FACTOR_KEY, Texts.number(factor.n()) + " must be above 0", T_IDLE);
        }
    }

    private void utilization() {
        boolean minOk = percent(U_MIN, layer.uMin());
        boolean maxOk = percent(U_MAX, layer.uMax());
        percent(RESERVE, layer.reservePercent());
        if (minOk && maxOk && layer.uMin() >= layer.uMax()) {
            add(U_MAX.key(), Texts.number(layer.uMax()) + " must be above uMin (" + Texts.number(layer.uMin()) + ")",
                    U_MAX, U_MIN);
        }
    }

    /** True when the value is given and a percentage; notes a problem when it is given and is not. */
    private boolean percent(Setting setting, Double value) {
        if (value == null) {
            return false;
        }
        if (value >= 0 && value <= 100) {
            return true;
        }
        add(setting.key(), Texts.number(value) + " is not a percentage (0 to 100)", setting);
        return false;
    }

    private void periodAndThreshold() {
        if (layer.samplePeriod() != null && (layer.samplePeriod().isNegative() || layer.samplePeriod().isZero())) {
            add(SAMPLE_PERIOD.key(), Texts.seconds(layer.samplePeriod()) + " must be positive", SAMPLE_PERIOD);
        }
        Double threshold = layer.orchestratorThreshold();
        if (threshold != null && !(threshold > 0 && Double.isFinite(threshold))) {
            add(ORCHESTRATOR_THRESHOLD.key(), Texts.number(threshold) + " must be above 0", ORCHESTRATOR_THRESHOLD);
        }
    }

    private void add(String key, String reason, Setting... involved) {
        found.add(new Found(new SettingProblem(key, reason), List.of(involved)));
    }

    private void sharing() {
        Double weight = layer.weight();
        if (weight != null && !(weight > 0 && Double.isFinite(weight))) {
            add(Setting.WEIGHT.key(), Texts.number(weight) + " must be above 0", Setting.WEIGHT);
        }
        Integer minShare = layer.minShare();
        if (minShare != null && minShare < 0) {
            add(Setting.MIN_SHARE.key(), minShare + " must not be negative", Setting.MIN_SHARE);
        }
        if (minShare != null && layer.fMax() != null && layer.fMax() >= 1 && minShare > layer.fMax()) {
            add(Setting.MIN_SHARE.key(), Texts.count(minShare, "node") + " is more than fMax (" + layer.fMax()
                    + "): the instance could never hold it", Setting.MIN_SHARE, F_MAX);
        }
    }
}
