package koala.scheduler.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.common.api.FrameworkView;
import koala.common.api.JobView;
import koala.common.api.SchedulerClient;
import koala.common.api.SubmitRequest;
import koala.common.grid.GridConfig;
import koala.common.json.Json;
import koala.common.runner.RunnerClient;
import koala.common.runner.RunnerMessages;
import koala.common.runner.TokenSource;
import koala.runner.RunnerMain;
import koala.scheduler.HeadlessChromium;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live page on the testbed, in headless Chromium: signed in with a token from the scheduler, it
 * shows the three sites up, a job waiting with the scheduler's reason, and an OnDemand instance
 * (F_max 4, master on fs1) whose workers grow from 0 to 2 and then to 3 while the page watches, its
 * figures and chart following. The screenshot goes to {@code target/live-page-testbed.png}.
 */
class LivePageIT {
    private static TestScheduler scheduler;
    private static SchedulerClient client;
    private static Path dir;

    @TempDir
    Path profile;

    @BeforeAll
    static void start() throws Exception {
        scheduler = TestScheduler.start(Map.of());
        client = scheduler.client();
        dir = TestScheduler.nodeDir("koala-live-it");
    }

    @AfterAll
    static void stop() {
        scheduler.close();
    }

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
