package koala.fluent;

import koala.provisioning.NaturalOrder;
import koala.provisioning.Texts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Places the applications of a job on the framework's workers, first come, first served in the
 * job's order, each seeing the workers as the ones before it left them.
 *
 * <ul>
 * <li>An RL takes a whole idle worker, the first by id ({@code w2} before {@code w10}). With no
 *     idle worker it takes one by suspending the SWCs there, when {@link Suspendable} allows and
 *     {@link Suspensions} finds one: "rl-3 placed: worker w2, suspending swc-4 (6 slots, suspension
 *     1 of 3)". Otherwise it is rejected: "rl-3 rejected: needs 1 idle worker, 0 free".</li>
 * <li>An SWC of k components takes k slots, packing partially busy workers before idle ones so
 *     that idle workers stay whole for RLs and can be given back. If one partially busy worker
 *     has room for all k, the most loaded of those (fewest free slots, ties by id) takes them: a
 *     best fit. Otherwise the components spread: partially busy workers most loaded first, each
 *     filled up, then idle workers by id. With fewer than k free slots in all it is queued:
 *     "swc-4 queued: needs 6 slots, 2 free".</li>
 * <li>An SWC never overtakes one already waiting: with SWCs queued ahead (in the master's queue
 *     or earlier in this job) it is queued behind them whatever the room.</li>
 * </ul>
 *
 * <p>"Most loaded" is read as fewest free slots; with workers of equal size, as in the paper,
 * that is also most slots in use.
 */
public final class ApplicationPlacement {
    private static final Comparator<FluentWorker> BY_ID = Comparator.comparing(FluentWorker::id, NaturalOrder.IDS);
    private static final Comparator<FluentWorker> MOST_LOADED = Comparator.comparingInt(FluentWorker::freeSlots).thenComparing(BY_ID);

    private ApplicationPlacement() {
    }

    /** Places {@code job} with no SWC waiting ahead of it. */
    public static PlacementOutcome place(List<FluentWorker> workers, FluentJob job) {
        return place(workers, job, 0);
    }

    /** Places {@code job} when {@code swcWaiting} SWCs already wait in the master's queue; nothing is suspended. */
    public static PlacementOutcome place(List<FluentWorker> workers, FluentJob job, int swcWaiting) {
        return place(workers, job, swcWaiting, Suspendable.NONE);
    }

    /**
     * Places {@code job} when {@code swcWaiting} SWCs already wait in the master's queue; an RL
     * without an idle worker may suspend what {@code may} allows. An SWC suspended by one RL of the
     * job is paused for the next ones: they do not suspend it again.
     */
    public static PlacementOutcome place(List<FluentWorker> workers, FluentJob job, int swcWaiting, Suspendable may) {
        requireDistinctIds(workers);
        List<FluentWorker> current = List.copyOf(workers);
        List<AppOutcome> outcomes = new ArrayList<>();
        int waiting = swcWaiting;
        Suspendable left = may;
        for (Application app : job.apps()) {
            AppOutcome outcome = decide(current, app, waiting, left);
            if (outcome.verdict() == AppOutcome.Verdict.PLACED) {
                List<String> paused = outcome.suspended().stream().map(Suspended::appId).toList();
                if (!paused.isEmpty()) {
                    current = current.stream().map(w -> w.suspend(paused)).toList();
                    left = left.without(paused);
                }
                current = apply(current, app.id(), outcome.assignments());
            } else if (outcome.verdict() == AppOutcome.Verdict.QUEUED) {
                waiting++;
            }
            outcomes.add(outcome);
        }
        return new PlacementOutcome(job.id(), outcomes, current);
    }

