package koala.provisioning;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import koala.provisioning.WorkerDecision.Kind;

/**
 * Reserve provisioning (not in the paper): OnDemand's grows, with releases that keep a warm
 * reserve of idle workers sized from the load instead of holding every idle worker for t_idle.
 *
 * <p>Why. OnDemand pays for every idle worker t_idle (6 · O_grow) of idle node-time, whether it
 * will be needed again or not. Under Poisson arrivals how long a worker has been idle says nothing
 * about when it will be needed; how many idle workers there are does. What the next arrivals will
 * take scales with the arrival rate, and by Little's law the busy workers are the arrival rate
 * times the run time — so the busy count is the load signal, read from the snapshot alone.
 *
 * <p>The rule, with B busy workers and {@code reserve} = p%:
 * <ul>
 *   <li>the warm reserve is the ceil(p% · B) idle workers that became idle last (ties by id); each
 *       is released, as under OnDemand, once idle at least t_idle;</li>
 *   <li>every other idle worker is released as soon as the framework asks: keeping it would cost
 *       idle time, and the next arrivals are expected to find enough in the reserve;</li>
 *   <li>grows are OnDemand's: the workers the framework asks for, up to F_max and the grid's free nodes.</li>
 * </ul>
 * With p = 50% and 16 busy workers the reserve is 8; with 5 busy, 3; with none busy, none — an
 * instance left alone gives back every idle worker at once. Samples change nothing.
 */
public final class ReservePolicy implements WorkerPolicy {
    private static final Comparator<IdleLimit.Idle> LATEST_IDLE_FIRST = Comparator.comparing(IdleLimit.Idle::since)
            .reversed().thenComparing(IdleLimit.Idle::id, NaturalOrder.IDS);

    /** How many idle workers are kept warm, given the busy ones, and how a decision names that. */
    interface Sizing {
        int size(int busy);

        /** "reserve" or "pool". */
        String name();

        /** "warm reserve of 3 (50% of 5 busy workers)". */
        String describe(int size, int busy);
    }

    private final ProvisioningSettings settings;
    private final OnDemandPolicy grows;
    private final Sizing sizing;

    public ReservePolicy(ProvisioningSettings settings) {
        this(settings, new Sizing() {
            @Override
            public int size(int busy) {
                return (int) Math.ceil(busy * settings.reservePercent() / 100 - 1e-9);
            }

            @Override
            public String name() {
                return "reserve";
            }

            @Override
            public String describe(int size, int busy) {
                return "warm reserve of " + size + " (" + Texts.percent(settings.reservePercent()) + " of "
                        + Texts.count(busy, "busy worker") + ")";
            }
        });
    }

