package koala.scheduler.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import koala.scheduler.accounting.UsageCounts;
import koala.scheduler.accounting.UsageTotals;
import koala.scheduler.state.JobState;

/**
 * The scheduler's metrics, as Prometheus scrapes them from {@code GET /metrics}.
 *
 * <p>Two kinds of series, and neither makes a scrape wait for the scheduler's loop:
 * <ul>
 * <li>Counts of what happened (claims, grows, shrinks, restarts, ended jobs) and the histograms of
 *     round durations and grant latencies are the Prometheus client's own counters and histograms,
 *     which the loop updates as things happen ({@link GridEvents}) and a scrape reads without a lock.</li>
 * <li>How the grid stands (jobs by state, the queue, nodes per site, each instance's workers and
 *     shares) comes from the {@link GridReading} the loop hands over at the end of each round
 *     ({@link #roundEnded}), swapped in through an {@link AtomicReference}: a scrape renders the
 *     latest one, at most a round old ({@code koala_scheduler_last_round_timestamp_seconds} says
 *     when it was made, so a stalled loop shows as a reading that no longer moves).</li>
 * </ul>
 * Labels stay few: a site, a state, an outcome, a reason's kind, an instance's id (as
 * {@code framework_instance}, since Prometheus keeps {@code instance} for the scraped target).
 *
 * <p>{@link #scrape} answers in OpenMetrics text ({@code application/openmetrics-text; version=1.0.0})
 * when the {@code Accept} header asks for it, as Prometheus does, and in Prometheus text 0.0.4
 * otherwise.
 */
