package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import koala.api.runner.RunnerMessages.Hello;
import koala.api.runner.RunnerMessages.Orders;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.GrowRequest;
import koala.api.scheduler.GrowResult;
import koala.api.scheduler.JobView;
import koala.api.scheduler.MasterAddress;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.ReleaseRequest;
import koala.api.scheduler.SiteStatus;
import koala.http.JsonHttpClient;
import koala.http.JsonHttpServer;
import koala.http.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runner process's wiring, as {@code RunnerMain} starts it: its loop and its calls to the
 * scheduler on threads of their own, the scheduler's HTTP API behind {@code Schedd} (a stand-in on
 * loopback here, the one place the runner's tests still talk HTTP to a scheduler), its RPC on
 * loopback. The initial phase goes through the launchers' hellos; the instance ends when its
 * allocation is cancelled at the scheduler.
 */
class RunnerMainTest {
    private static final String JDF = "+( &(jobType = framework)(name = wired)(role = master)(count = 1)"
            + "(executable = /bin/sleep)(arguments = 100)(provisioning = ondemand) )"
            + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100) )"
            + " ( &(role = worker)(count = 1)(executable = /bin/sleep)(arguments = 100) )";

    @TempDir
    Path dir;

    private JsonHttpServer scheduler;
    private final List<NodeView> held = new ArrayList<>();
    private final List<String> masters = new ArrayList<>();
    /** The nodes of each grow the stand-in granted, in order. */
    private final BlockingQueue<List<String>> granted = new LinkedBlockingQueue<>();
    private String state = "RUNNING";
    private int grows;

    @BeforeEach
    void standIn() throws IOException {
        scheduler = new JsonHttpServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        scheduler.route("POST", "/allocations", r -> Response.created(allocation()))
                .route("POST", "/frameworks", r -> Response.created(framework()))
                .route("POST", "/allocations/{id}/grow", r -> Response.ok(grow(r.body(GrowRequest.class))))
                .route("GET", "/jobs/{id}", r -> Response.ok(allocation()))
                .route("POST", "/allocations/{id}/share", r -> Response.ok(FakeScheduler.FCFS))
                .route("GET", "/sites", r -> Response.ok(List.of(new SiteStatus("fs1", 8, 8, 0, 0, 0, "UP", null,
                        Instant.now()))))
                .route("POST", "/frameworks/{id}/master", r -> Response.ok(master(r.body(MasterAddress.class))))
                .route("POST", "/allocations/{id}/release", r -> Response.ok(release(r.body(ReleaseRequest.class))))
                .route("DELETE", "/allocations/{id}", r -> Response.ok(end("FINISHED")))
                .route("POST", "/allocations/{id}/fail", r -> Response.ok(end("FAILED")));
        scheduler.start();
    }

    @AfterEach
    void stop() {
        scheduler.close();
    }

    private synchronized JobView allocation() {
        return new JobView(7, "wired", "alice", "ALLOCATION", state, "fcm", "high", 0, 0, null, Instant.EPOCH,
                List.copyOf(held), List.of());
    }

    private synchronized FrameworkView framework() {
        return new FrameworkView(7, "wired", "ondemand", Map.of(), null, "RUNNING", List.of(), null, Map.of(),
                Instant.EPOCH, List.of(), null, "alice", null);
    }

    private synchronized GrowResult grow(GrowRequest request) {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < request.nodes(); i++) {
            nodes.add("7." + grows + "." + i);
            held.add(FakeScheduler.node("7." + grows + "." + i, request.role(), "fs1"));
        }
        grows++;
        granted.add(nodes);
        return new GrowResult(7, request.nodes(), request.nodes(), nodes, null);
    }

    private synchronized FrameworkView master(MasterAddress address) {
        masters.add(address.node() + " " + address.address());
        return framework();
    }

    private synchronized JobView release(ReleaseRequest request) {
        held.removeIf(n -> request.nodes().contains(n.id()));
        return allocation();
    }

    private synchronized JobView end(String how) {
        state = how;
        return allocation();
    }

    @Test
    void aRunnerDeploysItsInstanceThroughTheLaunchersHellosAndEndsWithItsAllocation() throws Exception {
        Path grid = TestRunner.grid(dir, "grid.sites = fs1\nsite.fs1.sge.cell = fs1\nsite.fs1.node.count = 8\n");
        RunnerMain.Setup setup = new RunnerMain.Setup(TestRunner.jdf(JDF, Map.of("fs1", 8)), JDF, grid,
                URI.create("http://127.0.0.1:" + scheduler.port()), 0, dir.resolve("state"), Duration.ofSeconds(120),
                Duration.ofSeconds(30));
        try (RunnerMain.Started started = RunnerMain.start(setup, InstantSource.system())) {
            assertThat(started.instance()).isEqualTo(7);
            CompletableFuture<Boolean> deployed = CompletableFuture.supplyAsync(() -> started.runner()
                    .deploy(Duration.ofSeconds(30)));

            List<String> master = granted.poll(20, TimeUnit.SECONDS);
            assertThat(master).containsExactly("7.0.0");
            hello(started, "7.0.0", 41000);
            List<String> rest = new ArrayList<>(granted.poll(20, TimeUnit.SECONDS));
            rest.addAll(granted.poll(20, TimeUnit.SECONDS));
            assertThat(rest).containsExactly("7.1.0", "7.2.0");
            rest.forEach(node -> hello(started, node, 41001));

            assertThat(deployed.get(30, TimeUnit.SECONDS)).isTrue();
            assertThat(started.runner().state()).isEqualTo(FrameworkRunner.State.RUNNING);
            synchronized (this) {
                assertThat(masters).containsExactly("7.0.0 fs1-n1:41000");
            }
            RunnerState kept = new RunnerStateFile(dir.resolve("state").resolve("runner-7.json")).read();
            assertThat(kept.book().state()).isEqualTo("RUNNING");
            assertThat(kept.book().entities()).extracting(RunnerState.Saved::node)
                    .containsExactly("7.0.0", "7.1.0", "7.2.0");

            end("CANCELLED"); // koala cancel 7: the next tick sees it
            assertThat(started.runner().awaitEnd(Duration.ofSeconds(20))).isTrue();
            assertThat(started.runner().state()).isEqualTo(FrameworkRunner.State.ENDED);
        }
    }

    private static void hello(RunnerMain.Started started, String node, int port) {
        Orders orders = new JsonHttpClient(started.url(), Duration.ofSeconds(30)).withBearer(started.token())
                .post("/nodes/" + node + "/hello", new Hello("fs1", "fs1-n1", port, 4242), Orders.class);
        assertThat(orders.nodeKey()).isNotNull();
    }
}
