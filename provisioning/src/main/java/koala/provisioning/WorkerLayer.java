package koala.provisioning;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A snapshot of a framework instance's worker (runtime) layer, taken by the runner for one decision.
 *
 * @param workers      the running workers (reported in), any order
 * @param starting     workers asked for and not yet reported in; they count towards F_max
 * @param gridFreeNodes the free nodes the grid could give now, when the runner knows (from the KIS)
 * @param growOverhead the current O_grow estimate ({@link GrowOverhead#estimate(String)}), for t_idle = n · O_grow
 */
public record WorkerLayer(List<Worker> workers, int starting, OptionalInt gridFreeNodes, Duration growOverhead) {
    public WorkerLayer {
        workers = List.copyOf(workers);
        Objects.requireNonNull(gridFreeNodes, "gridFreeNodes");
        Objects.requireNonNull(growOverhead, "growOverhead");
        if (starting < 0 || gridFreeNodes.orElse(0) < 0) {
            throw new IllegalArgumentException("negative count: " + starting + " starting, free " + gridFreeNodes);
        }
        Set<String> ids = new HashSet<>();
        workers.forEach(w -> {
            if (!ids.add(w.id())) {
                throw new IllegalArgumentException("worker " + w.id() + " listed twice");
            }
        });
    }

    /** These running workers, none starting, the grid's free nodes unknown, O_grow the paper's 30 s. */
    public static WorkerLayer of(List<Worker> workers) {
        return new WorkerLayer(workers, 0, OptionalInt.empty(), GrowOverhead.PAPER_ESTIMATE);
    }

    public static WorkerLayer of(Worker... workers) {
        return of(List.of(workers));
    }

    public WorkerLayer withStarting(int count) {
        return new WorkerLayer(workers, count, gridFreeNodes, growOverhead);
    }

    public WorkerLayer withGridFreeNodes(int count) {
        return new WorkerLayer(workers, starting, OptionalInt.of(count), growOverhead);
    }

    public WorkerLayer withGrowOverhead(Duration estimate) {
        return new WorkerLayer(workers, starting, gridFreeNodes, estimate);
    }

    /** Running and starting workers: what F_max bounds. */
    public int size() {
        return workers.size() + starting;
    }

    public Optional<Worker> worker(String id) {
        return workers.stream().filter(w -> w.id().equals(id)).findFirst();
    }

    /** The mean CPU utilization of the running workers; empty when there are none. */
    public OptionalDouble meanCpu() {
        return workers.stream().mapToDouble(Worker::cpuPercent).average();
    }

    /** "20 workers", or "18 workers + 2 starting". */
    String sizeText() {
        return Texts.count(workers.size(), "worker") + (starting == 0 ? "" : " + " + starting + " starting");
    }
}
