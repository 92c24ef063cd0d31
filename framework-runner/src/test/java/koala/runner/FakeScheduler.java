package koala.runner;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.ReleaseRequest;
import koala.api.scheduler.ShareOrders;
import koala.api.scheduler.ShareReport;
import koala.http.ApiException;

/**
 * A scheduler in the test's hands behind the {@link Schedd} interface, as {@code TestGrid} gives the
 * scheduler its sites: instance 7's allocation holds the nodes the test puts in {@link #held}; a
 * release takes them out; a grow is answered by {@link #grant} (by default refused: the grid is
 * full); a report is answered with {@link #orders} (fcfs by default); the sites are UP unless the
 * test says otherwise. Every call is recorded. Thread-safe: the runner calls it off its loop.
 */
final class FakeScheduler implements Schedd {
    static final ShareOrders FCFS = new ShareOrders("fcfs", 2, null, null, null, List.of());

    private long id = -1;
    private final List<NodeView> held = new ArrayList<>();
    final List<ReleaseRequest> released = new ArrayList<>();
    final List<GrowRequest> grows = new ArrayList<>();
    final List<ShareReport> reports = new ArrayList<>();
    final List<String> masters = new ArrayList<>();
    private final Map<String, String> agents = new LinkedHashMap<>();
    private ShareOrders orders = FCFS;
    private Function<GrowRequest, GrowResult> grant = r -> new GrowResult(7, r.nodes(), 0, List.of(), "grid full");
    private String state = "RUNNING";
    private int idle = 8;
    /** Set once the test says a runner was started in this one's place: every call is refused with it. */
    private volatile String replacedBy;

    /** A node of instance 7 on {@code site}, running. */
    static NodeView node(String id, String role, String site) {
        return new NodeView(id, 0, 0, site, "RUNNING", "1", site + "-n1", null, role);
    }

    synchronized FakeScheduler hold(NodeView... nodes) {
        held.addAll(List.of(nodes));
        return this;
    }

    /** The grid's idle nodes as {@link #idleNodes} tells them from now on (8 unless the test says so). */
    synchronized FakeScheduler idle(int nodes) {
        idle = nodes;
        return this;
    }

    /** The scheduler no longer holds {@code node} (qdel'd, its pilot ended). */
    synchronized void drop(String node) {
        held.removeIf(n -> n.id().equals(node));
    }

    synchronized List<String> held() {
        return held.stream().map(NodeView::id).toList();
    }

    synchronized FakeScheduler site(String site, String agent) {
        agents.put(site, agent);
        return this;
    }

    synchronized void answer(ShareOrders next) {
        orders = next;
    }

    /** How grows are answered from now on (called off the runner's loop, and may block there). */
    synchronized void grants(Function<GrowRequest, GrowResult> how) {
        grant = how;
    }

    /** The roles' tags and constraints the runner sent when it opened its allocation. */
    List<koala.api.scheduler.RolePlacement> roles = List.of();

    /** From now on every call about the instance is refused: a runner of a later generation took its place. */
    void replacedBy(String why) {
        replacedBy = why;
    }

    private void fenced() {
        if (replacedBy != null) {
            throw new koala.common.failure.Gone(replacedBy, koala.api.scheduler.RunnerGeneration.FIELD);
        }
    }

    /** The allocation's state as the scheduler has it (RUNNING until closed or failed). */
    synchronized String state() {
        return state;
    }

    synchronized void allocationIs(String next) {
        state = next;
    }

    synchronized List<String> releasedNodes() {
        return released.stream().flatMap(r -> r.nodes().stream()).toList();
    }

    @Override
    public synchronized long open(String name, String jdfFile, String jdf, String policy, Map<String, String> parameters,
                                  String runner, LongFunction<String> stateFile,
                                  List<koala.api.scheduler.RolePlacement> roles) {
        id = 7;
        this.roles = roles;
        return id;
    }

    @Override
    public synchronized void adopt(long instance) {
        id = instance;
    }

    @Override
    public synchronized long instance() {
        return id;
    }

    @Override
    public GrowResult grow(GrowRequest request) {
        fenced();
        Function<GrowRequest, GrowResult> how;
        synchronized (this) {
            grows.add(request);
            how = grant;
        }
        GrowResult result = how.apply(request); // outside the lock: a test's grant may wait
        synchronized (this) {
            result.nodes().forEach(n -> held.add(node(n, request.role(), "fs1")));
        }
        return result;
    }

    @Override
    public synchronized void release(List<String> nodes, String reason) {
        fenced();
        released.add(new ReleaseRequest(nodes, reason));
        held.removeIf(n -> nodes.contains(n.id()));
    }

    @Override
    public synchronized void master(String node, String address) {
        fenced();
        masters.add(node + " " + address);
    }

    @Override
    public synchronized JobView allocation() {
        fenced();
        return new JobView(id, "instance", "alice", "ALLOCATION", state, "fcm", "high", 0, 0, null,
                Instant.EPOCH, List.copyOf(held), List.of());
    }

    @Override
    public synchronized ShareOrders report(ShareReport report) {
        fenced();
        reports.add(report);
        return orders;
    }

    @Override
    public synchronized int idleNodes() {
        return idle;
    }

    @Override
    public synchronized Set<String> sitesDown() {
        return agents.entrySet().stream().filter(e -> !"UP".equals(e.getValue())).map(Map.Entry::getKey)
                .collect(Collectors.toSet());
    }

    @Override
    public synchronized void close() {
        fenced();
        state = "FINISHED";
    }

    @Override
    public synchronized void fail(String reason) {
        fenced();
        state = "FAILED";
    }

    /** A refusal as the scheduler's API gives it. */
    static ApiException refused(int status, String why) {
        return new ApiException(status, why);
    }
}
