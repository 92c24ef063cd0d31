package koala.bench;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import koala.api.scheduler.AllocationRequest;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeReport;
import koala.api.scheduler.ShareReport;
import koala.api.scheduler.SubmitRequest;
import koala.api.site.AgentHealth;
import koala.api.site.CellSnapshot;
import koala.api.site.QueueInstance;
import koala.scheduler.InProcessScheduler;
import koala.scheduler.api.Caller;
import koala.scheduler.api.SchedulerApi;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.config.SchedulerSettings;
import koala.scheduler.kis.SiteInfo;
import koala.scheduler.metrics.GridReading;
import koala.scheduler.metrics.SchedulerMetrics;
import koala.scheduler.storage.H2Store;

/**
 * A scheduler in the state a busy grid leaves it, for {@code bench metrics}: its own code (books, an
 * in-memory H2 store, placement, claiming, allocations, fair sharing; {@link InProcessScheduler}) on made-up
 * sites of one-slot nodes whose pilots are accepted at once and arrive when told. Framework instances are
 * opened, registered and grown first (each with workers on several sites, its runner reporting them busy,
 * idle and their CPU, some with a figure), then one-node jobs are submitted: as many as the grid has
 * nodes left are placed, most of those arrive (RUNNING), the rest claim (CLAIMING), and the jobs
 * that find no node wait in the queue (QUEUED). Then two rounds, so that the metrics have a reading.
 */
public final class MetricsBenchGrid implements AutoCloseable {
    private static final Instant START = Instant.parse("2026-11-25T10:00:00Z");
    private static final String JDF = "&(count = 1)(executable = /bin/true)";

    /** A clock the grid moves. */
    private static final class Clock implements InstantSource {
        private volatile Instant now = START;

        @Override
        public Instant instant() {
            return now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }
    }

    private final H2Store store;
    private final InProcessScheduler scheduler;
    private final SchedulerApi.Operations api;
    private final Clock clock;
    /** The nodes whose pilots were submitted, by job, in order. */
    private final Map<Long, List<NodeClaim>> submitted;

    private MetricsBenchGrid(H2Store store, InProcessScheduler scheduler, Clock clock, Map<Long, List<NodeClaim>> submitted) {
        this.store = store;
        this.scheduler = scheduler;
        this.api = scheduler.api();
        this.clock = clock;
        this.submitted = submitted;
    }

    /**
     * @param jobs      one-node jobs submitted
     * @param instances framework instances, each of {@code workers} workers
     * @param sites     sites of {@code nodesPerSite} nodes each
     */
    public static MetricsBenchGrid build(int jobs, int instances, int workers, int sites, int nodesPerSite) {
        Clock clock = new Clock();
        H2Store store = H2Store.inMemory();
        SchedulerSettings settings = new SchedulerSettings(7400, Duration.ofSeconds(1), 150, Duration.ofMinutes(5), 3,
                "worst-fit", Duration.ofSeconds(1), Duration.ofMinutes(5), null, jobs, Duration.ofMinutes(10),
                Duration.ofDays(30), java.nio.file.Path.of(System.getProperty("java.io.tmpdir"),
                        "koala-metrics-bench-accounting.jsonl"));
        AtomicLong pilots = new AtomicLong();
        Map<Long, List<NodeClaim>> submitted = new java.util.concurrent.ConcurrentHashMap<>();
        InProcessScheduler.Builder b = InProcessScheduler.on(settings, store, clock)
                .cellOnLoop((node, owner) -> {
                    submitted.computeIfAbsent(node.job(), j -> new java.util.concurrent.CopyOnWriteArrayList<>()).add(node);
                    return Long.toString(pilots.incrementAndGet());
                })
                .sharing(koala.arbitration.ArbitrationSettings.of(koala.arbitration.ShareRule.FAIR));
        for (int i = 0; i < sites; i++) {
            b.site(idleSite("fs" + i, nodesPerSite), nodesPerSite); // as the information service keeps them
        }
        MetricsBenchGrid grid = new MetricsBenchGrid(store, b.start(), clock, submitted);
        grid.instances(instances, workers);
        grid.jobs(jobs);
        return grid;
    }

    private static Caller user(int i) {
        return new Caller("user" + i % 10, 2000 + i % 10, false, "bench");
    }

    private void instances(int count, int workers) {
        for (int i = 0; i < count; i++) {
            Caller owner = user(i);
            long id = ((JobView) api.allocate(owner, new AllocationRequest("runner-" + i))).id();
            api.register(owner, new FrameworkRegistration(id, "instance-" + i, "bench.jdf", JDF,
                    i % 2 == 0 ? "ondemand" : "proactive", Map.of("fMax", Integer.toString(workers * 2)),
                    "http://127.0.0.1:1"));
            List<String> nodes = ((GrowResult) api.grow(owner, id, new GrowRequest(workers, "worker", "/bin/worker",
                    List.of(), Map.of("KOALA_INSTANCE", Long.toString(id)), null))).nodes();
            clock.advance(Duration.ofMillis(300));
            arrive(id);
            List<ShareReport.WorkerActivity> activity = new ArrayList<>();
            for (int w = 0; w < nodes.size(); w++) {
                boolean busy = w % 3 != 0;
                activity.add(new ShareReport.WorkerActivity(nodes.get(w), busy, busy ? null : clock.instant(),
                        busy ? 60 + w : 5));
            }
            api.report(owner, id, new ShareReport(activity, i % 4 == 0 ? 1.0 + i / 100.0 : null));
        }
    }

    private void jobs(int count) {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(((JobView) api.submit(user(i), new SubmitRequest("bench.jdf", JDF, null))).id());
        }
        clock.advance(Duration.ofSeconds(1));
        scheduler.round(); // placed as far as nodes go: claiming
        int claimed = 0;
        for (long id : ids) {
            if (submitted.containsKey(id) && claimed++ % 8 != 0) {
                arrive(id); // 7 in 8 placed jobs run, the rest still claim
            }
        }
        clock.advance(Duration.ofSeconds(1));
        scheduler.round();
    }

    private void arrive(long job) {
        for (NodeClaim n : submitted.getOrDefault(job, List.of())) {
            if (n.state() == NodeState.SUBMITTED) {
                api.arrive(n.id(), new NodeReport(n.token(), n.site() + "-n" + (n.rank() + 1), null));
            }
        }
    }

    /** What the grid's scrapes render: counts of the building, and the last round's reading. */
    public SchedulerMetrics metrics() {
        return scheduler.metrics();
    }

    /**
     * One reading of the grid, as the loop makes it at the end of every round (on a reader of its
     * own, so that the metrics' reading stays as built).
     */
    public GridReading read() {
        return scheduler.read();
    }

    /** A site of idle one-slot nodes, seen long ago (so no pilot of ours is missed from it). */
    private static SiteInfo idleSite(String site, int nodes) {
        List<QueueInstance> queues = new ArrayList<>();
        for (int i = 1; i <= nodes; i++) {
            queues.add(new QueueInstance(site + ".q@" + site + "-n" + i, site + "-n" + i, 1, 0, 0, true, ""));
        }
        CellSnapshot snapshot = new CellSnapshot(site, Instant.EPOCH, List.of(), queues, List.of());
        return new SiteInfo(site, new AgentHealth(site, site, "UP", null, Instant.EPOCH, "SGE", 0), snapshot, null,
                Instant.EPOCH);
    }

    @Override
    public void close() {
        scheduler.close();
        store.close();
    }
}
