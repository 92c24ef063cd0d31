package koala.arbitration;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;
import koala.provisioning.ProvisioningSettings;
import koala.provisioning.Worker;
import koala.provisioning.WorkerLayer;

/**
 * One framework instance as the arbiter sees it in one snapshot: its claim (weight, minimum
 * share), the worker nodes it holds, what it asks for now and how well it is doing. Only worker
 * nodes are shared out; an instance's master and orchestrator nodes are never taken back, and the
 * scheduler counts them, like local users' load, outside the capacity (see {@link GridShare}).
 *
 * @param id          the instance, e.g. its allocation id; ties between instances are broken by
 *                    id in {@link koala.provisioning.NaturalOrder}
 * @param weight      its {@code weight} setting, above 0
 * @param minShare    its {@code minShare} setting: nodes never taken back from it, and guaranteed
 *                    to it under {@code fair} while it uses them
 * @param workers     its running workers as the runner last saw them (busy, or idle since when)
 * @param starting    workers granted and not yet reported in: they hold nodes but have no name yet
 * @param asking      the nodes a grow request asks for now, to be answered by this decision; 0 when
 *                    the instance asks nothing
 * @param performance the figure it reports, a slowdown: 1 = served as well as if it were alone,
 *                    higher = worse (an instance that rejects applications reports
 *                    {@link PerformanceWindow#stretch 1 / (1 − the share rejected)}, one whose jobs
 *                    queue its mean job slowdown); empty when it reports none (taken as 1)
 * @param queued      worker nodes its framework's queued work would use beyond the workers it holds,
 *                    starts and is owed (YARN's pending requests): work that waits between its asks,
 *                    such as word counts queued for slots; 0 when it reports none. Read only with
 *                    {@link ArbitrationSettings#queuedDemand()}
 * @param size        what one of its worker nodes takes of the grid, in the grid's nodes (one core with
 *                    the grid's memory per core): 1 for a worker of one core, 4 for one of 4 cores or of
 *                    one core and four cores' memory. The arbiter shares out the grid's nodes, so an
 *                    instance whose workers are larger holds more of them per worker (Dominant Resource
 *                    Fairness, counted on the scarcer of cores and memory); the counts above ({@code minShare},
 *                    {@code asking}, {@code queued}) are its own workers, and {@link #held()} too
 */
public record Tenant(String id, double weight, int minShare, List<Worker> workers, int starting, int asking,
        OptionalDouble performance, int queued, int size) {

    /** An instance that reports no queued work, its workers of one node each. */
    public Tenant(String id, double weight, int minShare, List<Worker> workers, int starting, int asking,
            OptionalDouble performance) {
        this(id, weight, minShare, workers, starting, asking, performance, 0, 1);
    }

    /** An instance whose workers take one node each. */
    public Tenant(String id, double weight, int minShare, List<Worker> workers, int starting, int asking,
            OptionalDouble performance, int queued) {
        this(id, weight, minShare, workers, starting, asking, performance, queued, 1);
    }

    public Tenant {
        Objects.requireNonNull(id, "id");
        workers = List.copyOf(workers);
        Objects.requireNonNull(performance, "performance");
        if (!(weight > 0 && Double.isFinite(weight)) || minShare < 0 || starting < 0 || asking < 0 || queued < 0
                || size < 1) {
            throw new IllegalArgumentException(id + ": need weight > 0, size >= 1 and no negative count, got weight "
                    + weight + ", minShare " + minShare + ", starting " + starting + ", asking " + asking + ", queued "
                    + queued + ", size " + size);
        }
        Set<String> ids = new HashSet<>();
        workers.forEach(w -> {
            if (!ids.add(w.id())) {
                throw new IllegalArgumentException(id + ": worker " + w.id() + " listed twice");
            }
        });
        performance.ifPresent(f -> {
            if (!(f >= 0 && Double.isFinite(f))) {
                throw new IllegalArgumentException(id + ": performance figure " + f + " is not a finite number >= 0");
            }
        });
    }

    /** An instance from its settings and the layer its runner decides on, asking for nothing, with no figure. */
    public static Tenant of(String id, ProvisioningSettings settings, WorkerLayer layer) {
        return new Tenant(id, settings.weight(), settings.minShare(), layer.workers(), layer.starting(), 0,
                OptionalDouble.empty());
    }

    /** This instance asking for {@code nodes} more nodes now. */
    public Tenant asking(int nodes) {
        return new Tenant(id, weight, minShare, workers, starting, nodes, performance, queued, size);
    }

    /** This instance reporting {@code figure}. */
    public Tenant reporting(double figure) {
        return new Tenant(id, weight, minShare, workers, starting, asking, OptionalDouble.of(figure), queued, size);
    }

    /** This instance reporting queued work that would use {@code nodes} more worker nodes. */
    public Tenant queuing(int nodes) {
        return new Tenant(id, weight, minShare, workers, starting, asking, performance, nodes, size);
    }

    /** This instance with workers that take {@code nodes} of the grid's nodes each. */
    public Tenant sized(int nodes) {
        return new Tenant(id, weight, minShare, workers, starting, asking, performance, queued, nodes);
    }

    /** This instance with only these workers (the others ended). */
    Tenant withWorkers(List<Worker> left) {
        return new Tenant(id, weight, minShare, left, starting, asking, performance, queued, size);
    }

    /** Its workers: running and starting (each {@link #size()} of the grid's nodes). */
    public int held() {
        return workers.size() + starting;
    }

    /** Workers it uses: busy ones and starting ones (a starting worker was asked for a job). */
    public int using() {
        return (int) workers.stream().filter(Worker::busy).count() + starting;
    }

    /** Its figure, 1 (as if alone) when it reports none. */
    public double figure() {
        return performance.orElse(1);
    }

    /** {@code workers} of its workers in the grid's nodes. */
    int nodesOf(int workers) {
        return Math.multiplyExact(workers, size);
    }

    /** The fewest of its workers that take at least {@code nodes} of the grid's nodes. */
    int workersCovering(int nodes) {
        return (nodes + size - 1) / size;
    }

    /** The most of its workers that {@code nodes} of the grid's nodes hold. */
    int workersIn(int nodes) {
        return nodes / size;
    }

    /** The grid's nodes its workers hold, running and starting ({@link #held()} × {@link #size()}). */
    int heldNodes() {
        return nodesOf(held());
    }
}
