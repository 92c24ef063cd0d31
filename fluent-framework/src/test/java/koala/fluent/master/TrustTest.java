package koala.fluent.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import koala.fluent.client.FluentClient;
import koala.fluent.device.DeviceManager;
import koala.fluent.device.MasterLink;
import koala.fluent.device.ReaderRoots;
import koala.fluent.wire.FluentMessages.AppRequest;
import koala.fluent.wire.FluentMessages.Deploy;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.fluent.wire.Secret;
import koala.http.ApiException;
import koala.http.JsonHttpClient;
import koala.http.JsonHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may command whom, over real HTTP on loopback: a real master (with a fake runner) and a real
 * DeviceManager. A client holds the instance's token, which opens the master; only the master's
 * own key, made at its start and handed to its DeviceManagers in answer to their hello, opens a
 * DeviceManager.
 */
class TrustTest {
    private static final Secret TOKEN = new Secret("instance-7-token");
    private static final AppRequest SHORT_RL = new AppRequest("rl", 300L, 20.0, 100L, null, null);

    private final List<JsonHttpServer> servers = new ArrayList<>();
    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);

    @TempDir
    Path dir;

    @AfterEach
    void stop() {
        servers.forEach(JsonHttpServer::close);
        executor.shutdownNow();
    }

    @Test
    void theMastersKeyNotTheInstancesTokenCommandsADeviceManager() throws IOException {
        Secret key = Secret.random();
        URI master = master(0, key);
        String device = device("w1", master);

        Deploy rl = new Deploy("x.rl1", "rl", 0, 300, 20, 100, null, List.of(), null);
        assertThatThrownBy(() -> signed(device, TOKEN).post("/components", rl, Map.class))
                .as("a client holds the instance's token: it cannot start anything on a DeviceManager")
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401))
                .hasMessage("the secret presented is not its master's key");
        assertThat(signed(device, key).get("/status", Map.class).get("rl")).as("nothing started").asList().isEmpty();

        // the same client, through the master: the master signs the command with its key
        FluentClient client = new FluentClient(master, TOKEN.value());
        JobReply placed = client.submit(new JobRequest("one", List.of(SHORT_RL)));
        assertThat(placed.apps()).singleElement().satisfies(a -> assertThat(a.workers()).containsExactly("w1"));
        await().atMost(Duration.ofSeconds(10)).until(() -> client.job(placed.job()).apps().get(0).state()
                .equals("FINISHED"));
        assertThat(((Number) client.job(placed.job()).apps().get(0).result().get("frames")).longValue()).isPositive();
    }

    @Test
    void aDeviceManagerWhoseMasterRestartedJoinsTheNewOneAtItsNextReportAndTakesOnlyItsKey() throws IOException {
        int port = koala.common.net.FreePort.any();
        Secret first = Secret.random();
        URI master = master(port, first);
        String device = device("w1", master);
        FluentClient client = new FluentClient(master, TOKEN.value());
        client.submit(new JobRequest("long", List.of(new AppRequest("rl", 1_500L, 20.0, 500L, null, null))));

        // the master restarts while the RL runs: same address, no memory of it, a new key
        servers.remove(0).close();
        Secret second = Secret.random();
        master(port, second);
        assertThat(client.status().workers()).isEmpty();

        // the RL's report finds a master that does not know it: the DeviceManager says hello again
        await().atMost(Duration.ofSeconds(10)).until(() -> client.status().workers().size() == 1);
        assertThat(client.status().workers().get(0).node()).isEqualTo("w1");
        assertThatThrownBy(() -> signed(device, first).get("/status", Map.class))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(401));
        assertThat(signed(device, second).get("/status", Map.class)).containsEntry("node", "w1");
    }

    /** A master with a fake runner (OnDemand, F_max 20) on 127.0.0.1:{@code port} (0: any), with {@code key}. */
    private URI master(int port, Secret key) throws IOException {
        FakeRunner runner = new FakeRunner("ondemand", 20, Duration.ofSeconds(60));
        MetricsLog metrics = new MetricsLog(Optional.empty());
        MasterEvents events = new MasterEvents(Instant::now, metrics);
        FrameworkManager manager = new FrameworkManager(Instant::now, runner, Devices.http(key), events,
                new Provisioning(runner.status(), events, metrics, 4), Duration.ofSeconds(60));
        JsonHttpServer server = new JsonHttpServer(new InetSocketAddress("127.0.0.1", port), 4);
        new MasterApi(manager, TOKEN, key).routes(server);
        server.start();
        servers.add(0, server);
        return URI.create("http://127.0.0.1:" + server.port());
    }

    /** A DeviceManager that has said hello to {@code master}; its URL. */
    private String device(String node, URI master) throws IOException {
        JsonHttpServer server = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 4);
        MasterLink link = new MasterLink(master, TOKEN);
        new DeviceManager(node, link, new ReaderRoots(List.of(dir)), executor, InstantSource.system()).routes(server);
        server.start();
        servers.add(server);
        String url = "http://127.0.0.1:" + server.port();
        link.hello(new DeviceHello(node, url, null));
        return url;
    }

    private static JsonHttpClient signed(String url, Secret secret) {
        return new JsonHttpClient(URI.create(url), Duration.ofSeconds(5), secret.header());
    }
}
