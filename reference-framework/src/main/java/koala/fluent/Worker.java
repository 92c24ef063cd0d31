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
 * @param running   the applications with components on this worker, in the order they started
 * @param idleSince when it last became idle (or joined); null while anything runs on it
 */
public record Worker(String id, int slots, List<Running> running, Instant idleSince) {

    /** {@code slots} slots of this worker held by application {@code appId}. */
    public record Running(String appId, int slots) {
        public Running {
            if (appId == null || appId.isBlank() || slots < 1) {
                throw new IllegalArgumentException("a running application has an id and at least 1 slot");
            }
        }
    }

    public Worker {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("a worker needs an id");
        }
        if (slots < 1) {
            throw new IllegalArgumentException(id + ": a worker has at least 1 slot, not " + slots);
        }
        running = List.copyOf(running);
        if (running.isEmpty() != (idleSince != null)) {
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
        if (used > slots) {
            throw new IllegalArgumentException(id + ": " + used + " slots in use of " + slots);
        }
    }

    public static Worker idle(String id, int slots, Instant since) {
        return new Worker(id, slots, List.of(), Objects.requireNonNull(since, "since"));
    }

    public int usedSlots() {
        return running.stream().mapToInt(Running::slots).sum();
    }

    public int freeSlots() {
        return slots - usedSlots();
    }

    public boolean isIdle() {
        return running.isEmpty();
    }

    /** Busy with room left: the workers placement packs before idle ones. */
    public boolean isPartiallyBusy() {
        return !isIdle() && freeSlots() > 0;
    }

    public boolean runs(String appId) {
        return running.stream().anyMatch(r -> r.appId().equals(appId));
    }

    /** This worker with {@code slots} more of its slots held by {@code appId}. */
    public Worker start(String appId, int slots) {
        if (runs(appId)) {
            throw new IllegalArgumentException(id + " already runs " + appId);
        }
        List<Running> after = new ArrayList<>(running);
        after.add(new Running(appId, slots));
        return new Worker(id, this.slots, after, null);
    }

    /** This worker without {@code appId}; idle since {@code now} when nothing else runs on it. */
    public Worker stop(String appId, Instant now) {
        List<Running> after = running.stream().filter(r -> !r.appId().equals(appId)).toList();
        if (after.size() == running.size()) {
            throw new IllegalArgumentException(id + " does not run " + appId);
        }
        return new Worker(id, slots, after, after.isEmpty() ? Objects.requireNonNull(now, "now") : null);
    }
}
