package koala.sim.experiment;

import koala.provisioning.IdleTime;
import koala.provisioning.PolicyKind;
import koala.provisioning.ProvisioningSettings;
import koala.provisioning.SettingsLayer;

/**
 * The provisioning settings an experiment gives each policy: the paper's defaults (F_max 20,
 * t_idle = 6 · O_grow for OnDemand and 2 · O_grow for Proactive, U_min/U_max 40%/50%, samples every
 * 40 s) plus the choices the paper leaves open.
 *
 * @param fMax             F_max of the policies that grow (paper: 20)
 * @param staticWorkers    Static's workers; the paper does not say — 28 reproduces its 13% reject rate
 * @param proactiveInitial Proactive's initial workers, also its grow step; the paper does not say — 2
 * @param reservePercent   the reserve policy's warm reserve, percent of the busy workers (ours: 50)
 */
public record Setup(int fMax, int staticWorkers, int proactiveInitial, double reservePercent) {
    public static final Setup PAPER = new Setup(20, 28, 2, 50);

    public Setup withFMax(int value) {
        return new Setup(value, staticWorkers, proactiveInitial, reservePercent);
    }

    public Setup withStaticWorkers(int value) {
        return new Setup(fMax, value, proactiveInitial, reservePercent);
    }

    public Setup withProactiveInitial(int value) {
        return new Setup(fMax, staticWorkers, value, reservePercent);
    }

    public Setup withReservePercent(double value) {
        return new Setup(fMax, staticWorkers, proactiveInitial, value);
    }

    /** The settings of {@code policy} in this setup, checked as a JDF's would be. */
    public ProvisioningSettings settings(PolicyKind policy) {
        SettingsLayer layer = ProvisioningSettings.builtIn(policy).withReservePercent(reservePercent);
        return switch (policy) {
            case STATIC -> layer.withFMax(Math.max(fMax, staticWorkers)).withInitialWorkers(staticWorkers).toSettings();
            case PROACTIVE -> layer.withFMax(fMax).withInitialWorkers(proactiveInitial).toSettings();
            case ONDEMAND, RESERVE, POOL -> layer.withFMax(fMax).withInitialWorkers(0).toSettings();
        };
    }

    /** The pool policy's settings with a pool of {@code workers}. */
    public ProvisioningSettings pool(int workers) {
        return settings(PolicyKind.POOL).asLayer().withPool(workers).toSettings();
    }

    /** OnDemand's settings with {@code t_idle = n · O_grow}. */
    public ProvisioningSettings onDemand(double n) {
        return settings(PolicyKind.ONDEMAND).asLayer().withTIdle(IdleTime.factor(n)).toSettings();
    }

    /** Proactive's settings with these thresholds. */
    public ProvisioningSettings proactive(double uMin, double uMax) {
        return settings(PolicyKind.PROACTIVE).asLayer().withUMin(uMin).withUMax(uMax).toSettings();
    }
}
