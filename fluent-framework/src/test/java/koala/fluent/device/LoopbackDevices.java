package koala.fluent.device;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.Deploy;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.DeviceWelcome;
import koala.fluent.wire.Secret;
import koala.http.JsonHttpClient;
import koala.http.JsonHttpServer;
import koala.http.Response;

/**
 * Real DeviceManagers on loopback and a stand-in master that records what they report: it takes the
 * instance's token ({@link #TOKEN}) and answers a hello with its key ({@link #KEY}), which the
 * DeviceManagers then want on every command. They read files under {@code root} only. The set-up the
 * DeviceManager's tests share; closed after each test.
 */
final class LoopbackDevices implements AutoCloseable {
    static final Secret TOKEN = new Secret("instance-token");
    static final Secret KEY = new Secret("master-key");

    private final Map<String, AppDone> done = new ConcurrentHashMap<>();
    private final List<JsonHttpServer> servers = new ArrayList<>();
    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(4);
    private final Path root;
    private final URI master;

    /** Starts the stand-in master. */
    LoopbackDevices(Path root) throws IOException {
        this.root = root;
        JsonHttpServer server = server();
        server.route("POST", "/apps/{app}/done", Secret.required(() -> TOKEN, "the instance's token", r -> {
            done.put(r.param("app"), r.body(AppDone.class));
            return Response.ok(Map.of());
        })).route("POST", "/devices", Secret.required(() -> TOKEN, "the instance's token",
                r -> Response.ok(new DeviceWelcome(true, KEY.value()))));
        this.master = URI.create("http://127.0.0.1:" + server.port());
    }

    /** A DeviceManager for {@code node} that has said hello to the stand-in master (and holds its key); its URL. */
    String device(String node) throws IOException {
        JsonHttpServer server = server();
        MasterLink link = new MasterLink(master, TOKEN);
        new DeviceManager(node, link, new ReaderRoots(List.of(root)), executor, InstantSource.system()).routes(server);
        String url = "http://127.0.0.1:" + server.port();
        link.hello(new DeviceHello(node, url, null));
        return url;
    }

    /** A DeviceManager for {@code node} whose hello no master has answered: it knows no key; its URL. */
    String unwelcomed(String node) throws IOException {
        JsonHttpServer server = server();
        new DeviceManager(node, new MasterLink(URI.create("http://127.0.0.1:1"), TOKEN), new ReaderRoots(List.of(root)),
                executor, InstantSource.system()).routes(server);
        return "http://127.0.0.1:" + server.port();
    }

    /** The applications reported done so far. */
    Set<String> reported() {
        return Set.copyOf(done.keySet());
    }

    /** What {@code app} reported as done, once it has (within 30 s). */
    AppDone done(String app) {
        await().atMost(Duration.ofSeconds(30)).until(() -> done.containsKey(app));
        return done.get(app);
    }

    void deploy(String url, Deploy component) {
        signed(url).post("/components", component, Map.class);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> status(String url) {
        return signed(url).get("/status", Map.class);
    }

    /** A client of the DeviceManager at {@code url} signing with the master's key. */
    static JsonHttpClient signed(String url) {
        return signed(url, KEY);
    }

    static JsonHttpClient signed(String url, Secret secret) {
        return new JsonHttpClient(URI.create(url), Duration.ofSeconds(5), secret.header());
    }

    private JsonHttpServer server() throws IOException {
        JsonHttpServer server = new JsonHttpServer(new InetSocketAddress("127.0.0.1", 0), 4);
        server.start();
        servers.add(server);
        return server;
    }

    @Override
    public void close() {
        servers.forEach(JsonHttpServer::close);
        executor.shutdownNow();
    }
}
