package koala.provisioning;

import java.time.Instant;
import java.util.Objects;

/**
 * One worker of a framework instance as the runner last saw it: running (it has reported in),
 * busy or idle, and the CPU utilization of its last sample. Workers asked for but not yet
 * reported in are counted in {@link WorkerLayer#starting()} instead.
 *
 * @param idleSince  when it last became idle; null when busy
 * @param cpuPercent CPU utilization of its last sample, percent of the node's capacity
 */
public record Worker(String id, boolean busy, Instant idleSince, double cpuPercent) {
    public Worker {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("a worker needs an id");
        }
        if (busy != (idleSince == null)) {
            throw new IllegalArgumentException(id + ": an idle worker has an idle-since time, a busy one none");
        }
        if (!(cpuPercent >= 0) || Double.isInfinite(cpuPercent)) {
            throw new IllegalArgumentException(id + ": CPU utilization " + cpuPercent + " is not a percentage");
        }
    }

    public static Worker busy(String id, double cpuPercent) {
        return new Worker(id, true, null, cpuPercent);
    }

    public static Worker idle(String id, Instant since, double cpuPercent) {
        return new Worker(id, false, Objects.requireNonNull(since, "since"), cpuPercent);
    }
}
