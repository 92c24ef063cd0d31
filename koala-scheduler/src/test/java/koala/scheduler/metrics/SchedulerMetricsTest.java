package koala.scheduler.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import koala.api.scheduler.SiteResources;
import koala.arbitration.ShareReason;
import koala.scheduler.accounting.UsageTotals;
import koala.scheduler.metrics.GridEvents.ClaimFailure;
import koala.scheduler.metrics.GridEvents.GridReason;
import koala.scheduler.metrics.GridEvents.GrowOutcome;
import koala.scheduler.metrics.GridEvents.ShrinkOutcome;
import koala.scheduler.state.JobState;
import org.junit.jupiter.api.Test;

/** The metrics as rendered: every family once something of each kind happened, the formats, the dashboard's names. */
class SchedulerMetricsTest {
    private static final Instant AT = Instant.parse("2026-11-25T10:00:00Z");

    /** Something of every kind happened and the grid was read once: 47 koala_ families (the lead's three among them, at 0 before it leads). */
    @Test
    void everyKindOfHappeningAndTheReadingShow47Families() {
        String text = text(everything().scrape(null));
        Set<String> families = new TreeSet<>();
        text.lines().filter(l -> l.startsWith("# TYPE koala_")).forEach(l -> families.add(l.split(" ")[2]));
        assertThat(families).hasSize(47);
        assertThat(text).contains(
                "koala_claim_failures_total{reason=\"ended_early\",site=\"fs0\"} 1.0\n",
                "koala_nodes_lost_total{site=\"fs0\"} 1.0\n",
                "koala_grows_total{outcome=\"refused\",reason=\"site_unreachable\"} 1.0\n",
                "koala_shrinks_total{outcome=\"ended\",reason=\"grace_over\"} 1.0\n",
                "koala_shrunk_nodes_total{outcome=\"ended\",reason=\"grace_over\"} 3.0\n",
                "koala_jobs_ended_total{state=\"FINISHED\"} 1.0\n",
                "koala_scheduler_round_duration_seconds_sum 0.004\n",
                "koala_grant_latency_seconds_sum{site=\"fs0\"} 31.5\n",
                "koala_instance_idle_node_seconds_total{framework_instance=\"7\"} 42.5\n",
                "koala_instance_reject_ratio{framework_instance=\"7\"} 0.2\n",
                "koala_site_last_seen_timestamp_seconds{site=\"fs0\"} 1.7956008E9\n",
                "koala_usage_core_seconds_total{kind=\"job\",owner=\"alice\"} 720.0\n",
                "koala_usage_memory_gb_seconds_total{kind=\"job\",owner=\"alice\"} 1440.0\n",
                "koala_instance_gpu_seconds_total{framework_instance=\"7\"} 60.0\n");
    }

    /**
     * A site's resources as {@code koala sites} shows them, memory in bytes (80 GiB in all, 58 free); none
     * for fs1, whose hosts report none.
     */
    @Test
    void aSitesCoresMemoryAndGpusInAllAndFree() {
        String text = text(everything().scrape(null));
        assertThat(text).contains("koala_site_cores{site=\"fs0\",state=\"all\"} 24.0\n",
                "koala_site_cores{site=\"fs0\",state=\"free\"} 17.0\n",
                "koala_site_memory_bytes{site=\"fs0\",state=\"all\"} 8.589934592E10\n",
                "koala_site_memory_bytes{site=\"fs0\",state=\"free\"} 6.2277025792E10\n",
                "koala_site_gpus{site=\"fs0\",state=\"all\"} 2.0\n",
                "koala_site_gpus{site=\"fs0\",state=\"free\"} 1.0\n")
                .doesNotContain("koala_site_cores{site=\"fs1\"");
    }

