package koala.fluent;

import koala.provisioning.NaturalOrder;
import koala.provisioning.Texts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * What the master would ask its runner for under OnDemand: the workers a new job lacks (grow) and
 * the workers idle at least t_idle (shrink). Whether a grow is granted is for the runner and the
 * KOALA provisioning policy; this only computes what to ask.
 */
public final class WorkerDemand {
    /** Sorts after any real id in {@link NaturalOrder}, so placement prefers real idle workers. */
    private static final String NEW_WORKER = "\uffffnew-";

    private WorkerDemand() {
    }

    /** A job lacks {@code workers} workers, e.g. "job j1 lacks 3 workers of 8 slots: ...". */
    public record Demand(String jobId, int workers, String reason) {
    }

    /** A worker idle at least t_idle, e.g. "w3 idle since 10:02:00, 240 s >= t_idle 180 s". */
    public record IdleWorker(String id, Instant since, Duration idleFor, String reason) {
    }

    /**
     * Exactly the workers {@code job} lacks: the fewest new, idle workers of {@code slotsPerWorker}
     * slots with which every application of the job would start at once, placed as
     * {@link ApplicationPlacement} places them (an RL one idle worker each, an SWC its slots,
     * packed into the free slots there are first). It is found by placing the job on the current
     * workers plus 0, 1, 2, ... new ones and taking the first count that places everything; #RL +
     * the SWC components is always enough, since each SWC then touches at most one new worker per
     * component and the RLs still find theirs. SWCs already waiting in the master's queue are not
     * counted: the workers asked for are for this job.
     */
    public static Demand lacking(List<FluentWorker> workers, FluentJob job, int slotsPerWorker) {
        return lacking(workers, job, slotsPerWorker, Suspendable.NONE);
    }

    /**
     * As above, an RL taking a busy worker by suspension where {@code may} allows it: a job whose
     * RLs can all run by suspending batch work lacks no worker for them.
     */
    public static Demand lacking(List<FluentWorker> workers, FluentJob job, int slotsPerWorker, Suspendable may) {
        if (slotsPerWorker < 1) {
            throw new IllegalArgumentException("a new worker has at least 1 slot, not " + slotsPerWorker);
        }
        int enough = job.apps().stream().mapToInt(a -> a.isRl() ? 1 : a.components()).sum();
        for (int k = 0; k <= enough; k++) {
            PlacementOutcome outcome = ApplicationPlacement.place(withNew(workers, k, job.submittedAt(), slotsPerWorker), job,
                    0, may);
            if (outcome.allPlaced()) {
                return new Demand(job.id(), k, reason(job, k, slotsPerWorker, outcome));
            }
        }
        throw new IllegalStateException(job.id() + ": not placed even on " + enough + " new workers");
    }

    private static List<FluentWorker> withNew(List<FluentWorker> workers, int k, Instant since, int slots) {
        List<FluentWorker> all = new ArrayList<>(workers);
        for (int i = 1; i <= k; i++) {
            all.add(FluentWorker.idle(NEW_WORKER + i, slots, since));
        }
        return all;
    }

    /** "job j1 lacks 3 workers of 8 slots: rl-2, rl-3 need an idle worker each; swc-4 needs 4 slots more". */
    private static String reason(FluentJob job, int k, int slots, PlacementOutcome outcome) {
        if (k == 0) {
            int apps = job.apps().size();
            return "job " + job.id() + " lacks no workers: its " + Texts.count(apps, "application")
                    + (apps == 1 ? " starts" : " start") + " on the current workers";
        }
        List<String> rls = new ArrayList<>();
        List<String> parts = new ArrayList<>();
        for (AppOutcome app : outcome.apps()) {
            int onNew = app.assignments().stream().filter(a -> a.workerId().startsWith(NEW_WORKER))
                    .mapToInt(Assignment::slots).sum();
            if (onNew > 0 && app.app().isRl()) {
                rls.add(app.app().id());
            } else if (onNew > 0) {
                parts.add(app.app().id() + " needs " + Texts.count(onNew, "slot") + " more");
            }
        }
        if (!rls.isEmpty()) {
            parts.add(0, Texts.list(rls) + (rls.size() == 1 ? " needs an idle worker" : " need an idle worker each"));
        }
        return "job " + job.id() + " lacks " + Texts.count(k, "worker") + " of " + slots + " slots: "
                + String.join("; ", parts);
    }

    /**
     * The workers idle at least {@code tIdle} at {@code now}, longest idle first (earliest idle
     * since), ties by id. Exactly t_idle is enough: with t_idle 180 s a worker idle 179 s stays
     * and one idle 180 s goes.
     */
    public static List<IdleWorker> idleWorkers(List<FluentWorker> workers, Duration tIdle, Instant now) {
        return workers.stream().filter(FluentWorker::isIdle)
                .map(w -> idle(w, tIdle, now))
                .filter(i -> i.idleFor().compareTo(tIdle) >= 0)
                .sorted(Comparator.comparing(IdleWorker::since).thenComparing(IdleWorker::id, NaturalOrder.IDS))
                .toList();
    }

    private static IdleWorker idle(FluentWorker w, Duration tIdle, Instant now) {
        Duration idleFor = w.idleSince().isAfter(now) ? Duration.ZERO : Duration.between(w.idleSince(), now);
        String reason = w.id() + " idle since " + Texts.clock(w.idleSince()) + ", " + Texts.seconds(idleFor)
                + " >= t_idle " + Texts.seconds(tIdle);
        return new IdleWorker(w.id(), w.idleSince(), idleFor, reason);
    }

    /** "w3 idle since 10:02:00, 240 s >= t_idle 180 s; w5 idle since ...". */
    static String describe(List<IdleWorker> idle) {
        return idle.stream().map(IdleWorker::reason).collect(Collectors.joining("; "));
    }
}