    private static AppOutcome decide(List<FluentWorker> workers, Application app, int swcWaiting, Suspendable may) {
        Optional<List<Assignment>> fit = swcWaiting > 0 && !app.isRl() ? Optional.empty() : fit(workers, app);
        if (fit.isPresent()) {
            return AppOutcome.placed(app, fit.get(), app.id() + " placed: " + describe(app, fit.get()));
        }
        if (app.isRl()) {
            Optional<Suspensions.Choice> choice = Suspensions.forRl(workers, may);
            if (choice.isPresent()) {
                String on = choice.get().workerId();
                int slots = workers.stream().filter(w -> w.id().equals(on)).findFirst().orElseThrow().slots();
                return new AppOutcome(app, AppOutcome.Verdict.PLACED, List.of(new Assignment(on, slots)),
                        app.id() + " placed: worker " + on + ", suspending " + choice.get().suspended().stream()
                                .map(Suspended::toString).collect(Collectors.joining(", ")), choice.get().suspended());
            }
            return AppOutcome.rejected(app, app.id() + " rejected: needs 1 idle worker, 0 free"
                    + (may.maxTimes() > 0 ? ", none with only suspendable work" : ""));
        }
        if (swcWaiting > 0) {
            return AppOutcome.queued(app, app.id() + " queued: " + swcWaiting + " SWC waiting ahead");
        }
        return AppOutcome.queued(app, app.id() + " queued: needs " + Texts.count(app.components(), "slot") + ", "
                + freeSlots(workers) + " free");
    }

    /**
     * Where {@code app} would start on {@code workers} now, by the rules above; empty when there
     * is no room. The queue does not enter here: the caller decides whether it may start.
     */
    public static Optional<List<Assignment>> fit(List<FluentWorker> workers, Application app) {
        return app.isRl() ? fitRl(workers) : fitSwc(workers, app.components());
    }

    private static Optional<List<Assignment>> fitRl(List<FluentWorker> workers) {
        return workers.stream().filter(FluentWorker::isIdle).min(BY_ID)
                .map(w -> List.of(new Assignment(w.id(), w.slots())));
    }

    /** Where {@code components} SWC components would start on {@code workers}, packed as an SWC's are. */
    static Optional<List<Assignment>> fitSlots(List<FluentWorker> workers, int components) {
        return fitSwc(workers, components);
    }

    private static Optional<List<Assignment>> fitSwc(List<FluentWorker> workers, int components) {
        if (freeSlots(workers) < components) {
            return Optional.empty();
        }
        List<FluentWorker> partial = workers.stream().filter(FluentWorker::isPartiallyBusy).sorted(MOST_LOADED).toList();
        Optional<FluentWorker> bestFit = partial.stream().filter(w -> w.freeSlots() >= components).findFirst();
        if (bestFit.isPresent()) {
            return Optional.of(List.of(new Assignment(bestFit.get().id(), components)));
        }
        List<FluentWorker> order = new ArrayList<>(partial);
        workers.stream().filter(FluentWorker::isIdle).sorted(BY_ID).forEach(order::add);
        return Optional.of(spread(order, components));
    }

    private static List<Assignment> spread(List<FluentWorker> order, int components) {
        List<Assignment> assignments = new ArrayList<>();
        int left = components;
        for (FluentWorker w : order) {
            if (left == 0) {
                break;
            }
            int take = Math.min(left, w.freeSlots());
            assignments.add(new Assignment(w.id(), take));
            left -= take;
        }
        return assignments;
    }

    /** {@code workers} with {@code appId} running where {@code assignments} say; order kept. */
    static List<FluentWorker> apply(List<FluentWorker> workers, String appId, List<Assignment> assignments) {
        Map<String, Integer> slots = assignments.stream()
                .collect(Collectors.toMap(Assignment::workerId, Assignment::slots));
        return workers.stream()
                .map(w -> slots.containsKey(w.id()) ? w.start(appId, slots.get(w.id())) : w)
                .toList();
    }

    /** "idle worker w4", "6 slots on w1", "10 slots on w2 (2), w4 (8)". */
    static String describe(Application app, List<Assignment> assignments) {
        if (app.isRl()) {
            return "idle worker " + assignments.get(0).workerId();
        }
        String where = assignments.size() == 1 ? assignments.get(0).workerId()
                : assignments.stream().map(Assignment::toString).collect(Collectors.joining(", "));
        return Texts.count(app.components(), "slot") + " on " + where;
    }

    static int freeSlots(List<FluentWorker> workers) {
        return workers.stream().mapToInt(FluentWorker::freeSlots).sum();
    }

    static void requireDistinctIds(List<FluentWorker> workers) {
        Set<String> ids = new HashSet<>();
        for (FluentWorker w : workers) {
            if (!ids.add(w.id())) {
                throw new IllegalArgumentException("worker " + w.id() + " appears twice");
            }
        }
    }
}
