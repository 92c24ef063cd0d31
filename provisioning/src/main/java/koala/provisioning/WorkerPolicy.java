package koala.provisioning;

import java.time.Instant;
import java.util.List;

/**
 * A provisioning policy for the worker (runtime) layer of one framework instance: given a
 * snapshot of the layer and the time, it decides — grow, release, or keep — and says why. Pure:
 * no I/O, no clock, no state between calls, so the runner (real time) and the simulator (virtual
 * time) call the very same code. Build one per instance with {@link #of}, again when its
 * settings change.
 *
 * <p>Four events reach a policy; which ones act depends on who takes the initiative (the paper's table):
 * <pre>
 *                       Static    OnDemand                          Proactive
 *   onGrowRequest       refused   granted up to F_max and the grid  refused (the scheduler decides)
 *   onShrinkRequest     refused   named workers idle >= t_idle      refused (the scheduler decides)
 *   onIdleReleaseRequest refused  all workers idle >= t_idle        refused (the scheduler decides)
 *   onSample            keep      keep                              CPU above U_max: grow; below U_min: release
 *
 * Reserve (not in the paper) answers as OnDemand does, except that only a warm reserve of idle
 * workers waits t_idle: the others are released as soon as they are idle. Pool (not in the paper
 * either) keeps a fixed number of idle workers however long they are idle and releases the others.
 * </pre>
 * The runner calls {@link #onSample} every {@code samplePeriod}. OnDemand releases idle workers only
 * when the framework asks: once, with a shrink that names no workers ({@link #onIdleReleaseRequest}),
 * or for as long as the framework wants, by the runner calling {@link #onIdleReleaseRequest} on
 * each sample tick from then on — that standing request is the runner's to remember.
 */
public interface WorkerPolicy {

    /**
     * The policy for these settings: {@link StaticPolicy}, {@link OnDemandPolicy}, {@link ProactivePolicy}
     * {@link ReservePolicy} or {@link PoolPolicy}.
     */
    static WorkerPolicy of(ProvisioningSettings settings) {
        return switch (settings.policy()) {
            case STATIC -> new StaticPolicy(settings);
            case ONDEMAND -> new OnDemandPolicy(settings);
            case PROACTIVE -> new ProactivePolicy(settings);
            case RESERVE -> new ReservePolicy(settings);
            case POOL -> new PoolPolicy(settings);
        };
    }

    ProvisioningSettings settings();

    default PolicyKind kind() {
        return settings().policy();
    }

    /** The framework asks for {@code workers} more workers (RPC {@code grow}); a Grow or a Keep. */
    WorkerDecision onGrowRequest(WorkerLayer layer, int workers);

    /** The framework asks to release the workers it names (RPC {@code shrink}); a Release or a Keep, with refusals. */
    WorkerDecision onShrinkRequest(WorkerLayer layer, List<String> workerIds, Instant now);

    /** The framework asks to release whichever workers have been idle at least t_idle; a Release or a Keep. */
    WorkerDecision onIdleReleaseRequest(WorkerLayer layer, Instant now);

    /** A sample period has passed and {@code layer} holds each worker's latest CPU sample; any decision. */
    WorkerDecision onSample(WorkerLayer layer, Instant now);
}