    ReservePolicy(ProvisioningSettings settings, Sizing sizing) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.grows = new OnDemandPolicy(settings);
        this.sizing = sizing;
    }

    @Override
    public ProvisioningSettings settings() {
        return settings;
    }

    /** As OnDemand: the workers asked for, or what fits under F_max and the grid's free nodes. */
    @Override
    public WorkerDecision onGrowRequest(WorkerLayer layer, int workers) {
        return grows.onGrowRequest(layer, workers);
    }

    /** The warm reserve's size for this layer: ceil(reserve% of the busy workers). */
    public int reserveSize(WorkerLayer layer) {
        return sizing.size((int) layer.workers().stream().filter(Worker::busy).count());
    }

    /**
     * Releases each named worker outside the reserve that is idle, and each in the reserve idle at
     * least t_idle; refuses the others, each with why. A worker named twice counts once.
     */
    @Override
    public WorkerDecision onShrinkRequest(WorkerLayer layer, List<String> workerIds, Instant now) {
        if (workerIds.isEmpty()) {
            return new WorkerDecision.Keep(Kind.BAD_REQUEST, "shrink refused: no workers named");
        }
        Plan plan = plan(layer, now);
        List<String> released = new ArrayList<>();
        List<WorkerDecision.Refusal> refused = new ArrayList<>();
        for (String id : new LinkedHashSet<>(workerIds)) {
            plan.whyKept(layer, id, now).ifPresentOrElse(refused::add, () -> released.add(id));
        }
        String refusals = refused.stream().map(WorkerDecision.Refusal::toString).collect(Collectors.joining("; "));
        if (released.isEmpty()) {
            return new WorkerDecision.Keep(Kind.ALL_REFUSED, "shrink refused: " + refusals, refused);
        }
        return new WorkerDecision.Release(Kind.IDLE, released, "release " + Texts.list(released) + ": " + plan.describe()
                + (refused.isEmpty() ? "" : "; refused " + refusals), refused);
    }

    /** Releases, longest idle first (ties by id), every idle worker outside the reserve and those of it idle at least t_idle. */
    @Override
    public WorkerDecision onIdleReleaseRequest(WorkerLayer layer, Instant now) {
        Plan plan = plan(layer, now);
        List<String> released = plan.idle.stream()
                .sorted(Comparator.comparing(IdleLimit.Idle::since).thenComparing(IdleLimit.Idle::id, NaturalOrder.IDS))
                .map(IdleLimit.Idle::id).filter(id -> plan.whyKept(layer, id, now).isEmpty()).toList();
        if (released.isEmpty()) {
            return new WorkerDecision.Keep(Kind.IN_RESERVE, "keep: " + plan.describe());
        }
        return new WorkerDecision.Release(Kind.IDLE, released, "release " + Texts.list(released) + ": " + plan.describe());
    }

    @Override
    public WorkerDecision onSample(WorkerLayer layer, Instant now) {
        return new WorkerDecision.Keep(Kind.NOT_ON_SAMPLE, "keep: reserve provisioning resizes when the framework asks");
    }

    private Plan plan(WorkerLayer layer, Instant now) {
        List<IdleLimit.Idle> idle = layer.workers().stream().flatMap(w -> IdleLimit.idle(w).stream())
                .sorted(LATEST_IDLE_FIRST).toList();
        int size = reserveSize(layer);
        Set<String> reserve = idle.stream().limit(size).map(IdleLimit.Idle::id).collect(Collectors.toSet());
        return new Plan(idle, reserve, size, IdleLimit.of(settings.tIdle(), layer.growOverhead()),
                layer.workers().size() - idle.size(), sizing);
    }

    /** One decision's reserve: the idle workers latest first, which of them are the reserve, and t_idle. */
    private record Plan(List<IdleLimit.Idle> idle, Set<String> reserve, int size, IdleLimit limit, int busy,
            Sizing sizing) {

        /** Why {@code id} stays, or empty when it may go. */
        Optional<WorkerDecision.Refusal> whyKept(WorkerLayer layer, String id, Instant now) {
            if (layer.worker(id).isEmpty()) {
                return Optional.of(new WorkerDecision.Refusal(id, Kind.NOT_A_WORKER, "not a worker of this instance"));
            }
            Optional<IdleLimit.Idle> i = idle.stream().filter(x -> x.id().equals(id)).findFirst();
            if (i.isEmpty()) {
                return Optional.of(new WorkerDecision.Refusal(id, Kind.BUSY, "busy"));
            }
            if (!reserve.contains(id) || limit.reached(i.get(), now)) {
                return Optional.empty();
            }
            return Optional.of(new WorkerDecision.Refusal(id, Kind.IN_RESERVE,
                    "in the warm " + sizing.name() + ", " + limit.notReached(i.get(), "idle", now)));
        }

        /** "warm reserve of 3 (50% of 5 busy workers): w4, w6, w7; t_idle 180 s (6 × O_grow 30 s)". */
        String describe() {
            List<String> ids = idle.stream().map(IdleLimit.Idle::id).filter(reserve::contains).toList();
            return sizing.describe(size, busy) + (ids.isEmpty() ? "" : ": " + Texts.list(ids)) + "; " + sizing.name()
                    + " kept for " + limit.text();
        }
    }
}
