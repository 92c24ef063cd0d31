package koala.provisioning;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import koala.provisioning.WorkerDecision.Kind;

/**
 * Proactive provisioning: the scheduler takes the initiative, from monitored CPU utilization
 * (the paper's rule). Every sample period the runner gives each running worker's latest CPU
 * utilization; with U their mean over the runtime layer:
 * <ul>
 *   <li>U &gt; U_max (50%): grow by as many workers as the initial deployment had, capped by
 *       F_max (running and starting workers count) and by the grid's free nodes when known.</li>
 *   <li>U &lt; U_min (40%): release the workers idle at least t_idle (paper: 2 · O_grow), longest
 *       idle first, ties by id, never leaving fewer running workers than the initial deployment.</li>
 *   <li>U_min &le; U &le; U_max: do nothing. The band between the two thresholds is hysteresis: a
 *       grow lowers U and a release raises it, and without the band the layer would oscillate.</li>
 * </ul>
 * One addition to the paper: while workers of an earlier grow are still starting, a high U does
 * not grow again — their CPU is not in the mean yet, and growing on the same high mean would overshoot.
 *
 * <p>The framework's own grow and shrink requests are refused: under Proactive the scheduler sizes the layer.
 */
public final class ProactivePolicy implements WorkerPolicy {
    private final ProvisioningSettings settings;

    public ProactivePolicy(ProvisioningSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public ProvisioningSettings settings() {
        return settings;
    }

    @Override
    public WorkerDecision onSample(WorkerLayer layer, Instant now) {
        OptionalDouble mean = layer.meanCpu();
        if (mean.isEmpty()) {
            return new WorkerDecision.Keep(Kind.NO_SAMPLES, "keep: no running workers to sample");
        }
        double u = mean.getAsDouble();
        String cpu = "mean CPU " + Texts.percent(u);
        if (u > settings.uMax()) {
            return grow(layer, cpu + " > U_max " + Texts.percent(settings.uMax()));
        }
        if (u < settings.uMin()) {
            return shrink(layer, cpu + " < U_min " + Texts.percent(settings.uMin()), now);
        }
        return new WorkerDecision.Keep(Kind.WITHIN_BAND, "keep: " + cpu + " within " + Texts.percent(settings.uMin()) + "–"
                + Texts.percent(settings.uMax()));
    }

    private WorkerDecision grow(WorkerLayer layer, String why) {
        if (layer.starting() > 0) {
            return new WorkerDecision.Keep(Kind.STILL_STARTING, "keep: " + why + ", but " + Texts.count(layer.starting(), "worker")
                    + " still starting");
        }
        int step = settings.initialWorkers();
        GrowRoom room = GrowRoom.of(layer, settings.fMax(), step);
        if (room.none()) {
            return new WorkerDecision.Keep(room.bound(), "keep: " + why + ", but " + room.limits());
        }
        if (room.all()) {
            return new WorkerDecision.Grow(Kind.ABOVE_U_MAX, step, "grow " + step + ": " + why + ", adding the initial "
                    + Texts.count(step, "worker"));
        }
        return new WorkerDecision.Grow(room.bound(), room.granted(), "grow " + room.granted() + " of the initial " + step + ": "
                + why + "; " + room.limits());
    }

    private WorkerDecision shrink(WorkerLayer layer, String why, Instant now) {
        int initial = settings.initialWorkers();
        int spare = layer.workers().size() - initial;
        if (spare <= 0) {
            return new WorkerDecision.Keep(Kind.AT_INITIAL, "keep: " + why + ", but never below the initial "
                    + Texts.count(initial, "worker") + " (" + layer.workers().size() + " running)");
        }
        IdleLimit limit = IdleLimit.of(settings.tIdle(), layer.growOverhead());
        List<IdleLimit.Idle> idle = layer.workers().stream().flatMap(w -> IdleLimit.idle(w).stream()).toList();
        List<IdleLimit.Idle> eligible = limit.reachedLongestFirst(idle, now);
        if (eligible.isEmpty()) {
            return new WorkerDecision.Keep(Kind.NOT_IDLE_LONG, "keep: " + why + ", but no worker idle >= " + limit.text());
        }
        List<IdleLimit.Idle> released = eligible.subList(0, Math.min(spare, eligible.size()));
        List<String> ids = released.stream().map(IdleLimit.Idle::id).toList();
        String reason = "release " + Texts.list(ids) + ": " + why + "; " + limit.describe(released, "idle", now);
        if (eligible.size() > spare) {
            List<String> kept = eligible.subList(spare, eligible.size()).stream().map(IdleLimit.Idle::id).toList();
            reason += "; " + Texts.list(kept) + " kept: never below the initial " + Texts.count(initial, "worker");
        }
        return new WorkerDecision.Release(Kind.BELOW_U_MIN, ids, reason);
    }

    @Override
    public WorkerDecision onGrowRequest(WorkerLayer layer, int workers) {
        return Refusals.grow(Kind.NOT_ON_REQUEST, "proactive provisioning grows when mean CPU exceeds U_max "
                + Texts.percent(settings.uMax()) + ", not on request");
    }

    @Override
    public WorkerDecision onShrinkRequest(WorkerLayer layer, List<String> workerIds, Instant now) {
        return Refusals.shrink(workerIds, Kind.NOT_ON_REQUEST, shrinkWhy());
    }

    @Override
    public WorkerDecision onIdleReleaseRequest(WorkerLayer layer, Instant now) {
        return Refusals.shrink(List.of(), Kind.NOT_ON_REQUEST, shrinkWhy());
    }

    private String shrinkWhy() {
        return "proactive provisioning releases workers when mean CPU drops below U_min "
                + Texts.percent(settings.uMin()) + ", not on request";
    }
}
