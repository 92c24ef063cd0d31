package koala.provisioning;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * What the runner knows of one worker from its node launcher's reports: starting until it reports
 * in, then the CPU of its latest sample and, when that sample says idle, since when. The framework
 * runner (real heartbeats) and the simulator (virtual ones) both keep their book of workers in
 * these, so that a policy sees a worker the same way in both: idle from the first sample under
 * {@link #BUSY_CPU_PERCENT}, not from the instant its work ended — the runner cannot know that
 * instant, and t_idle runs from what it can know.
 *
 * @param cpuPercent CPU utilization of the latest sample, percent of the node; 0 until the first
 * @param idleSince  since when the samples say idle; null while busy or starting
 */
public record WorkerReport(String id, boolean running, double cpuPercent, Instant idleSince) {
    /** A worker using at least this much of its node's CPU is busy; below, idle (its t_idle timer runs). */
    public static final double BUSY_CPU_PERCENT = 5;

    public WorkerReport {
        Objects.requireNonNull(id, "id");
        if (!running && idleSince != null) {
            throw new IllegalArgumentException(id + ": a starting worker has no idle-since time");
        }
    }

    /** Asked for, not reported in yet: it counts towards F_max as starting. */
    public static WorkerReport starting(String id) {
        return new WorkerReport(id, false, 0, null);
    }

    /** Reported in at {@code now}: running, and idle from then until a sample says busy. */
    public WorkerReport reportedIn(Instant now) {
        return new WorkerReport(id, true, 0, Objects.requireNonNull(now, "now"));
    }

    /** A sample of {@code cpu} percent at {@code now}: busy at {@link #BUSY_CPU_PERCENT} and above. */
    public WorkerReport sampled(double cpu, Instant now) {
        return new WorkerReport(id, running, cpu, idleSince(idleSince, isBusy(cpu), now));
    }

    /** A sample of that much CPU says busy. */
    public static boolean isBusy(double cpuPercent) {
        return cpuPercent >= BUSY_CPU_PERCENT;
    }

    /** The idle-since time after a sample: none when busy, else kept from before, else {@code now}. */
    public static Instant idleSince(Instant before, boolean busy, Instant now) {
        return busy ? null : before != null ? before : now;
    }

    /**
     * The snapshot a policy decides on: running workers as {@link Worker}s, the others counted as starting.
     *
     * @param gridFreeNodes the grid's free nodes, or -1 when the caller does not know them
     */
    public static WorkerLayer layer(Collection<WorkerReport> reports, int gridFreeNodes, Duration growOverhead) {
        List<Worker> running = new ArrayList<>(reports.size());
        int starting = 0;
        for (WorkerReport r : reports) {
            if (!r.running()) {
                starting++;
            } else if (r.idleSince() == null) {
                running.add(Worker.busy(r.id(), r.cpuPercent()));
            } else {
                running.add(Worker.idle(r.id(), r.idleSince(), r.cpuPercent()));
            }
        }
        return new WorkerLayer(running, starting, gridFreeNodes < 0 ? OptionalInt.empty()
                : OptionalInt.of(gridFreeNodes), growOverhead);
    }
}
