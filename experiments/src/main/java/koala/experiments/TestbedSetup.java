package koala.experiments;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import koala.provisioning.IdleTime;
import koala.provisioning.PolicyKind;
import koala.provisioning.ProvisioningSettings;
import koala.sim.CpuProfile;
import koala.sim.Generators;
import koala.sim.TimeScale;
import koala.sim.Workload;
import koala.sim.experiment.Setup;

/**
 * The settings of the testbed experiment, given to the real instances (as JDF attributes) and to
 * the simulator (as {@link ProvisioningSettings}) from the same numbers, so that both run the
 * same policy. Times are the paper's divided by the compression {@code scale}; CPU levels and
 * the thresholds that read them are the paper's times {@code cpuFactor}, so that 20 RLs fit on a
 * 2-core machine while Proactive sees the same utilization relative to what the RLs ask.
 *
 * @param scale            time compression: RLs of 300 s / scale, a batch every 36 s / scale on average
 * @param fMax             F_max (paper: 20)
 * @param staticWorkers    Static's workers; Table 2 uses 28, which would take 30 of the testbed's 32 slots
 * @param proactiveInitial Proactive's initial workers and grow step (Table 2: 2)
 * @param cpuFactor        RL CPU levels and U_min/U_max are the paper's times this (0.1: 5–10%, 4%/5%)
 */
record TestbedSetup(double scale, int fMax, int staticWorkers, int proactiveInitial, double cpuFactor) {
    /** The paper's O_grow on DAS-4: t_idle is n times this, compressed like every other time. */
    static final Duration PAPER_O_GROW = Duration.ofSeconds(30);

    TestbedSetup {
        new TimeScale(scale);
        if (fMax < 1 || staticWorkers < 1 || proactiveInitial < 1 || !(cpuFactor > 0 && cpuFactor <= 1)) {
            throw new IllegalArgumentException("testbed setup: need F_max, Static's and Proactive's workers >= 1 and "
                    + "0 < CPU factor <= 1");
        }
    }

    /** The paper's W_rl with RL CPU levels the paper's default (uniform 50–100%) times the CPU factor. */
    Generators.RlParameters workload() {
        CpuProfile paper = CpuProfile.DEFAULT;
        CpuProfile.Uniform u = (CpuProfile.Uniform) paper;
        return Generators.RlParameters.PAPER.withCpu(new CpuProfile.Uniform(u.min() * cpuFactor, u.max() * cpuFactor));
    }

    /**
     * {@code minutes} of arrivals at the testbed's pace: {@code paper} generates the paper's workload over
     * {@code minutes × scale} of paper time, which is compressed and then extended by an RL and two CPU
     * samples, so that what arrives last can finish before the run ends.
     */
    Workload compressed(double minutes, Function<Duration, Workload> paper) {
        TimeScale t = new TimeScale(scale);
        Duration paperLength = Duration.ofMillis(Math.round(minutes * 60_000 * scale));
        Workload w = t.compress(paper.apply(paperLength));
        Duration rl = t.compress(workload().rlDuration());
        return TimeScale.extended(w, rl.plus(samplePeriod().multipliedBy(2)));
    }

    /** The policies {@code --policies} names, in its order; a name that is none is refused, naming them all. */
    static List<PolicyKind> policies(List<String> names) {
        List<PolicyKind> kinds = new ArrayList<>();
        for (String p : names) {
            kinds.add(PolicyKind.byName(p.strip()).orElseThrow(() -> new IllegalArgumentException("--policies: " + p
                    + " is not one of " + PolicyKind.names())));
        }
        return kinds;
    }

    /** {@code t_idle = n · O_grow} with the policy's n and the paper's O_grow, compressed; whole seconds, as a JDF has it. */
    Duration tIdle(PolicyKind policy) {
        return wholeSeconds(PAPER_O_GROW.toMillis() * policy.defaultIdleFactor() / scale);
    }

    Duration samplePeriod() {
        return wholeSeconds(ProvisioningSettings.DEFAULT_SAMPLE_PERIOD.toMillis() / scale);
    }

    double uMin() {
        return ProvisioningSettings.DEFAULT_U_MIN * cpuFactor;
    }

    double uMax() {
        return ProvisioningSettings.DEFAULT_U_MAX * cpuFactor;
    }

    int initialWorkers(PolicyKind policy) {
        return settings(policy).initialWorkers();
    }

    /** The simulator's settings of {@code policy}. */
    ProvisioningSettings settings(PolicyKind policy) {
        return new Setup(fMax, staticWorkers, proactiveInitial, ProvisioningSettings.DEFAULT_RESERVE_PERCENT)
                .settings(policy).asLayer().withTIdle(IdleTime.fixed(tIdle(policy))).withSamplePeriod(samplePeriod())
                .withUMin(uMin()).withUMax(uMax()).toSettings();
    }

    /**
     * The same settings as JDF attributes (besides provisioning, F_max and the initial workers).
     * The real runner reads its workers' CPU as the node launchers measure it, a share of all the
     * host's cores, where the simulator's is a share of one worker node (a core): on a host of
     * {@code hostCores} the thresholds are divided by that many to mean the same.
     */
    String jdfAttributes(PolicyKind policy, int hostCores) {
        ProvisioningSettings s = settings(policy);
        return String.format(Locale.ROOT, "(tIdle = %d)(samplePeriod = %d)(uMin = %s)(uMax = %s)(reserve = %s)"
                        + "(pool = %d)",
                s.tIdle().after(Duration.ZERO).toSeconds(), s.samplePeriod().toSeconds(), num(s.uMin() / hostCores),
                num(s.uMax() / hostCores), num(s.reservePercent()), s.pool());
    }

    /** F_max as the JDF gives it: Static's workers when they are more (as {@link Setup#settings} does). */
    int fMax(PolicyKind policy) {
        return settings(policy).fMax();
    }

    private static Duration wholeSeconds(double millis) {
        return Duration.ofSeconds(Math.max(1, Math.round(millis / 1000)));
    }

    private static String num(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