    /**
     * What records charge adds up per owner and kind: 720 and 360 core-seconds make 1080; an owner not
     * known is shown as "". In OpenMetrics too, each a counter. No instance runs: no koala_instance_*_seconds.
     */
    @Test
    void usageAddsUpPerOwnerAndKind() {
        SchedulerMetrics metrics = new SchedulerMetrics(List.of("fs0"));
        metrics.charged(new UsageTotals.Key("alice", "job"), new UsageTotals(1, 180, 720, 1440, 0));
        metrics.charged(new UsageTotals.Key("alice", "job"), new UsageTotals(2, 90, 360, 0, 30));
        metrics.charged(new UsageTotals.Key(null, "instance"), new UsageTotals(1, 10, 10, 0, 0));
        assertThat(text(metrics.scrape(null))).contains(
                "koala_usage_records_total{kind=\"job\",owner=\"alice\"} 3.0\n",
                "koala_usage_node_seconds_total{kind=\"job\",owner=\"alice\"} 270.0\n",
                "koala_usage_core_seconds_total{kind=\"job\",owner=\"alice\"} 1080.0\n",
                "koala_usage_memory_gb_seconds_total{kind=\"job\",owner=\"alice\"} 1440.0\n",
                "koala_usage_gpu_seconds_total{kind=\"job\",owner=\"alice\"} 30.0\n",
                "koala_usage_records_total{kind=\"instance\",owner=\"\"} 1.0\n").doesNotContain("koala_instance_core_seconds");
        assertThat(text(metrics.scrape("application/openmetrics-text; version=1.0.0"))).contains(
                "# TYPE koala_usage_core_seconds counter\n",
                "koala_usage_core_seconds_total{kind=\"job\",owner=\"alice\"} 1080.0\n");
    }

    /** Prometheus' Accept header gets OpenMetrics; anything else (curl's default, or none) Prometheus text 0.0.4. */
    @Test
    void theFormatFollowsTheAcceptHeader() {
        SchedulerMetrics metrics = everything();
        SchedulerMetrics.Scrape open = metrics.scrape("application/openmetrics-text;version=1.0.0;q=0.5,"
                + "text/plain;version=0.0.4;q=0.2,*/*;q=0.1");
        assertThat(open.contentType()).isEqualTo("application/openmetrics-text; version=1.0.0; charset=utf-8");
        assertThat(text(open)).contains("# TYPE koala_instance info\n", "# UNIT koala_grant_latency_seconds seconds\n")
                .endsWith("# EOF\n");
        assertThat(metrics.scrape("*/*").contentType()).isEqualTo("text/plain; version=0.0.4; charset=utf-8");
        assertThat(metrics.scrape(null).contentType()).isEqualTo("text/plain; version=0.0.4; charset=utf-8");
    }

    /**
     * The reject rate is shown for an instance whose framework reports one (1.25 = 1 / (1 - 0.2): a
     * fifth of its applications turned away), and left out for one that reports none.
     */
    @Test
    void theRejectRateIsShownOnlyForAnInstanceWhoseFrameworkReportsOne() {
        SchedulerMetrics metrics = new SchedulerMetrics(List.of("fs0"));
        GridReading.Instance silent = new GridReading.Instance(8, "batch", "bob", "static", 2, 0, 2, OptionalDouble.empty(),
                0, OptionalInt.empty(), OptionalInt.empty(), OptionalDouble.empty(), OptionalDouble.empty());
        metrics.roundEnded(Duration.ZERO, reading(List.of(instance(7), silent)));
        String text = text(metrics.scrape(null));
        assertThat(text).contains("# TYPE koala_instance_reject_ratio gauge\n", "koala_instance_reject_ratio{framework_instance=\"7\"} 0.2\n")
                .contains("koala_instance_workers{framework_instance=\"8\"} 2.0\n")
                .doesNotContain("koala_instance_reject_ratio{framework_instance=\"8\"}");
    }

    /**
     * No series has a label named {@code instance}: Prometheus adds its own (the target) to every
     * series it scrapes and would rename KOALA's to {@code exported_instance}, which the dashboard
     * does not query.
     */
    @Test
    void anInstanceIsNamedByFrameworkInstanceNotPrometheusOwnInstanceLabel() {
        String text = text(everything().scrape(null));
        assertThat(text).contains("koala_instance_info{framework_instance=\"7\",name=\"wordcount\",owner=\"alice\","
                + "policy=\"ondemand\"} 1\n");
        assertThat(text.lines().filter(l -> l.startsWith("koala_"))).noneMatch(l -> l.matches(".*[{,]instance=.*"));
    }

