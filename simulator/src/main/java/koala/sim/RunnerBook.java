package koala.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import koala.provisioning.GrowOverhead;
import koala.provisioning.WorkerLayer;
import koala.provisioning.WorkerReport;

/**
 * The simulated runner's book of its workers — what the framework runner keeps in its entities:
 * each worker's {@link WorkerReport} (starting, then the CPU of its latest heartbeat), the node it
 * holds, when it was asked for, and the O_grow estimate measured from those grows. Policies decide
 * on {@link #layer}, built by the same {@link WorkerReport#layer} the runner uses.
 */
final class RunnerBook {
    private final Map<String, WorkerReport> reports = new LinkedHashMap<>();
    private final Map<String, SimGrid.Node> nodes = new HashMap<>();
    private final Map<String, Instant> requestedAt = new HashMap<>();
    private final GrowOverhead overhead = new GrowOverhead();
    private final String home;

    /** @param home the instance's home site, whose grows give its O_grow estimate (as in the runner) */
    RunnerBook(String home) {
        this.home = home;
    }

    void starting(SimGrid.Node node, Instant now) {
        reports.put(node.id(), WorkerReport.starting(node.id()));
        nodes.put(node.id(), node);
        requestedAt.put(node.id(), now);
    }

    /** The worker reported in: running and idle from now; a grown one's time to report in is an O_grow sample. */
    Duration reportedIn(String id, Instant now, boolean grown) {
        reports.put(id, reports.get(id).reportedIn(now));
        Duration took = Duration.between(requestedAt.get(id), now);
        if (grown) {
            overhead.record(nodes.get(id).site(), took);
        }
        return took;
    }

    void sampled(String id, double cpu, Instant now) {
        reports.put(id, reports.get(id).sampled(cpu, now));
    }

    /** Forgets a worker given back; its node and when it was asked for. */
    Released remove(String id) {
        reports.remove(id);
        return new Released(nodes.remove(id), requestedAt.remove(id));
    }

    record Released(SimGrid.Node node, Instant requestedAt) {
    }

    boolean running(String id) {
        WorkerReport r = reports.get(id);
        return r != null && r.running();
    }

    Collection<WorkerReport> reports() {
        return reports.values();
    }

    Instant requestedAt(String id) {
        return requestedAt.get(id);
    }

    /** The layer as the policies see it; {@code gridFreeNodes} as the KIS reports it. */
    WorkerLayer layer(int gridFreeNodes) {
        return WorkerReport.layer(reports.values(), gridFreeNodes, overhead.estimate(home));
    }

    int size() {
        return reports.size();
    }
}
