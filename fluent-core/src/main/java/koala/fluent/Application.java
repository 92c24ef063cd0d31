package koala.fluent;

import java.time.Duration;
import java.util.Objects;

/**
 * One application of a job, with its parameters. Its components all start together and all
 * finish after {@code duration}.
 *
 * @param components  RL: 1, taking a whole worker; SWC with n: 2^n mappers + reader + counter, one slot each
 * @param cpuPercent  CPU load of one component, percent of a worker node (RL) or of a slot (SWC);
 *                    carried for the simulator and the metrics, placement does not read it
 * @param loadPeriod  RL: every how long its CPU load changes ({@code s} in the issue);
 *                    SWC: {@link Duration#ZERO}, its load does not change
 */
public record Application(String id, AppKind kind, int components, Duration duration, double cpuPercent,
        Duration loadPeriod) {
    /** The largest SWC n accepted: 2^16 + 2 components is already far beyond any worker pool. */
    public static final int MAX_SWC_N = 16;

    public Application {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("an application needs an id");
        }
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(loadPeriod, "loadPeriod");
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(id + ": duration " + duration + " is not positive");
        }
        if (!(cpuPercent >= 0) || Double.isInfinite(cpuPercent)) {
            throw new IllegalArgumentException(id + ": CPU load " + cpuPercent + " is not a percentage");
        }
        if (kind == AppKind.RL && (components != 1 || loadPeriod.isNegative() || loadPeriod.isZero())) {
            throw new IllegalArgumentException(id + ": an RL has 1 component and a positive load period");
        }
        if (kind == AppKind.SWC && (components < 3 || !loadPeriod.isZero())) {
            throw new IllegalArgumentException(id + ": an SWC has at least 3 components and no load period");
        }
    }

    /** An RL of that duration whose CPU load, {@code cpuPercent} on average, changes every {@code loadPeriod}. */
    public static Application rl(String id, Duration duration, double cpuPercent, Duration loadPeriod) {
        return new Application(id, AppKind.RL, 1, duration, cpuPercent, loadPeriod);
    }

    /** An SWC with 2^n mappers, hence 2^n + 2 components, each loading its slot by {@code cpuPercent}. */
    public static Application swc(String id, int n, Duration duration, double cpuPercent) {
        if (n < 0 || n > MAX_SWC_N) {
            throw new IllegalArgumentException(id + ": SWC n " + n + " is outside 0.." + MAX_SWC_N);
        }
        return new Application(id, AppKind.SWC, (1 << n) + 2, duration, cpuPercent, Duration.ZERO);
    }

    public boolean isRl() {
        return kind == AppKind.RL;
    }
}
