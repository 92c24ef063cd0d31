package koala.provisioning;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import koala.provisioning.WorkerDecision.Kind;

/**
 * OnDemand provisioning: the framework takes the initiative. It asks for exactly the workers a
 * new job needs when it lacks idle ones, and KOALA grants the request up to F_max (workers
 * running and starting included) and up to the grid's free nodes when known; a grant smaller
 * than the request is a Grow of what fits, its reason naming the bound, and a grant of none is
 * refused with the bound — the framework then queues or rejects its job. It asks to release
 * workers, and a worker goes only when it has been idle at least t_idle (paper: 6 · O_grow),
 * so that a worker about to be needed again is not given back and asked for anew.
 *
 * <p>Only the framework shrinks an OnDemand instance, so there is no floor at the initial
 * workers: the framework may release every idle worker. Samples change nothing.
 */
public final class OnDemandPolicy implements WorkerPolicy {
    private final ProvisioningSettings settings;

    public OnDemandPolicy(ProvisioningSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    public ProvisioningSettings settings() {
        return settings;
    }

    /** Grants {@code workers} or what fits under F_max and the grid's free nodes; refuses when nothing fits. */
    @Override
    public WorkerDecision onGrowRequest(WorkerLayer layer, int workers) {
        if (workers < 1) {
            return Refusals.grow(Kind.BAD_REQUEST, "asked for " + Texts.count(workers, "worker") + "; ask for at least 1");
        }
        GrowRoom room = GrowRoom.of(layer, settings.fMax(), workers);
        if (room.none()) {
            return Refusals.grow(room.bound(), room.limits());
        }
        if (room.all()) {
            return new WorkerDecision.Grow(Kind.REQUESTED, workers, "grow " + workers + " as requested: "
                    + (layer.size() + workers) + " workers after, F_max " + settings.fMax());
        }
        return new WorkerDecision.Grow(room.bound(), room.granted(),
                "grow " + room.granted() + " of " + workers + " requested: " + room.limits());
    }

    /**
     * Releases each named worker that has been idle at least t_idle; refuses, each with its
     * reason, those busy, idle for less, or not a worker of this instance. A worker named twice
     * counts once; released workers keep the order they were named in.
     */
    @Override
    public WorkerDecision onShrinkRequest(WorkerLayer layer, List<String> workerIds, Instant now) {
        if (workerIds.isEmpty()) {
            return new WorkerDecision.Keep(Kind.BAD_REQUEST, "shrink refused: no workers named");
        }
        IdleLimit limit = IdleLimit.of(settings.tIdle(), layer.growOverhead());
        List<IdleLimit.Idle> released = new ArrayList<>();
        List<WorkerDecision.Refusal> refused = new ArrayList<>();
        for (String id : new LinkedHashSet<>(workerIds)) {
            Optional<IdleLimit.Idle> idle = layer.worker(id).flatMap(IdleLimit::idle);
            whyNot(layer, id, idle, limit, now).ifPresentOrElse(refused::add, () -> released.add(idle.get()));
        }
        String refusals = refused.stream().map(WorkerDecision.Refusal::toString).collect(Collectors.joining("; "));
        if (released.isEmpty()) {
            return new WorkerDecision.Keep(Kind.ALL_REFUSED, "shrink refused: " + refusals, refused);
        }
        List<String> ids = released.stream().map(IdleLimit.Idle::id).toList();
        String reason = "release " + Texts.list(ids) + ": " + limit.describe(released, "idle", now)
                + (refused.isEmpty() ? "" : "; refused " + refusals);
        return new WorkerDecision.Release(Kind.IDLE, ids, reason, refused);
    }

    private static Optional<WorkerDecision.Refusal> whyNot(WorkerLayer layer, String id, Optional<IdleLimit.Idle> idle,
            IdleLimit limit, Instant now) {
        if (layer.worker(id).isEmpty()) {
            return Optional.of(new WorkerDecision.Refusal(id, Kind.NOT_A_WORKER, "not a worker of this instance"));
        }
        if (idle.isEmpty()) {
            return Optional.of(new WorkerDecision.Refusal(id, Kind.BUSY, "busy"));
        }
        return limit.reached(idle.get(), now) ? Optional.empty()
                : Optional.of(new WorkerDecision.Refusal(id, Kind.NOT_IDLE_LONG, limit.notReached(idle.get(), "idle", now)));
    }

    /** Releases every worker idle at least t_idle, longest idle first (ties by id). */
    @Override
    public WorkerDecision onIdleReleaseRequest(WorkerLayer layer, Instant now) {
        IdleLimit limit = IdleLimit.of(settings.tIdle(), layer.growOverhead());
        List<IdleLimit.Idle> idle = layer.workers().stream().flatMap(w -> IdleLimit.idle(w).stream()).toList();
        List<IdleLimit.Idle> released = limit.reachedLongestFirst(idle, now);
        if (released.isEmpty()) {
            return new WorkerDecision.Keep(Kind.NOT_IDLE_LONG, "keep: no worker idle >= " + limit.text());
        }
        List<String> ids = released.stream().map(IdleLimit.Idle::id).toList();
        return new WorkerDecision.Release(Kind.IDLE, ids, "release " + Texts.list(ids) + ": " + limit.describe(released, "idle", now));
    }

    @Override
    public WorkerDecision onSample(WorkerLayer layer, Instant now) {
        return new WorkerDecision.Keep(Kind.NOT_ON_SAMPLE, "keep: ondemand provisioning resizes when the framework asks");
    }
}
