package koala.scheduler.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot.InfoDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.function.Function;
import java.util.function.Supplier;
import koala.api.scheduler.SiteResources;
import koala.scheduler.state.JobState;

/**
 * Turns the latest {@link GridReading} into the gauges of a scrape, on the scraping thread: the
 * reading is immutable, so nothing here waits for the loop or locks anything. Before the first
 * round nothing is shown.
 */
final class ReadingCollector implements MultiCollector {
    /** The live states {@code koala_jobs} shows, each even when no job is in it. */
    static final List<JobState> LIVE = List.of(JobState.QUEUED, JobState.CLAIMING, JobState.RUNNING);
    /**
     * The label naming a framework instance by its id. Not {@code instance}: Prometheus gives every
     * series it scrapes an {@code instance} label of its own (the target's address), and renames a
     * scraped one that clashes to {@code exported_instance}.
     */
    static final String INSTANCE = "framework_instance";
    private static final double MIB = 1024 * 1024;

    private final Supplier<GridReading> latest;

    ReadingCollector(Supplier<GridReading> latest) {
        this.latest = latest;
    }

    @Override
    public MetricSnapshots collect() {
        GridReading r = latest.get();
        if (!r.read()) {
            return new MetricSnapshots(List.of());
        }
        List<MetricSnapshot> out = new ArrayList<>();
        scheduler(r, out);
        sites(r, out);
        instances(r, out);
        return new MetricSnapshots(out);
    }

    private static void scheduler(GridReading r, List<MetricSnapshot> out) {
        GaugeSnapshot.Builder jobs = gauge("koala_jobs", "Users' jobs (not allocations) in each live state");
        LIVE.forEach(s -> jobs.dataPoint(point(Labels.of("state", s.name()), r.jobs().getOrDefault(s, 0))));
        out.add(jobs.build());
        out.add(gauge("koala_placement_queue_jobs", "Jobs waiting in the placement queue, by priority")
                .dataPoint(point(Labels.of("priority", "high"), r.queuedHigh()))
                .dataPoint(point(Labels.of("priority", "low"), r.queuedLow())).build());
        out.add(gauge("koala_scheduler_last_round_timestamp_seconds",
                "When the scheduler's loop last ended a round (Unix time): the time of this reading")
                .unit(Unit.SECONDS).dataPoint(point(Labels.EMPTY, r.at().toEpochMilli() / 1000.0)).build());
        out.add(gauge("koala_framework_instances", "Framework instances running")
                .dataPoint(point(Labels.EMPTY, r.instances().size())).build());
        out.add(InfoSnapshot.builder().name("koala_arbitration").help("How framework instances share a full grid")
                .dataPoint(InfoDataPointSnapshot.builder().labels(Labels.of("policy", r.arbitration())).build())
                .build());
    }

    private static void sites(GridReading r, List<MetricSnapshot> out) {
        GaugeSnapshot.Builder nodes = gauge("koala_site_nodes",
                "A site's nodes by who holds them: idle, KOALA's, local users', being claimed");
        GaugeSnapshot.Builder capacity = gauge("koala_site_capacity_nodes", "A site's nodes (0 while its agent is down)");
        GaugeSnapshot.Builder up = gauge("koala_site_agent_up", "Whether a site's agent answers and its cell is seen (1) or not (0)");
        GaugeSnapshot.Builder cores = gauge("koala_site_cores",
                "A site's hosts' cores (SGE slots), in all and free, as koala sites shows them");
        GaugeSnapshot.Builder memory = gauge("koala_site_memory_bytes",
                "A site's hosts' memory jobs may claim, in all and free").unit(Unit.BYTES);
        GaugeSnapshot.Builder gpus = gauge("koala_site_gpus", "A site's hosts' GPUs, in all and free");
        GaugeSnapshot.Builder seen = gauge("koala_site_last_seen_timestamp_seconds",
                "When the information service last heard from a site's agent with its cell's state (Unix time)").unit(Unit.SECONDS);
        for (GridReading.Site s : r.sites()) {
            nodes.dataPoint(point(Labels.of("site", s.site(), "state", "idle"), s.idle()))
                    .dataPoint(point(Labels.of("site", s.site(), "state", "koala"), s.koala()))
                    .dataPoint(point(Labels.of("site", s.site(), "state", "local"), s.local()))
                    .dataPoint(point(Labels.of("site", s.site(), "state", "claiming"), s.claiming()));
            capacity.dataPoint(point(Labels.of("site", s.site()), s.total()));
            up.dataPoint(point(Labels.of("site", s.site()), s.agentUp() ? 1 : 0));
            if (s.seenAt() != null) {
                seen.dataPoint(point(Labels.of("site", s.site()), s.seenAt().toEpochMilli() / 1000.0));
            }
            SiteResources h = s.resources();
            if (h != null) { // none where no host reports them, as koala sites shows "-"
                cores.dataPoint(point(Labels.of("site", s.site(), "state", "all"), h.cores()))
                        .dataPoint(point(Labels.of("site", s.site(), "state", "free"), h.coresFree()));
                if (h.memoryMib() != null) {
                    memory.dataPoint(point(Labels.of("site", s.site(), "state", "all"), h.memoryMib() * MIB));
                }
                if (h.memoryFreeMib() != null) {
                    memory.dataPoint(point(Labels.of("site", s.site(), "state", "free"), h.memoryFreeMib() * MIB));
                }
                gpus.dataPoint(point(Labels.of("site", s.site(), "state", "all"), h.gpus()))
                        .dataPoint(point(Labels.of("site", s.site(), "state", "free"), h.gpusFree()));
            }
        }
        out.add(nodes.build());
        out.add(capacity.build());
        out.add(up.build());
        out.add(seen.build());
        out.add(cores.build());
        out.add(memory.build());
        out.add(gpus.build());
    }

