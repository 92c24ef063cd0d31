package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.common.api.JobView;
import koala.common.api.NodeView;
import koala.common.api.ReleaseRequest;
import koala.common.api.SchedulerClient;
import koala.common.api.ShareOrders;
import koala.common.api.SiteStatus;
import koala.common.http.JsonHttpServer;
import koala.common.http.Response;
import koala.common.jdf.ClusterCatalog;
import koala.common.jdf.JdfParser;
import koala.common.jdf.JobDescription;
import koala.provisioning.PolicyKind;
import koala.provisioning.SettingsLayer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Static instance wholly on remote site fs2 (master, orchestrator node, two workers), heartbeats
 * every 10 s, launchers that wait 120 s for a silent runner: when fs2's link is down its entities go
 * silent without being gone. Worked on a stand-in scheduler on loopback.
 */
class CutOffSiteTest {
    private static final Instant T = Instant.parse("2026-11-26T10:00:00Z");

    @TempDir
    Path dir;

    private JsonHttpServer scheduler;
    private final List<ReleaseRequest> released = new ArrayList<>();
    private final List<String> grows = new ArrayList<>();
    private final List<NodeView> held = new ArrayList<>();
    private String fs2 = "DOWN";
    private Instant now = T;

    @BeforeEach
    void standIn() throws IOException {
        scheduler = new JsonHttpServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        scheduler.route("GET", "/jobs/{id}", r -> Response.ok(allocation()))
                .route("GET", "/sites", r -> Response.ok(sites()))
                .route("POST", "/allocations/{id}/share", r -> Response.ok(new ShareOrders("fcfs", 2, null, null, null,
                        List.of())))
                .route("POST", "/allocations/{id}/release", r -> Response.ok(release(r.body(ReleaseRequest.class))))
                .route("POST", "/allocations/{id}/grow", r -> Response.ok(grow()));
        scheduler.start();
        held.add(node("7.0.0", "master"));
        held.add(node("7.1.0", "orchestrator"));
        held.add(node("7.2.0", "worker"));
        held.add(node("7.2.1", "worker"));
    }

    @AfterEach
    void stop() {
        scheduler.close();
    }

    private synchronized JobView allocation() {
        return new JobView(7, "cut", "koala", "ALLOCATION", "RUNNING", "fcm", "high", 0, 0, null, T, List.copyOf(held),
                List.of());
    }

    private synchronized List<SiteStatus> sites() {
        return List.of(new SiteStatus("fs1", 8, 8, 0, 0, 0, "UP", null, now),
                new SiteStatus("fs2", 8, 4, 4, 0, 0, fs2, fs2.equals("UP") ? null : "cannot reach fs2-head", now));
    }

    private synchronized JobView release(ReleaseRequest request) {
        released.add(request);
        held.removeIf(n -> request.nodes().contains(n.id()));
        return allocation();
    }

    private synchronized koala.common.api.GrowResult grow() {
        grows.add("grow");
        return new koala.common.api.GrowResult(7, 1, 0, List.of(), "grid full");
    }

    private static NodeView node(String id, String role) {
        return new NodeView(id, 0, 0, "fs2", "RUNNING", "1", "fs2-n1", null, role);
    }

    /**
     * Last heard from at 10:00:00; two periods make them silent at 10:00:20. With fs2's link down they
     * are waited for until 10:02:10 (120 s their launchers wait, and one period), and lost after.
     */
    @Test
    void entitiesBehindALinkThatIsDownAreWaitedForAsLongAsTheirLaunchersWait() throws Exception {
        FrameworkRunner runner = runner();
        runner.adopt(7, book(), "test");

        now = T.plusSeconds(30);
        runner.tick();
        assertThat(released).isEmpty();
        assertThat(runner.status().events()).anySatisfy(e -> assertThat(e).endsWith("master 7.0.0 silent for 30 s "
                + "while the link to fs2 is down: waited for until 2026-11-26T10:02:10Z (its launcher waits 120 s for "
                + "this runner)"));

        now = T.plusSeconds(129);
        runner.tick();
        assertThat(released).isEmpty();
        assertThat(grows).as("no worker or master deployed in their place meanwhile").isEmpty();

        now = T.plusSeconds(130);
        runner.tick();
        assertThat(released).extracting(r -> r.nodes().get(0)).contains("7.0.0", "7.1.0", "7.2.0", "7.2.1");
        assertThat(released.get(0).reason()).endsWith("no heartbeat for 130 s (two periods: 10 s each); the link to "
                + "fs2 was down longer than its launcher waits");
    }

