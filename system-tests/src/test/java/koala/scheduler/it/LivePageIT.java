package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.api.runner.RunnerClient;
import koala.api.runner.RunnerMessages;
import koala.api.runner.TokenSource;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.JobView;
import koala.api.scheduler.SchedulerClient;
import koala.api.scheduler.SubmitRequest;
import koala.common.json.Json;
import koala.grid.GridConfig;
import koala.runner.RunnerMain;
import koala.scheduler.HeadlessChromium;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an admin watches the running grid with, on the testbed: the live page, in headless Chromium,
 * and the Grafana dashboard's queries, in Prometheus. The scheduler (the shared one, retuned) shares a full grid
 * by {@code fair} arbitration, so that every instance has a share to show.
 */
@SharesScheduler
class LivePageIT {
    private static TestScheduler scheduler;
    private static SchedulerClient client;
    private static Path dir;

    @TempDir
    Path profile;

    @BeforeAll
    static void start() throws Exception {
        scheduler = TestScheduler.shared(Map.of("scheduler.arbitration.policy", "fair"));
        client = scheduler.client();
        dir = TestScheduler.nodeDir("koala-live-it");
    }

    @AfterAll
    static void stop() {
        scheduler.close();
    }

    /**
     * Signed in with a token from the scheduler, the page shows the three sites up, a job waiting with
     * the scheduler's reason, and an OnDemand instance (F_max 4, master on fs1) whose workers grow from
     * 0 to 2 and then to 3 while the page watches, its figures and chart following. The screenshot goes
     * to {@code target/live-page-testbed.png}.
     */
    @Test
    void thePageFollowsAnInstanceGrowingOnTheTestbed() throws Exception {
        Optional<Path> chromium = HeadlessChromium.find();
        Assumptions.assumeTrue(chromium.isPresent(), "no Chromium installed (bin/koala testbed up --programs installs it)");
        String origin = "http://127.0.0.1:" + GridConfig.load(scheduler.config()).integer("scheduler.port", 7400);
        String token = scheduler.asRoot().createToken(Duration.ofHours(1)).token();
        try (RunnerMain.Started runner = scheduler.runner(jdf(), scheduler.config(), dir, Duration.ofSeconds(5));
             HeadlessChromium browser = HeadlessChromium.start(chromium.get(), profile.resolve("chromium"))) {
            long instance = runner.instance();
            RunnerClient rpc = new RunnerClient(runner.url(), TokenSource.of(runner::token));
            // fs1 has 8 nodes and the instance's master and orchestrator are there: 8 more cannot be placed
            JobView waiting = client.submit(new SubmitRequest("wide.jdf",
                    "&(resourceManagerContact = fs1)(count = 8)(executable = /bin/true)"));

            browser.load(origin + "/");
            browser.evaluate("document.getElementById('token').value = " + Json.write(token)
                    + "; document.getElementById('signin-form').requestSubmit(); true");
            for (String site : List.of("fs0", "fs1", "fs2")) {
                browser.await(row("#sites tr[data-site=" + site + "]"), v -> v.asText().startsWith(site + "\tUP\t"),
                        Duration.ofSeconds(20));
            }
            awaitAllocated(browser, instance, 0);
            assertThat(figure(browser, instance, "fmax")).isEqualTo("4");

            assertThat(rpc.grow(2).granted()).isEqualTo(2);
            awaitWorkers(rpc, 2);
            awaitAllocated(browser, instance, 2);
            assertThat(rpc.grow(1).granted()).isEqualTo(1);
            awaitWorkers(rpc, 3);
            awaitAllocated(browser, instance, 3);
            Awaitility.await("the busy workers counted").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1))
                    .until(() -> figure(browser, instance, "busy"), b -> b.matches("\\d+"));

            String why = client.job(waiting.id()).waitingBecause();
            assertThat(why).isNotBlank();
            browser.await(row("#jobs tr[data-job='" + waiting.id() + "']"), v -> v.asText().contains(why),
                    Duration.ofSeconds(10));
            JsonNode chart = browser.evaluate("Number(document.querySelector(\"[data-instance='" + instance
                    + "'] svg.chart\").dataset.samples)");
            assertThat(chart.asInt()).isGreaterThanOrEqualTo(3);
            FrameworkView view = client.framework(instance);
            assertThat(view.settings()).anySatisfy(s -> assertThat(s.key()).isEqualTo("fMax"));

