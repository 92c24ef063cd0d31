package koala.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

/** The scrape benchmark's parts, without timing anything: its list entries, its grid, its table. */
class ScrapeBenchTest {

    @Test
    void theGeneratedBenchmarkListNamesTheScrapeAndTheReading() {
        Set<String> names = BenchmarkList.defaultList().getAll(
                OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of()).stream()
                .map(BenchmarkListEntry::getUsername).collect(Collectors.toSet());
        assertThat(names).contains(ScrapeBenchmark.class.getName() + ".scrape", ScrapeBenchmark.class.getName() + ".read");
    }

    /**
     * A smaller grid of the same make (100 jobs, 10 instances of 5 workers, 4 sites of 30 nodes): 36
     * koala_ families (the sites' cores, memory and GPUs, the instances' core-, GB- and GPU-seconds and
     * the scheduler's lead among them), all but that of shrinks, which none of its grows made (failed claims show from 0
     * per site and reason, though none failed). 70 jobs are placed on the 70 nodes the workers leave: 7 in 8 of them run.
     */
    @Test
    void aBusyGridShowsAtLeast25KoalaFamilies() {
        try (MetricsBenchGrid grid = MetricsBenchGrid.build(100, 10, 5, 4, 30)) {
            byte[] body = grid.metrics().scrape(ScrapeBenchmark.accept("openmetrics")).body();
            String text = new String(body, StandardCharsets.UTF_8);
            ScrapeBench.Content c = ScrapeBench.content(text, body.length);
            assertThat(c.families()).isEqualTo(36);
            assertThat(text).contains("koala_jobs{state=\"RUNNING\"} 61.0\n", "koala_jobs{state=\"CLAIMING\"} 9.0\n",
                    "koala_jobs{state=\"QUEUED\"} 30.0\n", "koala_framework_instances 10.0\n",
                    "koala_grows_total{outcome=\"granted\",reason=\"free_nodes\"} 10.0\n").endsWith("# EOF\n");
        }
    }

    /**
     * OpenMetrics in 812 us and Prometheus text in 1.25 ms against 50 ms: 0.0162 and 0.0250 of the
     * target; the slower one decides, 40 times under it.
     */
    @Test
    void theTableGivesEachFormatsTimeAgainstTheTarget() {
        Map<String, ScrapeBench.Time> scrapes = new LinkedHashMap<>();
        scrapes.put("openmetrics", new ScrapeBench.Time(812, 20));
        scrapes.put("prometheus", new ScrapeBench.Time(1250, 30));
        ScrapeBench.Figures f = new ScrapeBench.Figures(BenchSettings.QUICK, scrapes,
                Optional.of(new ScrapeBench.Time(2300, 100)), Map.of("openmetrics", new ScrapeBench.Content(194_560, 2914,
                28), "prometheus", new ScrapeBench.Content(190_464, 2914, 28)), new PlacementFigures.Machine(2, 0.1, 1.0));

        assertThat(ScrapeBench.table(f)).contains(
                "  scrape, OpenMetrics text                    812 ± 20 us     0.0162x    190 KB     2,914\n",
                "  scrape, Prometheus text 0.0.4            1.25 ± 0.03 ms     0.0250x    186 KB     2,914\n",
                "  the loop's reading, once a round         2.30 ± 0.10 ms\n",
                "Target: one scrape <= 50 ms: met (the slower format, Prometheus text 0.0.4, 1.250 ms: 0.0250 of the "
                        + "target, 40x under it)",
                "koala_ metric families in one scrape of this grid: 28",
                "Machine: 2 cores, load average 0.1 before the run, 1.0 after.");
    }
}
