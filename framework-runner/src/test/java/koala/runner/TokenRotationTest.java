package koala.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import koala.api.runner.RunnerClient;
import koala.api.runner.RunnerMessages.Heartbeat;
import koala.api.runner.RunnerMessages.HeartbeatReply;
import koala.api.runner.RunnerMessages.Hello;
import koala.api.runner.RunnerMessages.Orders;
import koala.api.runner.RunnerMessages.Status;
import koala.http.ApiException;
import koala.http.JsonHttpClient;
import koala.http.JsonHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Instance 7 (token "t0"): its master on 7.0.0 and orchestrator node 7.1.0 run, worker 7.2.0 is being started. Fresh secrets
 * come from a list, in order: "k1", "k2", … Its runner's API on loopback, the runner on a loop thread
 * of its own; a fake scheduler holds those three, and node 8.2.0 is another instance's.
 */
class TokenRotationTest {
    private static final Instant T = Instant.parse("2026-11-26T10:00:00Z");

    @TempDir
    Path dir;

    private final FakeScheduler scheduler = new FakeScheduler().site("fs1", "UP").hold(node("7.0.0", "master"),
            node("7.1.0", "orchestrator"), node("7.2.0", "worker"));
    private final TestRunner.Clock clock = new TestRunner.Clock(T);
    private JsonHttpServer api;
    private FrameworkRunner runner;
    private URI url;

