package koala.provisioning;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Pool provisioning (not in the paper): OnDemand's grows, with a warm pool of a fixed number of
 * idle workers, {@code pool}, kept for t_idle (by default 60 · O_grow, half an hour at the paper's
 * 30 s); every other idle worker is released as soon as the framework asks.
 *
 * <p>Why. Under Poisson arrivals how long a worker has been idle says nothing about when it will be
 * needed again; how many idle workers there are does. A job that finds too few idle workers waits
 * O_grow for a grow, and the grown workers hold their F_max slots while they start, so each such
 * wait costs rejections later, when F_max binds. A pool as large as the largest batch that is
 * common spares most jobs that wait, whatever the load, for the idle time of {@code pool} workers;
 * OnDemand's t_idle instead keeps every idle worker for 6 · O_grow, many more than the next batch
 * takes when the load is high, none when a quiet spell outlasts t_idle. On the paper's {@code W_rl}
 * a pool of 8 rejects no more than OnDemand with about 3 points more utilization
 * ({@code docs/evaluation.md}).
 *
 * <p>The pool is the {@code pool} idle workers that became idle last (ties by id); with 12 idle
 * workers and a pool of 8, the 4 idle longest go. An instance left alone keeps its pool for t_idle.
 */
public final class PoolPolicy implements WorkerPolicy {
    private final ReservePolicy kept;

    public PoolPolicy(ProvisioningSettings settings) {
        Objects.requireNonNull(settings, "settings");
        this.kept = new ReservePolicy(settings, new ReservePolicy.Sizing() {
            @Override
            public int size(int busy) {
                return settings.pool();
            }

            @Override
            public String name() {
                return "pool";
            }

            @Override
            public String describe(int size, int busy) {
                return "warm pool of " + Texts.count(size, "idle worker");
            }
        });
    }

    @Override
    public ProvisioningSettings settings() {
        return kept.settings();
    }

    /** As OnDemand: the workers asked for, or what fits under F_max and the grid's free nodes. */
    @Override
    public WorkerDecision onGrowRequest(WorkerLayer layer, int workers) {
        return kept.onGrowRequest(layer, workers);
    }

    /** Releases each named idle worker outside the pool, and each in it idle at least t_idle; refuses the others, each with why. */
    @Override
    public WorkerDecision onShrinkRequest(WorkerLayer layer, List<String> workerIds, Instant now) {
        return kept.onShrinkRequest(layer, workerIds, now);
    }

    /** Releases, longest idle first, every idle worker outside the pool and those of it idle at least t_idle. */
    @Override
    public WorkerDecision onIdleReleaseRequest(WorkerLayer layer, Instant now) {
        return kept.onIdleReleaseRequest(layer, now);
    }

    @Override
    public WorkerDecision onSample(WorkerLayer layer, Instant now) {
        return new WorkerDecision.Keep(WorkerDecision.Kind.NOT_ON_SAMPLE, "keep: pool provisioning resizes when the framework asks");
    }
}