    /** The link comes back at 10:01:00 and they are heard from again: nothing lost, nothing deployed again. */
    @Test
    void entitiesHeardFromAgainWhenTheLinkIsBackCarryOn() throws Exception {
        FrameworkRunner runner = runner();
        runner.adopt(7, book(), "test");
        now = T.plusSeconds(30);
        runner.tick();

        now = T.plusSeconds(60);
        fs2 = "UP";
        for (String node : List.of("7.0.0", "7.1.0", "7.2.0", "7.2.1")) {
            runner.heartbeat(node, 50.0, true);
        }
        now = T.plusSeconds(65);
        runner.tick();

        assertThat(released).isEmpty();
        assertThat(grows).isEmpty();
        assertThat(runner.status().entities()).extracting(e -> e.state()).containsOnly("RUNNING");
    }

    /** A site whose link is up: silence is loss after two periods, as before. */
    @Test
    void silentEntitiesOnASiteThatIsUpAreLostAfterTwoPeriods() throws Exception {
        fs2 = "UP";
        FrameworkRunner runner = runner();
        runner.adopt(7, book(), "test");

        now = T.plusSeconds(20);
        runner.tick();

        assertThat(released).extracting(r -> r.nodes().get(0)).contains("7.0.0", "7.1.0", "7.2.0", "7.2.1");
    }

    private FrameworkRunner runner() throws IOException {
        String text = "+( &(jobType = framework)(name = cut)(role = master)(count = 1)(resourceManagerContact = fs2)"
                + "(executable = /bin/sleep)(arguments = 100)(provisioning = static)(samplePeriod = 10) )"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100) )"
                + " ( &(role = worker)(count = 2)(executable = /bin/sleep)(arguments = 100) )";
        Path grid = Files.writeString(dir.resolve("grid.properties"), "grid.sites = fs1, fs2\n"
                + "site.fs1.sge.cell = fs1\nsite.fs2.sge.cell = fs2\nsite.fs2.ssh.host = fs2-head\n"
                + "site.fs2.ssh.user = koala\nsite.fs2.ssh.key = " + dir.resolve("key") + "\n");
        JobDescription jdf = JdfParser.parse("cut.jdf", text, new ClusterCatalog(Map.of("fs1", 8, "fs2", 8)),
                PolicyKind.shortNames());
        URI base = URI.create("http://127.0.0.1:" + scheduler.port());
        return new FrameworkRunner(() -> now, jdf, new HttpSchedd(new SchedulerClient(base)),
                new Deployd(jdf, "http://127.0.0.1:1", "t0ken", "d3vice"),
                new SiteSettings(grid, SettingsLayer.parse(jdf.framework()).withInitialWorkers(2)),
                Duration.ofSeconds(120), Duration.ofSeconds(300));
    }

    /** Everything running on fs2, last heard from at 10:00:00 with a period of 10 s; the last sample then too. */
    private static RunnerState.Book book() {
        List<RunnerState.Saved> saved = new ArrayList<>();
        saved.add(new RunnerState.Saved("7.0.0", "master", "fs2", "RUNNING", T, "fs2-n1", 41000, 10_000, T, 0, null,
                false));
        saved.add(new RunnerState.Saved("7.1.0", "orchestrator", "fs2", "RUNNING", T, "fs2-n2", 41001, 10_000,
                null, 0, T, false));
        for (String w : List.of("7.2.0", "7.2.1")) {
            saved.add(new RunnerState.Saved(w, "worker", "fs2", "RUNNING", T, "fs2-n3", 41002, 10_000, null, 0, null,
                    false));
        }
        return new RunnerState.Book("RUNNING", true, "fs2-n1:41000", "fs2", T, saved, Map.of(), null, Map.of(),
                List.of());
    }
}