    @BeforeEach
    void start() throws IOException {
        runner = runner();
        runner.adopt(7, book(), "test");
        api = new JsonHttpServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4);
        new RunnerApi(runner, clock).routes(api);
        api.start();
        url = URI.create("http://127.0.0.1:" + api.port());
    }

    @AfterEach
    void stop() {
        api.close();
        runner.close();
    }

    @Test
    void aNodeThatIsNotTheInstancesSayingHelloWithItsTokenGetsItReplaced() {
        assertThatThrownBy(() -> launcher("t0").post("/nodes/8.2.0/hello", hello(), Orders.class))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(410));

        assertThat(runner.secrets().token()).isEqualTo("k1");
        assertThatThrownBy(() -> new RunnerClient(url, "t0").status())
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401));
        Status status = new RunnerClient(url, "k1").status();
        assertThat(status.events()).anySatisfy(e -> assertThat(e).endsWith(
                "the instance's token was replaced: node 8.2.0, not the instance's, said hello with its token"));
    }

    @Test
    void aLauncherProvesItsNodeWithItsKeyAndLearnsTheTokenInForceFromItsHeartbeat() {
        Orders orders = launcher("t0").post("/nodes/7.2.0/hello", hello(), Orders.class);
        assertThat(orders.nodeKey()).isEqualTo("k1");
        assertThat(orders.token()).isEqualTo("t0");

        refused(() -> launcher("t0").post("/nodes/8.2.0/hello", hello(), Map.class), 410); // the token leaked: now "k2"

        HeartbeatReply beat = keyed("k1").post("/nodes/7.2.0/heartbeat", new Heartbeat(12.5), HeartbeatReply.class);
        assertThat(beat.action()).isEqualTo("KEEP");
        assertThat(beat.token()).isEqualTo("k2");
        // the replaced token no longer beats for a node, nor does a wrong key
        refused(() -> launcher("t0").post("/nodes/7.2.0/heartbeat", new Heartbeat(1), Map.class), 401);
        refused(() -> keyed("t0").post("/nodes/7.2.0/heartbeat", new Heartbeat(1), Map.class), 401);
    }

    @Test
    void aNodeGrantedFromARequestMadeBeforeTheRotationStillReportsInWithTheReplacedToken() {
        refused(() -> launcher("t0").post("/nodes/8.2.0/hello", hello(), Map.class), 410); // "t0" replaced by "k1"

        Orders orders = launcher("t0").post("/nodes/7.2.0/hello", hello(), Orders.class);
        assertThat(orders.nodeKey()).isEqualTo("k2");
        assertThat(orders.token()).isEqualTo("k1");
        assertThat(runner.status().role("worker")).extracting(e -> e.state()).containsExactly("RUNNING");
    }

    @Test
    void aSecondHelloForANodeWithoutItsKeyIsRefusedAndTheTokenReplaced() {
        launcher("t0").post("/nodes/7.2.0/hello", hello(), Orders.class);

        refused(() -> launcher("t0").post("/nodes/7.2.0/hello", hello(), Map.class), 409);

        assertThat(runner.secrets().token()).isEqualTo("k2");
        assertThat(runner.status().events()).anySatisfy(e -> assertThat(e).endsWith("node 7.2.0 said hello again "
                + "without its key: another process holds the instance's token"));
    }

    @Test
    void aNodeLostWithoutItsEntitySeenEndingGetsTheTokenReplaced() {
        Orders orders = launcher("t0").post("/nodes/7.2.0/hello", hello(), Orders.class);
        scheduler.drop("7.2.0"); // qdel'd: the scheduler no longer holds it
        clock.set(T.plusSeconds(10));
        runner.tick();

        assertThat(runner.secrets().token()).isEqualTo("k2");
        assertThat(runner.status().events()).anySatisfy(e -> assertThat(e).endsWith("the instance's token was "
                + "replaced: lost [7.2.0] without seeing its entity end (it may still hold the token)"));
        // its key went with it: its launcher, should it still beat or report, hears that the node is gone
        assertThatThrownBy(() -> keyed(orders.nodeKey()).post("/nodes/7.2.0/heartbeat", new Heartbeat(1), Map.class))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(410);
                    assertThat(e.getMessage()).isEqualTo("node 7.2.0 is not this instance's now (given back or lost)");
                });
    }

    @Test
    void aRunnerTakingTheInstanceOverKeepsTheTokenInForceAndTheNodesKeys() throws IOException {
        launcher("t0").post("/nodes/7.2.0/hello", hello(), Orders.class); // key "k1"
        refused(() -> launcher("t0").post("/nodes/8.2.0/hello", hello(), Map.class), 410); // token "k2"
        RunnerState.Book kept = keptBook();

        try (FrameworkRunner successor = runner()) {
            successor.adopt(7, kept, "test");

            assertThat(successor.secrets().token()).isEqualTo("k2");
            assertThat(successor.secrets().keyMatches("7.2.0", "k1")).isTrue();
            assertThat(successor.secrets().known("t0")).as("kept for nodes granted before").isTrue();
            assertThat(successor.secrets().current("t0")).isFalse();
        }
    }

    private RunnerState.Book keptBook() {
        RunnerState.Book[] book = {null};
        runner.journal(b -> book[0] = b);
        return book[0];
    }

    private static void refused(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, int status) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(status));
    }

    private JsonHttpClient launcher(String token) {
        return new JsonHttpClient(url, Duration.ofSeconds(5)).withBearer(token);
    }

    private JsonHttpClient keyed(String key) {
        return new JsonHttpClient(url, Duration.ofSeconds(5)).withHeader(RunnerApi.NODE_KEY, key);
    }

    private static Hello hello() {
        return new Hello("fs1", "fs1-n3", 41002, 4242);
    }

    private static koala.api.scheduler.NodeView node(String id, String role) {
        return FakeScheduler.node(id, role, "fs1");
    }

    /** On a loop thread of its own; the fake scheduler answers at once, on that thread. */
    private FrameworkRunner runner() throws IOException {
        String text = "+( &(jobType = framework)(name = rot)(role = master)(count = 1)(executable = /bin/sleep)"
                + "(arguments = 100)(provisioning = ondemand)(samplePeriod = 10) )"
                + " ( &(role = orchestrator)(count = 1)(executable = /bin/sleep)(arguments = 100) )"
                + " ( &(role = worker)(count = 1)(executable = /bin/sleep)(arguments = 100) )";
        Path grid = TestRunner.grid(dir, "grid.sites = fs1\nsite.fs1.sge.cell = fs1\n");
        Iterator<String> fresh = List.of("k1", "k2", "k3", "k4").iterator();
        InstanceSecrets secrets = new InstanceSecrets("t0", List.of(), Map.of(), fresh::next);
        return TestRunner.on(clock, TestRunner.jdf(text, Map.of("fs1", 8)), grid, RunnerLoop.threaded("runner-loop"),
                SchedulerCalls.direct(scheduler), secrets);
    }

    /** The master and orchestrator node running since 10:00:00, beating every 10 s; worker 7.2.0 asked for at 10:00:00. */
    private static RunnerState.Book book() {
        List<RunnerState.Saved> saved = List.of(
                new RunnerState.Saved("7.0.0", "master", "fs1", "RUNNING", T, "fs1-n1", 41000, 10_000, T, 0, null,
                        false),
                new RunnerState.Saved("7.1.0", "orchestrator", "fs1", "RUNNING", T, "fs1-n2", 41001, 10_000, null, 0,
                        T, false),
                new RunnerState.Saved("7.2.0", "worker", null, "STARTING", T, null, 0, 0, null, 0, null, false));
        return new RunnerState.Book("RUNNING", true, "fs1-n1:41000", "", T, saved, Map.of(), null, Map.of(),
                List.of());
    }
}
