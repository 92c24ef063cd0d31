package koala.api.scheduler;

import java.time.Instant;
import java.util.List;

/**
 * What a runner tells the scheduler about its instance every tick, for sharing a full grid between
 * instances: each running worker's activity as the runner last saw it, the figure its framework
 * reports (a slowdown: 1 = as well served as alone; null for none), and the share of its work the
 * framework rejected lately (0 to 1, e.g. the applications it turned away over its last five
 * minutes; null for a framework that reports none, or a runner from before it was reported). The
 * scheduler counts only the workers it holds for the instance; the rest it counts as starting.
 */
public record ShareReport(List<WorkerActivity> workers, Double figure, Double rejectRate) {
    public ShareReport {
        workers = workers == null ? List.of() : List.copyOf(workers);
    }

    /** A report with no reject rate. */
    public ShareReport(List<WorkerActivity> workers, Double figure) {
        this(workers, figure, null);
    }

    /** One running worker: busy, or idle since when; the CPU use of its last sample, percent. */
    public record WorkerActivity(String node, boolean busy, Instant idleSince, double cpuPercent) {
    }
}