    /** Failed claims are shown at 0 for every site and reason before any, so rate() sees the first one. */
    @Test
    void failedClaimsAreShownFromZeroForEverySiteAndReason() {
        String text = text(new SchedulerMetrics(List.of("fs0", "fs1")).scrape(null));
        assertThat(text.lines().filter(l -> l.startsWith("koala_claim_failures_total{"))).containsExactlyInAnyOrder(
                "koala_claim_failures_total{reason=\"refused\",site=\"fs0\"} 0.0",
                "koala_claim_failures_total{reason=\"ended_early\",site=\"fs0\"} 0.0",
                "koala_claim_failures_total{reason=\"timed_out\",site=\"fs0\"} 0.0",
                "koala_claim_failures_total{reason=\"refused\",site=\"fs1\"} 0.0",
                "koala_claim_failures_total{reason=\"ended_early\",site=\"fs1\"} 0.0",
                "koala_claim_failures_total{reason=\"timed_out\",site=\"fs1\"} 0.0");
    }

    /** A round swaps in its reading whole: a scrape shows the last one, and nothing of one before it. */
    @Test
    void aScrapeShowsTheLastReadingOnly() {
        SchedulerMetrics metrics = new SchedulerMetrics(List.of("fs0"));
        metrics.roundEnded(Duration.ZERO, reading(List.of(instance(7))));
        metrics.roundEnded(Duration.ZERO, reading(List.of(instance(8))));
        assertThat(text(metrics.scrape(null))).contains("koala_instance_workers{framework_instance=\"8\"} 5.0\n")
                .doesNotContain("framework_instance=\"7\"");
    }

    /** Every series the Grafana dashboard queries is one the scheduler serves. */
    @Test
    void theDashboardQueriesOnlySeriesTheSchedulerServes() throws Exception {
        String text = text(everything().scrape(null));
        Set<String> served = new TreeSet<>();
        text.lines().filter(l -> l.startsWith("koala_")).forEach(l -> served.add(l.split("[{ ]")[0]));
        String dashboard = Files.readString(Path.of("..", "docs", "grafana", "koala.json"));
        Set<String> queried = new TreeSet<>();
        Matcher m = Pattern.compile("koala_[a-z_]+").matcher(dashboard);
        while (m.find()) {
            queried.add(m.group());
        }
        queried.remove("koala_scheduler"); // the dashboard's uid
        assertThat(queried).hasSizeGreaterThan(25);
        assertThat(served).containsAll(queried);
    }

    private static SchedulerMetrics everything() {
        SchedulerMetrics metrics = new SchedulerMetrics(List.of("fs0"));
        metrics.claimBegun("fs0");
        metrics.claimFailed("fs0", ClaimFailure.ENDED_EARLY);
        metrics.nodeLost("fs0");
        metrics.grownNodeArrived("fs0", Duration.ofMillis(31_500));
        metrics.grew(GrowOutcome.REFUSED, GridReason.SITE_UNREACHABLE);
        metrics.nodesGranted(ShareReason.Kind.FREE_NODES, 2);
        metrics.shrank(ShrinkOutcome.ENDED, ShareReason.Kind.GRACE_OVER, 3);
        metrics.jobSubmitted();
        metrics.jobEnded(JobState.FINISHED);
        metrics.runnerRestarted(7);
        metrics.runnerGaveUp(7);
        metrics.charged(new UsageTotals.Key("alice", "job"), new UsageTotals(1, 180, 720, 1440, 0));
        metrics.running(Map.of(7L, new UsageTotals(0, 30, 30, 15, 60)));
        metrics.roundEnded(Duration.ofMillis(4), reading(List.of(instance(7))));
        return metrics;
    }

    private static GridReading reading(List<GridReading.Instance> instances) {
        return new GridReading(AT, Map.of(JobState.RUNNING, 2), 1, 0, List.of(new GridReading.Site("fs0", true, 4, 1, 2,
                0, 1, AT, new SiteResources(3, 24, 17, 81920L, 59392L, 2, 1)), new GridReading.Site("fs1", true, 2, 2, 0,
                0, 0, AT)), instances, "fair");
    }

    private static GridReading.Instance instance(long id) {
        return new GridReading.Instance(id, "wordcount", "alice", "ondemand", 5, 3, 20, OptionalDouble.of(0.6), 42.5,
                OptionalInt.of(4), OptionalInt.of(4), OptionalDouble.of(1.25), OptionalDouble.of(0.2));
    }

    private static String text(SchedulerMetrics.Scrape scrape) {
        return new String(scrape.body(), StandardCharsets.UTF_8);
    }
}
