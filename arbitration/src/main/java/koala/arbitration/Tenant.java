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
 */
public record Tenant(String id, double weight, int minShare, List<Worker> workers, int starting, int asking,
        OptionalDouble performance, int queued) {

    /** An instance that reports no queued work. */
    public Tenant(String id, double weight, int minShare, List<Worker> workers, int starting, int asking,
            OptionalDouble performance) {
        this(id, weight, minShare, workers, starting, asking, performance, 0);
    }

    public Tenant {
        Objects.requireNonNull(id, "id");
        workers = List.copyOf(workers);
        Objects.requireNonNull(performance, "performance");
        if (!(weight > 0 && Double.isFinite(weight)) || minShare < 0 || starting < 0 || asking < 0 || queued < 0) {
            throw new IllegalArgumentException(id + ": need weight > 0 and no negative count, got weight " + weight
                    + ", minShare " + minShare + ", starting " + starting + ", asking " + asking + ", queued " + queued);
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
        return new Tenant(id, weight, minShare, workers, starting, nodes, performance, queued);
    }

    /** This instance reporting {@code figure}. */
    public Tenant reporting(double figure) {
        return new Tenant(id, weight, minShare, workers, starting, asking, OptionalDouble.of(figure), queued);
    }

    /** This instance reporting queued work that would use {@code nodes} more worker nodes. */
    public Tenant queuing(int nodes) {
        return new Tenant(id, weight, minShare, workers, starting, asking, performance, nodes);
    }

    /** This instance with only these workers (the others ended). */
    Tenant withWorkers(List<Worker> left) {
        return new Tenant(id, weight, minShare, left, starting, asking, performance, queued);
    }

    /** Worker nodes it holds: running and starting. */
    public int held() {
        return workers.size() + starting;
    }

    /** Nodes it uses: busy workers and starting ones (a starting worker was asked for a job). */
    public int using() {
        return (int) workers.stream().filter(Worker::busy).count() + starting;
    }

    /** Its figure, 1 (as if alone) when it reports none. */
    public double figure() {
        return performance.orElse(1);
    }
}