            byte[] png = browser.screenshot();
            Path shot = Path.of("target", "live-page-testbed.png");
            Files.createDirectories(shot.getParent());
            Files.write(shot, png);
            assertThat(browser.requests()).allSatisfy(r -> assertThat(r).startsWith("GET " + origin + "/"));

            client.cancel(waiting.id());
            client.closeAllocation(instance);
            assertThat(runner.runner().awaitEnd(Duration.ofSeconds(10))).isTrue();
        }
    }

    /**
     * Debian's Prometheus (installed when missing) scrapes the scheduler with the README's scrape
     * configuration, every second, while an OnDemand instance grows by 2 workers, gives one back after
     * t_idle and reports a figure and a reject rate; then every query of the Grafana dashboard
     * ({@code docs/grafana/koala.json}), its variables filled in as Grafana would with every value they
     * list, returns at least one series through Prometheus' HTTP API, the instance variable lists the
     * instance's id, and no series carries {@code exported_instance} (a label of KOALA's that clashed
     * with Prometheus' own target label). Costs about 11 s on the class's scheduler (the instance's
     * deployment and grow, t_idle of 2 s, Prometheus' start, two scrapes for each rate), and the first
     * time on a machine the package's installation (about 40 s).
     */
    @Test
    void everyQueryOfTheDashboardFindsSeriesInPrometheusScrapingWithTheAdminGuidesConfig() throws Exception {
        GridConfig grid = GridConfig.load(scheduler.config());
        Path prometheusToken = Files.createTempFile("koala-metrics-", ".token");
        Files.copy(grid.value("scheduler.metrics.tokenFile").map(Path::of)
                .orElse(koala.grid.KoalaHome.dir().resolve("metrics.token")), prometheusToken,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        String target = "127.0.0.1:" + grid.integer("scheduler.port", 7400);
        String config = "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n" + guideScrapeConfig()
                .replace("koala-host:7400", target).replace("/etc/prometheus/koala-metrics.token", prometheusToken.toString())
                .replace("scrape_interval: 15s", "scrape_interval: 1s"); // the guide's pace, quickened for a test
        try (RunnerMain.Started runner = scheduler.runner(metricsJdf(), scheduler.config(), dir, Duration.ofSeconds(5));
             TestPrometheus prometheus = TestPrometheus.start(config)) {
            String instance = Long.toString(runner.instance());
            RunnerClient rpc = new RunnerClient(runner.url(), TokenSource.of(runner::token));
            RunnerMessages.GrowResult grew = rpc.grow(2);
            assertThat(grew.granted()).isEqualTo(2);
            awaitWorkers(rpc, 2);
            rpc.figure(1.25, 0.2);
            String given = grew.nodes().get(0);
            Awaitility.await("a worker given back after t_idle").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500)).until(() -> rpc.shrink(List.of(given)), r -> !r.released().isEmpty());

            Awaitility.await("Prometheus scrapes the scheduler").atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500)).until(prometheus::targets, t -> t.size() == 1
                            && t.get(0).path("health").asText().equals("up"));
            JsonNode dashboard = Json.mapper().readTree(Path.of("..", "docs", "grafana", "koala.json").toFile());
            // Grafana's $__rate_interval is at least four scrape intervals
            Map<String, String> variables = new java.util.HashMap<>(Map.of("__rate_interval", "10s"));
            Map<String, List<String>> listed = new java.util.HashMap<>();
            for (JsonNode v : dashboard.path("templating").path("list")) {
                if (v.path("type").asText().equals("query")) {
                    List<String> values = labelValues(prometheus, v.path("definition").asText());
                    assertThat(values).as("the values of $" + v.path("name").asText()).isNotEmpty();
                    listed.put(v.path("name").asText(), values);
                    variables.put(v.path("name").asText(), "(" + String.join("|", values) + ")");
                }
            }
            assertThat(listed.get("instance")).as("$instance lists the framework instances' ids").containsExactly(instance);
            assertThat(listed.get("site")).containsExactly("fs0", "fs1", "fs2");
            List<String> queries = new java.util.ArrayList<>();
            dashboard.findValues("targets").forEach(ts -> ts.forEach(t -> queries.add(fill(t.path("expr").asText(), variables))));
            assertThat(queries).hasSizeGreaterThan(30);
            Awaitility.await("every query of the dashboard answered").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> assertThat(queries.stream()
                            .filter(q -> prometheus.query(q).isEmpty()).toList()).as("queries with no series").isEmpty());
            assertThat(prometheus.series("{job=\"koala\"}")).as("series scraped from the scheduler").hasSizeGreaterThan(50)
                    .allSatisfy(s -> assertThat(s.has("exported_instance")).as(s.toString()).isFalse());

            client.closeAllocation(runner.instance());
            assertThat(runner.runner().awaitEnd(Duration.ofSeconds(10))).isTrue();
        }
    }

    /**
     * The Prometheus scrape configuration admins copy: the admin guide's {@code yaml} block (the
     * README's "Monitoring" points there).
     */
    private static String guideScrapeConfig() throws java.io.IOException {
        String guide = Files.readString(Path.of("..", "docs", "admin-guide.md"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("```yaml\n(?:# prometheus.yml\n)?(scrape_configs:.*?)```",
                java.util.regex.Pattern.DOTALL).matcher(guide);
        assertThat(m.find()).as("the admin guide's scrape configuration").isTrue();
        return m.group(1);
    }

    /** Grafana's {@code label_values(METRIC, LABEL)}: the values of LABEL on METRIC's series. */
    private static List<String> labelValues(TestPrometheus prometheus, String definition) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("label_values\\((\\w+), *(\\w+)\\)").matcher(definition);
        assertThat(m.matches()).as(definition).isTrue();
        return prometheus.series(m.group(1)).stream().map(s -> s.path(m.group(2)).asText()).filter(v -> !v.isEmpty())
                .distinct().sorted().toList();
    }

    /** A query with the dashboard's variables put in, as Grafana does ({@code $name} or {@code ${name}}). */
    private static String fill(String query, Map<String, String> variables) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\$\\{?(\\w+)}?").matcher(query);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = variables.get(m.group(1));
            assertThat(value).as("the variable $" + m.group(1) + " in " + query).isNotNull();
            m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }

    /** An OnDemand instance (F_max 3) on fs0 whose idle workers may be given back after 2 s. */
    private static String metricsJdf() {
        return "+( &(jobType = framework)(name = it-metrics)(role = master)(count = 1)"
                + "(resourceManagerContact = fs0)(executable = /bin/sleep)(arguments = 100000)"
                + "(provisioning = ondemand)(fMax = 3)(tIdle = 2)(samplePeriod = 1) )"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100000) )"
                + " ( &(role = worker)(count = 0)(executable = /bin/sleep)(arguments = 100000) )";
    }

    private static String jdf() {
        return "+( &(jobType = framework)(name = it-live)(role = master)(count = 1)"
                + "(resourceManagerContact = fs1)(executable = /bin/sleep)(arguments = 100000)"
                + "(provisioning = ondemand)(fMax = 4)(tIdle = 600) )"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100000) )"
                + " ( &(role = worker)(count = 0)(executable = /bin/sleep)(arguments = 100000) )";
    }

    private static void awaitWorkers(RunnerClient rpc, int count) {
        Awaitility.await(count + " workers running").atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(300))
                .until(() -> rpc.status().role("worker"), (List<RunnerMessages.Entity> w) -> w.size() == count
                        && w.stream().allMatch(e -> e.state().equals("RUNNING")));
    }

    private static void awaitAllocated(HeadlessChromium browser, long instance, int workers) {
        browser.await("(document.querySelector(\"[data-instance='" + instance + "'] .figure.alloc .value\") || {})"
                + ".textContent", v -> v.asText().equals(Integer.toString(workers)), Duration.ofSeconds(20));
    }

    private static String figure(HeadlessChromium browser, long instance, String kind) {
        return browser.evaluate("(document.querySelector(\"[data-instance='" + instance + "'] .figure." + kind
                + " .value\") || {}).textContent").asText();
    }

    private static String row(String selector) {
        return "(document.querySelector(" + Json.write(selector) + ") || {innerText: ''}).innerText";
    }
}