    private static void instances(GridReading r, List<MetricSnapshot> out) {
        InfoSnapshot.Builder info = InfoSnapshot.builder().name("koala_instance")
                .help("A running framework instance: its name, owner and provisioning policy");
        CounterSnapshot.Builder idle = CounterSnapshot.builder().name("koala_instance_idle_node_seconds")
                .help("Worker node-seconds an instance held idle since the scheduler started, as its runner reports");
        for (GridReading.Instance i : r.instances()) {
            info.dataPoint(InfoDataPointSnapshot.builder().labels(Labels.of(INSTANCE, id(i), "name", text(i.name()),
                    "owner", text(i.owner()), "policy", text(i.policy()))).build());
            idle.dataPoint(CounterDataPointSnapshot.builder().labels(Labels.of(INSTANCE, id(i)))
                    .value(i.idleNodeSeconds()).build());
        }
        out.add(info.build());
        out.add(perInstance(r, "koala_instance_workers", "Worker nodes an instance holds (claimed or claiming)",
                i -> OptionalDouble.of(i.workers())));
        out.add(perInstance(r, "koala_instance_busy_workers", "Of an instance's workers, those its runner last "
                + "reported busy", i -> OptionalDouble.of(i.busyWorkers())));
        out.add(perInstance(r, "koala_instance_max_workers", "An instance's F_max: the most workers it may hold",
                i -> OptionalDouble.of(i.maxWorkers())));
        out.add(perInstance(r, "koala_instance_cpu_utilization_ratio", "Mean CPU use of an instance's reported "
                + "workers (1 = one core each)", GridReading.Instance::cpuUtilization));
        out.add(idle.build());
        out.add(perInstance(r, "koala_instance_share_nodes", "The nodes the grid's arbitration holds an instance to "
                + "now (none under fcfs)", i -> whole(i.share())));
        out.add(perInstance(r, "koala_instance_fair_share_nodes", "An instance's weighted fair share of the worker "
                + "nodes", i -> whole(i.fairShare())));
        out.add(perInstance(r, "koala_instance_figure", "The figure an instance's framework reports: a slowdown, "
                + "1 = served as if alone, higher = worse", GridReading.Instance::figure));
        out.add(perInstance(r, "koala_instance_reject_ratio", "The share of its work an instance's framework says it "
                + "rejected lately, 0 to 1 (the reference framework: applications turned away over its last five "
                + "minutes)", GridReading.Instance::rejectRate));
    }

    private static GaugeSnapshot perInstance(GridReading r, String name, String help,
                                             Function<GridReading.Instance, OptionalDouble> value) {
        GaugeSnapshot.Builder g = gauge(name, help);
        for (GridReading.Instance i : r.instances()) {
            OptionalDouble v = value.apply(i);
            if (v.isPresent()) {
                g.dataPoint(point(Labels.of(INSTANCE, id(i)), v.getAsDouble()));
            }
        }
        return g.build();
    }

    private static GaugeSnapshot.Builder gauge(String name, String help) {
        return GaugeSnapshot.builder().name(name).help(help);
    }

    private static GaugeDataPointSnapshot point(Labels labels, double value) {
        return GaugeDataPointSnapshot.builder().labels(labels).value(value).build();
    }

    private static OptionalDouble whole(OptionalInt n) {
        return n.isPresent() ? OptionalDouble.of(n.getAsInt()) : OptionalDouble.empty();
    }

    private static String id(GridReading.Instance i) {
        return Long.toString(i.id());
    }

    private static String text(String s) {
        return s == null ? "" : s;
    }
}
