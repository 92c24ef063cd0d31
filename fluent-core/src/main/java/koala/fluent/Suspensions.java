package koala.fluent;

import koala.provisioning.NaturalOrder;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Neptune's rule in the reference framework (Garefalakis et al., SoCC 2019): batch work yields
 * to latency-sensitive work. An RL that finds no idle worker runs at once on a worker whose every
 * application is a suspendable SWC ({@link Suspendable#may}: running, suspended fewer than k
 * times); those SWCs are suspended — paused whole, their components on that worker keeping their
 * state there — and resume when the RL ends or when their components can move to free slots
 * elsewhere ({@link FrameworkState}). Only when no worker qualifies is the RL rejected (or, under
 * OnDemand, grown for, since {@link WorkerDemand} places with the same rule).
 *
 * <p>Which worker: the one whose suspension pauses the fewest slots in all (each SWC suspended
 * counts all its components, on every worker, since the whole application waits), then the one
 * whose SWCs have been suspended least (the largest count among them), then the first by id
 * ({@code w2} before {@code w10}). Workers holding anything else — an RL, an SWC suspended k
 * times, an SWC paused already, components of an SWC placed in the same job — do not qualify.
 */
public final class Suspensions {
    private Suspensions() {
    }

    /** The worker an RL takes by suspending what runs there, and the SWCs suspended; empty when none qualifies. */
    public record Choice(String workerId, List<Suspended> suspended) {
        public Choice {
            suspended = List.copyOf(suspended);
        }
    }

    public static Optional<Choice> forRl(List<FluentWorker> workers, Suspendable may) {
        if (may.maxTimes() == 0) {
            return Optional.empty();
        }
        return workers.stream()
                .filter(w -> !w.running().isEmpty() && w.suspended().isEmpty()
                        && w.running().stream().allMatch(r -> may.may(r.appId())))
                .min(Comparator.comparingInt((FluentWorker w) -> paused(w, may))
                        .thenComparingInt(w -> mostSuspended(w, may))
                        .thenComparing(FluentWorker::id, NaturalOrder.IDS))
                .map(w -> new Choice(w.id(), w.running().stream()
                        .map(r -> new Suspended(r.appId(), w.id(), r.slots(), may.times().get(r.appId()) + 1,
                                may.maxTimes()))
                        .toList()));
    }

    private static int paused(FluentWorker w, Suspendable may) {
        return w.running().stream().mapToInt(r -> may.components().get(r.appId())).sum();
    }

    private static int mostSuspended(FluentWorker w, Suspendable may) {
        return w.running().stream().mapToInt(r -> may.times().get(r.appId())).max().orElse(0);
    }
}
