package koala.fluent;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One worker node and the DeviceManager on it, as the master sees it: how many slots it has,
 * which applications hold how many of them, and since when it is idle. One worker per node, so a
 * worker id is also a node. An RL holds every slot; an SWC holds one slot per component here.
 *
 * <p>An SWC suspended for an RL ({@link Suspensions}) has lent its slots on every worker it ran
 * on: its components stay in those DeviceManagers, paused with their state, in {@code suspended},
 * and hold no slot until they take their slots back or move to another worker.
 *
 * @param running   the applications with components on this worker, in the order they started
 * @param idleSince when it last became idle (or joined); null while anything runs or is suspended on it
 * @param suspended the suspended SWCs whose components here lent their slots to what runs, in the order suspended
 */
public record FluentWorker(String id, int slots, List<Running> running, Instant idleSince, List<Running> suspended) {

    /** {@code slots} slots of this worker held by application {@code appId}. */
    public record Running(String appId, int slots) {
        public Running {
            if (appId == null || appId.isBlank() || slots < 1) {
                throw new IllegalArgumentException("a running application has an id and at least 1 slot");
            }
        }
    }

    /** A worker with nothing suspended on it. */
    public FluentWorker(String id, int slots, List<Running> running, Instant idleSince) {
        this(id, slots, running, idleSince, List.of());
    }

    public FluentWorker {
        suspended = suspended == null ? List.of() : List.copyOf(suspended);
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("a worker needs an id");
        }
        if (slots < 1) {
            throw new IllegalArgumentException(id + ": a worker has at least 1 slot, not " + slots);
        }
        running = List.copyOf(running);
        if ((running.isEmpty() && suspended.isEmpty()) != (idleSince != null)) {
            throw new IllegalArgumentException(id + ": an idle worker has an idle-since time, a busy one none");
        }
        Set<String> apps = new HashSet<>();
        int used = 0;
        for (Running r : running) {
            if (!apps.add(r.appId())) {
                throw new IllegalArgumentException(id + ": application " + r.appId() + " listed twice");
            }
            used += r.slots();
        }
        for (Running r : suspended) {
            if (!apps.add(r.appId())) {
                throw new IllegalArgumentException(id + ": application " + r.appId() + " listed twice");
            }
        }
        if (used > slots) {
            throw new IllegalArgumentException(id + ": " + used + " slots in use of " + slots);
        }
    }

    public static FluentWorker idle(String id, int slots, Instant since) {
        return new FluentWorker(id, slots, List.of(), Objects.requireNonNull(since, "since"));
    }

    public int usedSlots() {
        return running.stream().mapToInt(Running::slots).sum();
    }

    public int freeSlots() {
        return slots - usedSlots();
    }

    /** Nothing runs here and nothing is suspended here. */
    public boolean isIdle() {
        return running.isEmpty() && suspended.isEmpty();
    }

    /** Busy with room left: the workers placement packs before idle ones. */
    public boolean isPartiallyBusy() {
        return !isIdle() && freeSlots() > 0;
    }

    public boolean runs(String appId) {
        return running.stream().anyMatch(r -> r.appId().equals(appId));
    }

    /** Whether {@code appId} has components suspended here, their slots lent. */
    public boolean holdsSuspended(String appId) {
        return suspended.stream().anyMatch(r -> r.appId().equals(appId));
    }

    /** This worker with {@code slots} more of its slots held by {@code appId}. */
    public FluentWorker start(String appId, int slots) {
        if (runs(appId) || holdsSuspended(appId)) {
            throw new IllegalArgumentException(id + " already runs " + appId);
        }
        List<Running> after = new ArrayList<>(running);
        after.add(new Running(appId, slots));
        return new FluentWorker(id, this.slots, after, null, suspended);
    }

    /**
     * This worker without {@code appId}, running or suspended here; idle since {@code now} when
     * nothing else runs or is suspended on it.
     */
    public FluentWorker stop(String appId, Instant now) {
        List<Running> after = running.stream().filter(r -> !r.appId().equals(appId)).toList();
        List<Running> still = suspended.stream().filter(r -> !r.appId().equals(appId)).toList();
        if (after.size() == running.size() && still.size() == suspended.size()) {
            throw new IllegalArgumentException(id + " does not run " + appId);
        }
        boolean idle = after.isEmpty() && still.isEmpty();
        return new FluentWorker(id, slots, after, idle ? Objects.requireNonNull(now, "now") : null, still);
    }

    /**
     * This worker with the components here of those of {@code appIds} it runs suspended: their slots
     * are free, their state stays here.
     */
    public FluentWorker suspend(java.util.Collection<String> appIds) {
        List<Running> after = new ArrayList<>();
        List<Running> lent = new ArrayList<>(suspended);
        for (Running r : running) {
            (appIds.contains(r.appId()) ? lent : after).add(r);
        }
        return new FluentWorker(id, slots, after, null, lent);
    }

    /** This worker with the suspended components of {@code appId} running again, on the slots they lent. */
    public FluentWorker resume(String appId) {
        Running lent = suspended.stream().filter(r -> r.appId().equals(appId)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(id + " holds no suspended " + appId));
        if (lent.slots() > freeSlots()) {
            throw new IllegalStateException(id + ": " + appId + " needs " + lent.slots() + " slots, " + freeSlots() + " free");
        }
        List<Running> after = new ArrayList<>(running);
        after.add(lent);
        return new FluentWorker(id, slots, after, null, suspended.stream().filter(r -> r != lent).toList());
    }
}