public final class SchedulerMetrics implements GridEvents, UsageCounts {
    /** Round durations: half a millisecond to ten seconds (a round that waits on something is a bug). */
    static final double[] ROUND_BUCKETS = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
        5, 10};
    /** Grant latencies (O_grow, about 30 s on DAS-4): a second to ten minutes. */
    static final double[] GRANT_BUCKETS = {1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 300, 600};

    /** One answer to a scrape: the text and the format it is in. */
    public record Scrape(String contentType, byte[] body) {
    }

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final AtomicReference<GridReading> latest = new AtomicReference<>(GridReading.NONE);
    private static final ExpositionFormatWriter OPEN_METRICS = OpenMetricsTextFormatWriter.create();
    private static final ExpositionFormatWriter PROMETHEUS_TEXT = PrometheusTextFormatWriter.create();

    private final Gauge leading = leadership(registry);
    private final Gauge epoch = epoch(registry);
    private final Gauge leadingSince = Gauge.builder().name("koala_scheduler_leading_since_timestamp_seconds")
            .help("When this scheduler took the lead (Unix time): a take-over shows as a newer time, from another"
                    + " scheduler").withoutExemplars().register(registry);
    private final Counter claims = counter("koala_claims", "Node claims begun: pilots submitted for nodes", "site");
    private final Counter claimFailures = counter("koala_claim_failures",
            "Node claims that failed: the pilot refused, ended before its node arrived, or not started in time",
            "site", "reason");
    private final Counter nodesLost = counter("koala_nodes_lost",
            "Nodes lost after they arrived: their pilots left the cell with no word from the launcher", "site");
    private final Counter grows = counter("koala_grows",
            "Grow requests of framework instances answered, by what they got and the kind of reason", "outcome",
            "reason");
    private final Counter grantedNodes = counter("koala_granted_nodes",
            "Nodes granted to framework instances (by their grows, or owed ones later), by the kind of reason",
            "reason");
    private final Counter shrinks = counter("koala_shrinks",
            "Shrinks of framework instances: given back, ended by KOALA, or asked for; by the kind of reason",
            "outcome", "reason");
    private final Counter shrunkNodes = counter("koala_shrunk_nodes",
            "Nodes framework instances gave back, were asked to give back, or had ended, by the kind of reason",
            "outcome", "reason");
    private final Counter submitted = counter("koala_jobs_submitted", "Jobs submitted");
    private final Counter ended = counter("koala_jobs_ended", "Jobs that ended, by how", "state");
    private final Counter runnerRestarts = counter("koala_runner_restarts",
            "Framework runners started again by the scheduler's supervisor");
    private final Counter runnerFailures = counter("koala_runner_failures",
            "Framework runners that could not be started again (their instances failed)");
    private final Counter usageRecords = counter("koala_usage_records",
            "Usage records of ended jobs and framework instances, by owner and kind (job, instance)", "owner", "kind");
    private final Counter usageNodeSeconds = counter("koala_usage_node_seconds",
            "Node-seconds ended jobs and framework instances were granted, by owner and kind", "owner", "kind");
    private final Counter usageCoreSeconds = counter("koala_usage_core_seconds",
            "Core-seconds ended jobs and framework instances were granted (each node's cores: what it asked for, or "
                    + "its site's node.cores when it asked for nothing), by owner and kind", "owner", "kind");
    private final Counter usageMemorySeconds = counter("koala_usage_memory_gb_seconds",
            "GB-seconds of memory ended jobs and framework instances were granted (what each node asked for, GB of "
                    + "1024 MiB), by owner and kind", "owner", "kind");
    private final Counter usageGpuSeconds = counter("koala_usage_gpu_seconds",
            "GPU-seconds ended jobs and framework instances were granted, by owner and kind", "owner", "kind");
    private final AtomicReference<Map<Long, UsageTotals>> running = new AtomicReference<>(Map.of());
    private final Histogram rounds = Histogram.builder().name("koala_scheduler_round_duration_seconds")
            .help("How long a scheduling round took on the scheduler's loop").unit(Unit.SECONDS)
            .classicOnly().classicUpperBounds(ROUND_BUCKETS).withoutExemplars().register(registry);
    private final Histogram grantLatency = Histogram.builder().name("koala_grant_latency_seconds")
            .help("From a grow's grant to its node's arrival (O_grow), per site").unit(Unit.SECONDS)
            .labelNames("site").classicOnly().classicUpperBounds(GRANT_BUCKETS).withoutExemplars().register(registry);

    /**
     * @param sites the grid's sites, whose per-site counts are shown from 0 on (failed claims for each
     *              reason too), so that {@code rate()} sees the first one of each
     */
    public SchedulerMetrics(Collection<String> sites) {
        for (String site : sites) {
            claims.initLabelValues(site);
            nodesLost.initLabelValues(site);
            for (ClaimFailure why : ClaimFailure.values()) {
                claimFailures.initLabelValues(site, label(why));
            }
        }
        for (JobState state : JobState.values()) {
            if (state.ended()) {
                ended.initLabelValues(state.name());
            }
        }
        registry.register(new ReadingCollector(latest::get));
        registry.register(new UsageCollector(running::get));
    }

    /**
     * The start estimates, read from {@code figures} at each scrape: the waiting jobs' likely wait at the median, the
     * 90th percentile and the longest; how many have no start foreseen, or can never be placed; what a refresh costs.
     */
    public void startEstimates(java.util.function.Supplier<StartFigures> figures) {
        io.prometheus.metrics.core.metrics.GaugeWithCallback.builder().name("koala_queue_likely_wait_seconds")
                .help("How long the waiting jobs will likely wait from now, by the scheduler's start estimates: at the "
                        + "median, the 90th percentile and the longest (at = p50, p90, max)").unit(Unit.SECONDS)
                .labelNames("at").callback(c -> {
                    StartFigures f = figures.get();
                    c.call(f.wait(0.5), "p50");
                    c.call(f.wait(0.9), "p90");
                    c.call(f.wait(1.0), "max");
                }).register(registry);
        io.prometheus.metrics.core.metrics.GaugeWithCallback.builder().name("koala_queue_jobs_unforeseen")
                .help("Waiting jobs with no start foreseen: what they need stays held past everything seen ending "
                        + "(not_foreseen), or no site could ever hold them (never)").labelNames("why").callback(c -> {
                    StartFigures f = figures.get();
                    c.call(f.notForeseen(), "not_foreseen");
                    c.call(f.neverPlaceable(), "never");
                }).register(registry);
        io.prometheus.metrics.core.metrics.GaugeWithCallback.builder().name("koala_start_estimates_refresh_seconds")
                .help("How long the last refresh of the start estimates took, on its own thread (the whole queue "
                        + "replayed)").unit(Unit.SECONDS).callback(c -> c.call(figures.get().refreshSeconds()))
                .register(registry);
    }

    static Gauge leadership(PrometheusRegistry registry) {
        return Gauge.builder().name("koala_scheduler_leading").help("Whether this scheduler leads the schedulers"
                + " sharing its store (1) or is a standby (0)").withoutExemplars().register(registry);
    }

    static Gauge epoch(PrometheusRegistry registry) {
        return Gauge.builder().name("koala_scheduler_epoch").help("The lease's fencing epoch this scheduler leads at (a"
                + " standby: the leader's it last saw); one higher at each take-over").withoutExemplars().register(registry);
    }

    /** This scheduler leads at {@code epoch}, since {@code since}. */
    public void leads(long epoch, Instant since) {
        leading.set(1);
        this.epoch.set(epoch);
        leadingSince.set(since.toEpochMilli() / 1000.0);
    }

    private Counter counter(String name, String help, String... labels) {
        return Counter.builder().name(name).help(help).labelNames(labels).withoutExemplars().register(registry);
    }

    /**
     * The latest reading and every count, in OpenMetrics text when {@code accept} (a request's
     * {@code Accept} header, may be null) asks for it, else in Prometheus text 0.0.4.
     */
    public Scrape scrape(String accept) {
        return scrape(registry, accept);
    }

    static Scrape scrape(PrometheusRegistry registry, String accept) {
        ExpositionFormatWriter writer = accept != null && OPEN_METRICS.accepts(accept) ? OPEN_METRICS : PROMETHEUS_TEXT;
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
        try {
            writer.write(out, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the metrics: " + e.getMessage(), e); // not on a byte array
        }
        return new Scrape(writer.getContentType(), out.toByteArray());
    }

    /** The reading scrapes render now. */
    public GridReading latest() {
        return latest.get();
    }

    static String label(Enum<?> kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public void claimBegun(String site) {
        claims.labelValues(site).inc();
    }

    @Override
    public void claimFailed(String site, ClaimFailure why) {
        claimFailures.labelValues(site, label(why)).inc();
    }

    @Override
    public void nodeLost(String site) {
        nodesLost.labelValues(site).inc();
    }

    @Override
    public void grownNodeArrived(String site, Duration latency) {
        grantLatency.labelValues(site).observe(seconds(latency));
    }

    @Override
    public void grew(GrowOutcome outcome, Enum<?> reason) {
        grows.labelValues(label(outcome), label(reason)).inc();
    }

    @Override
    public void nodesGranted(Enum<?> reason, int nodes) {
        grantedNodes.labelValues(label(reason)).inc(nodes);
    }

    @Override
    public void shrank(ShrinkOutcome outcome, Enum<?> reason, int nodes) {
        shrinks.labelValues(label(outcome), label(reason)).inc();
        shrunkNodes.labelValues(label(outcome), label(reason)).inc(nodes);
    }

    @Override
    public void jobSubmitted() {
        submitted.inc();
    }

    @Override
    public void jobEnded(JobState state) {
        ended.labelValues(state.name()).inc();
    }

    @Override
    public void runnerRestarted(long instance) {
        runnerRestarts.inc();
    }

    @Override
    public void runnerGaveUp(long instance) {
        runnerFailures.inc();
    }

    @Override
    public void charged(UsageTotals.Key owner, UsageTotals added) {
        String[] labels = {owner.owner(), owner.kind()};
        usageRecords.labelValues(labels).inc(added.records());
        usageNodeSeconds.labelValues(labels).inc(added.nodeSeconds());
        usageCoreSeconds.labelValues(labels).inc(added.coreSeconds());
        usageMemorySeconds.labelValues(labels).inc(added.memoryGbSeconds());
        usageGpuSeconds.labelValues(labels).inc(added.gpuSeconds());
    }

    @Override
    public void running(Map<Long, UsageTotals> instances) {
        running.set(Map.copyOf(instances));
    }

    @Override
    public void roundEnded(Duration took, GridReading reading) {
        rounds.observe(seconds(took));
        latest.set(reading);
    }

    private static double seconds(Duration d) {
        return Math.max(0, d.toNanos() / 1e9);
    }
}
