package koala.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import koala.api.scheduler.FrameworkRegistration;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.MasterAddress;
import koala.api.scheduler.ShareReport;
import koala.api.scheduler.ShareReport.WorkerActivity;
import koala.api.site.CellJob;
import koala.auth.Identity;
import koala.auth.TokenKey;
import koala.auth.Tokens;
import koala.common.json.Json;
import koala.http.Endpoint;
import koala.http.JsonHttpServer;
import koala.scheduler.api.Admins;
import koala.scheduler.api.AuditLog;
import koala.scheduler.api.Callers;
import koala.scheduler.api.SchedulerApi;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live page in a real browser (Debian's Chromium, headless, driven over its DevTools protocol)
 * against the scheduler's API on loopback over a made-up grid: it asks for a token, refuses a bad one
 * with the scheduler's reason, then shows the sites, the jobs with why they wait, and a framework
 * instance whose workers grow and shrink while the page watches, its chart drawn from what it saw.
 * It makes GET requests only, to its own origin, and logs no script error or policy violation.
 * Skipped where no Chromium is installed ({@code apt-get install chromium}; the testbed's set-up does).
 * The screenshot goes to {@code target/live-page.png}.
 *
 * <p>The grid: fs0 12 nodes, fs1 6 (2 taken by local users), fs2 8 on two hosts that report their
 * cores, memory and GPUs (the sites table shows them free/in all; the others' cells are empty). Alice's 2-node job runs on fs0
 * (Worst-Fit: the most idle). Bob's job wants 5 nodes of fs1, which has 4 idle: it waits, saying so, and its likely
 * start is "?" (the local users' 2 nodes are not seen ending).
 * Alice's instance {@code fluent} (OnDemand, F_max 8 in its JDF, but fs0 caps it at 6) has its master
 * and orchestrator on fs0 and grows its workers there: 2 (1 busy), 4 (3 busy), 6 (6 busy), then gives
 * one back: 5 (4 busy). fs0 then has 2 + 1 + 1 + 5 = 9 of KOALA's nodes and 3 idle.
 */
class LivePageBrowserTest {
    private static final String FLUENT = "+( &(jobType = framework)(name = fluent)(role = master)(count = 1)"
            + "(executable = /bin/sleep)(arguments = 100000)(provisioning = ondemand)(fMax = 8) )"
            + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100000) )"
            + " ( &(role = worker)(count = 2)(executable = /bin/sleep)(arguments = 100000) )";

    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void thePageShowsTheGridAndAnInstanceGrowingLive() throws Exception {
        Optional<Path> chromium = HeadlessChromium.find();
        Assumptions.assumeTrue(chromium.isPresent(), "no Chromium installed (apt-get install chromium)");
        Map<String, Integer> sizes = new LinkedHashMap<>();
        sizes.put("fs0", 12);
        sizes.put("fs1", 6);
        sizes.put("fs2", 8);
        try (TestGrid grid = new TestGrid(sizes, Duration.ofSeconds(60)).localUsers("fs1", 2)
                .hosts("fs2", new koala.api.site.HostInfo("fs2-n1", "lx-amd64", 4, 0.0, "8G", "0",
                                new koala.api.site.HostResources(4, 1, 8192L, 3584L,
                                        koala.api.site.HostResources.MemorySource.CONSUMABLE, 2, 1)),
                        TestGrid.host("fs2-n2", 4, 6, 0))) {
            grid.scheduler.share(koala.arbitration.ArbitrationSettings.DEFAULTS,
                    site -> site.equals("fs0") ? Map.of("fMax", "6", "tIdle", "120") : Map.of());
            SchedulerLoop loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor());
            TokenKey key = TokenKey.in(dir.resolve("token.key"));
            Path group = Files.writeString(dir.resolve("group"), "root:x:0:\n");
            Path passwd = Files.writeString(dir.resolve("passwd"), "root:x:0:0::/root:/bin/sh\n"
                    + "alice:x:1002:1002::/home/alice:/bin/sh\n");
            Callers callers = new Callers(new Tokens(key), new Admins("koala-admin", group, passwd), grid.clock);
            String token = new Tokens(key).issue(new Identity("alice", 1002), grid.clock.instant(), Duration.ofHours(8));
            JsonHttpServer server = new JsonHttpServer(List.of(Endpoint.loopback("local", 0)), 8);
            SchedulerApi.register(server, new LoopOperations(grid.scheduler.parts(), loop, key), callers,
                    AuditLog.in(dir.resolve("audit.log"), grid.clock));
            SchedulerApi.registerProcess(server, () -> new koala.api.scheduler.SchedulerProcess(4242, true, "", "head1:4242",
                    3, java.time.Instant.parse("2026-12-06T08:30:05Z")), callers);
            server.start();
            String origin = "http://127.0.0.1:" + server.port();
            try (HeadlessChromium browser = HeadlessChromium.start(chromium.get(), dir.resolve("chromium"))) {
                Grid g = new Grid(grid, loop);
                long render = g.call(() -> grid.scheduler.submit("render.jdf", "&(count = 2)(executable = /bin/true)",
                        "alice", null).id());
                long analysis = g.call(() -> grid.scheduler.submit("analysis.jdf",
                        "&(count = 5)(resourceManagerContact = fs1)(executable = /bin/true)", "bob", null).id());
                g.run(() -> {
                    grid.tick(Duration.ofSeconds(1));
                    grid.arrive(render);
                    g.mirrorCells();
                });
                long fluent = g.call(() -> g.instance(FLUENT));
                g.workers(fluent, 2, 1);

                browser.load(origin + "/");
                assertThat(browser.evaluate("document.getElementById('grid').hidden").asBoolean()).isTrue();
                assertThat(browser.evaluate("document.getElementById('signin').hidden").asBoolean()).isFalse();
                assertThat(browser.requests()).as("nothing is read before a token is given").containsExactly(
                        "GET " + origin + "/");

                signIn(browser, "koala1.bm90LWEtdG9rZW4.c2lnbmF0dXJl");
                assertThat(browser.await("document.getElementById('signin-error').textContent",
                        v -> !v.asText().isEmpty(), Duration.ofSeconds(5)).asText())
                        .isEqualTo("token not signed by this scheduler's current key (forged, or the key was rotated)");
                assertThat(browser.evaluate("document.getElementById('grid').hidden").asBoolean()).isTrue();

                signIn(browser, token);
                awaitRow(browser, "#sites tr[data-site=fs1]", "fs1\tUP\t\n\t6\t4\t0\t2\t0");
                // cores, memory and GPUs free/in all, as koala sites shows them: fs2's two hosts report them
                // (4 + 4 cores, 1 + 4 free; 8G + 6G, 3.5G + 6G free; 2 + 0 GPUs, 1 free), fs1's none (empty)
                assertThat(List.of(cells(browser, "#sites tr[data-site=fs2]").split("\t", -1)).subList(8, 11))
                        .containsExactly("5/8", "9.5G/14G", "1/2");
                assertThat(List.of(cells(browser, "#sites tr[data-site=fs1]").split("\t", -1)).subList(8, 11))
                        .containsExactly("", "", "");
                assertThat(cells(browser, "#sites thead tr")).contains("claiming\tcores\tmemory\tGPUs\tseen");
                awaitFigures(browser, fluent, "2", "1", "6");
                assertThat(browser.await("document.getElementById('status').textContent", v -> v.asText().contains("leads"),
                        Duration.ofSeconds(10)).asText())
                        .as("who leads, and since when in the browser's time zone").containsPattern(
                                "head1:4242 leads since \\d\\d:\\d\\d:05 \\(epoch 3\\) · updated ");
                g.workers(fluent, 4, 3);
                awaitFigures(browser, fluent, "4", "3", "6");
                g.workers(fluent, 6, 6);
                awaitFigures(browser, fluent, "6", "6", "6");
                g.workers(fluent, 5, 4);
                awaitFigures(browser, fluent, "5", "4", "6");

                awaitRow(browser, "#sites tr[data-site=fs0]", "fs0\tUP\t\n\t12\t3\t9\t0\t0");
                String waits = g.call(() -> grid.scheduler.status(analysis).waitingBecause());
                assertThat(waits).isNotBlank();
                assertThat(text(browser, "#jobs tr[data-job='" + analysis + "']"))
                        .startsWith(analysis + "\tanalysis\tbob\tFIXED\tQUEUED\t0\t?\t" + waits);
                assertThat(text(browser, "#jobs tr[data-job='" + render + "']"))
                        .startsWith(render + "\trender\talice\tNON_FIXED\tRUNNING\t2\t");
                assertThat(cells(browser, "[data-instance='" + fluent + "'] tr[data-setting=fMax]"))
                        .isEqualTo("fMax\t6\tfrom site fs0 cap (jdf asked 8)");
                assertThat(cells(browser, "[data-instance='" + fluent + "'] tr[data-setting=tIdle]"))
                        .isEqualTo("tIdle\t120 s\tfrom site fs0");
                assertThat(cells(browser, "[data-instance='" + fluent + "'] tr[data-setting=initialWorkers]"))
                        .isEqualTo("initialWorkers\t2\tfrom jdf");
                JsonNode chart = browser.evaluate("(() => { const c = document.querySelector(\"[data-instance='"
                        + fluent + "'] svg.chart\"); return {samples: Number(c.dataset.samples), "
                        + "alloc: c.querySelectorAll('polyline.alloc').length, busy: c.querySelectorAll('polyline.busy')"
                        + ".length, fmax: c.querySelectorAll('line.fmax').length}; })()");
                assertThat(chart.path("samples").asInt()).isGreaterThanOrEqualTo(4);
                assertThat(chart.path("alloc").asInt()).isEqualTo(1);
                assertThat(chart.path("busy").asInt()).isEqualTo(1);
                assertThat(chart.path("fmax").asInt()).isEqualTo(1);

                // open the instance's settings for the picture, let the page draw once more
                browser.evaluate("document.querySelectorAll('[data-instance] details').forEach(d => d.open = true); true");
                browser.await("Number(document.querySelector(\"[data-instance='" + fluent
                        + "'] svg.chart\").dataset.samples)", v -> v.asInt() >= chart.path("samples").asInt() + 1,
                        Duration.ofSeconds(5));
                byte[] png = browser.screenshot();
                Path shot = Path.of("target", "live-page.png");
                Files.createDirectories(shot.getParent());
                Files.write(shot, png);
                assertThat(png).startsWith(0x89, 'P', 'N', 'G');

                // an instance that ended before its master came: counted as ended, its card says so, no "no master yet"
                long ended = g.call(() -> {
                    long id = grid.allocations().open("runner-short", "alice").id();
                    grid.frameworks().register(new FrameworkRegistration(id, "short", "short.jdf", FLUENT,
                            "ondemand", Map.of("provisioning", "ondemand"), "http://127.0.0.1:7602"));
                    grid.allocations().close(id);
                    return id;
                });
                assertThat(browser.await("document.getElementById('instances-count').textContent",
                        v -> v.asText().contains("1 ended"), Duration.ofSeconds(5)).asText())
                        .isEqualTo("(1 running, 1 ended)");
                assertThat(browser.await(innerText("[data-instance='" + ended + "'] .meta"),
                        v -> !v.asText().startsWith("nothing at"), Duration.ofSeconds(5)).asText())
                        .endsWith(" · ended").doesNotContain("master");
                assertThat(text(browser, "[data-instance='" + fluent + "'] .meta")).contains("master fs0-n4:7700");

                assertThat(browser.requests()).as("reads only, from its own origin").allSatisfy(r ->
                        assertThat(r).matches("GET " + origin + "/(|sites|jobs|frameworks|scheduler)"));
                assertThat(browser.logged().stream().filter(l -> !l.matches("\\S+ (verbose|info): .*")))
                        .as("no script error, no policy violation: only the bad token's 401s")
                        .allSatisfy(l -> assertThat(l).startsWith("network error:").contains("401"));
            } finally {
                server.close();
                loop.close();
            }
        }
    }

    private static void signIn(HeadlessChromium browser, String token) {
        browser.evaluate("document.getElementById('token').value = " + Json.write(token)
                + "; document.getElementById('signin-form').requestSubmit(); true");
    }

    private static void awaitFigures(HeadlessChromium browser, long instance, String allocated, String busy, String fMax) {
        String card = "[data-instance='" + instance + "'] ";
        browser.await("[" + List.of(".figure.alloc .value", ".figure.busy .value", ".figure.fmax .value").stream()
                        .map(f -> "(document.querySelector(\"" + card + f + "\") || {}).textContent")
                        .reduce((a, b) -> a + ", " + b).orElseThrow() + "].join(' ')",
                v -> v.asText().equals(allocated + " " + busy + " " + fMax), Duration.ofSeconds(8));
    }

    /** Waits until the row {@code selector} names reads {@code cells}, then any more cells (a site's time seen). */
    private static void awaitRow(HeadlessChromium browser, String selector, String cells) {
        browser.await(innerText(selector), v -> v.asText().startsWith(cells + "\t"), Duration.ofSeconds(8));
    }

    private static String text(HeadlessChromium browser, String selector) {
        return browser.evaluate(innerText(selector)).asText();
    }

    /** The cells of a row, tab-separated, whether shown or folded away (in a closed {@code details}). */
    private static String cells(HeadlessChromium browser, String selector) {
        return browser.evaluate("Array.from((document.querySelector(" + Json.write(selector)
                + ") || {cells: []}).cells).map(c => c.textContent).join('\\t')").asText();
    }

    private static String innerText(String selector) {
        return "(document.querySelector(" + Json.write(selector) + ") || {innerText: 'nothing at " + selector.replace("'", "")
                + "'}).innerText";
    }

    /** The test's grid, changed on the scheduler's loop, as the API reads it. */
    private record Grid(TestGrid grid, SchedulerLoop loop) {
        <T> T call(java.util.concurrent.Callable<T> work) {
            return loop.call(work);
        }

        void run(Runnable work) {
            loop.call(() -> {
                work.run();
                return null;
            });
        }

        /** Alice's instance on fs0: its allocation, master and orchestrator nodes arrived, the master's address. */
        long instance(String jdf) {
            long id = grid.allocations().open("runner-fluent", "alice").id();
            grid.frameworks().register(new FrameworkRegistration(id, "fluent", "fluent.jdf", jdf, "ondemand",
                    Map.of("provisioning", "ondemand", "fMax", "8"), "http://127.0.0.1:7601"));
            String master = grid.allocations().grow(id, grow(1, "master")).nodes().get(0);
            grid.allocations().grow(id, grow(1, "orchestrator"));
            grid.arrive(id);
            grid.frameworks().master(id, new MasterAddress(master, "fs0-n4:7700"));
            return id;
        }

        /** The instance grows or shrinks to {@code workers}, of which its runner reports {@code busy} busy. */
        void workers(long id, int workers, int busy) {
            run(() -> {
                List<String> held = held(id);
                if (held.size() < workers) {
                    grid.allocations().grow(id, grow(workers - held.size(), "worker"));
                    grid.arrive(id);
                } else if (held.size() > workers) {
                    grid.allocations().release(id, held.subList(workers, held.size()), "idle past t_idle");
                }
                mirrorCells();
                List<String> now = held(id);
                grid.scheduler.shareReport(id, new ShareReport(java.util.stream.IntStream.range(0, now.size())
                        .mapToObj(i -> new WorkerActivity(now.get(i), i < busy, i < busy ? null : grid.clock.instant(),
                                i < busy ? 95 : 2)).toList(), null));
                // a round of the grid's sharing (every 15 s): from the first on, the view counts the busy workers
                grid.tick(Duration.ofSeconds(15));
            });
        }

        /**
         * What the cells' snapshots show: a running SGE job for each of KOALA's nodes that arrived, and on
         * fs1 two of a local user's.
         */
        void mirrorCells() {
            grid.cellJobs.clear();
            grid.cellJobs.put("fs1", new java.util.ArrayList<>(List.of(
                    new CellJob("901", "sim", "carol", "r", 1, "all.q@fs1-n1", null, false),
                    new CellJob("902", "sim", "carol", "r", 1, "all.q@fs1-n2", null, false))));
            for (koala.api.scheduler.JobView job : grid.scheduler.list()) {
                job.nodes().stream().filter(n -> n.state().equals("RUNNING") || n.state().equals("ARRIVED"))
                        .forEach(n -> grid.cellJobs.computeIfAbsent(n.site(), s -> new java.util.ArrayList<>())
                                .add(new CellJob(n.pilot(), "pilot", job.owner(), "r", 1, "all.q@" + n.host(), null,
                                        true)));
            }
        }

        private List<String> held(long id) {
            return grid.scheduler.status(id).nodes().stream().filter(n -> "worker".equals(n.role()))
                    .filter(n -> n.state().equals("RUNNING") || n.state().equals("ARRIVED")).map(n -> n.id()).toList();
        }

        private static GrowRequest grow(int nodes, String role) {
            return new GrowRequest(nodes, role, "/bin/sleep", List.of("100000"), Map.of(), "fs0");
        }
    }
}
