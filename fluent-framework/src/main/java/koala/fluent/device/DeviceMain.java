package koala.fluent.device;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import koala.api.runner.RunnerClient;
import koala.common.time.Poll;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.Secret;
import koala.http.ApiException;
import koala.http.JsonHttpServer;

/**
 * A worker node's DeviceManager process, started by the node launcher with the framework entity
 * environment: it serves on {@code KOALA_ENTITY_PORT}, then reports to the master at
 * {@code KOALA_MASTER} with its node id ({@code KOALA_NODE_ID}) and its slots ({@code --slots},
 * default 4), presenting the instance's token ({@code KOALA_RUNNER_TOKEN}), and says hello again
 * every {@link #BEAT}; when the master does not answer it asks the runner where the master is now. Its reader reads files
 * under the account's home and {@code --log-dir DIR} (the instance's log directory, if any).
 */
public final class DeviceMain {
    private static final Duration REPORT_TIMEOUT = Duration.ofSeconds(60);
    /** How often a DeviceManager says hello again: how soon a restarted master hears from it. */
    private static final Duration BEAT = Duration.ofSeconds(2);

    private DeviceMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> env = System.getenv();
        String node = required(env, "KOALA_NODE_ID");
        String host = env.getOrDefault("KOALA_ENTITY_HOST", "127.0.0.1");
        int port = Integer.parseInt(env.getOrDefault("KOALA_ENTITY_PORT", "0"));
        Map<String, String> options = Options.parse(args, Set.of("--slots", "--log-dir"));
        int slots = Integer.parseInt(options.getOrDefault("--slots", "4"));
        ReaderRoots roots = ReaderRoots.of(Optional.ofNullable(options.get("--log-dir")).map(Path::of));
        String deviceToken = env.get(koala.fluent.master.MasterMain.DEVICE_TOKEN_VARIABLE);
        MasterLink master = new MasterLink(URI.create("http://" + required(env, "KOALA_MASTER")),
                new Secret(deviceToken != null ? deviceToken : required(env, RunnerClient.TOKEN_VARIABLE)),
                deviceToken == null ? null : new Secret(deviceToken), locator(env));
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(4);
        DeviceManager device = new DeviceManager(node, master, roots, executor, InstantSource.system());
        // on the node's own address only: nothing of the instance answers on a node's loopback
        JsonHttpServer server = new JsonHttpServer(new InetSocketAddress(InetAddress.getByName(host), port), 8);
        device.routes(server);
        server.start();
        String url = "http://" + host + ":" + server.port();
        String[] refused = new String[1];
        boolean reported = Poll.system().until(() -> {
            try {
                master.hello(new DeviceHello(node, url, slots));
                return true;
            } catch (ApiException e) {
                if (e.refused()) {
                    System.err.println("the master refused this DeviceManager: " + e.getMessage());
                    System.exit(2);
                }
                refused[0] = e.getMessage();
                master.relocate(e.getMessage()); // the master may have been restarted elsewhere meanwhile
                return false;
            }
        }, REPORT_TIMEOUT);
        if (!reported) {
            System.err.println("DeviceManager " + node + ": the master did not take it in: " + refused[0]);
            System.exit(2);
        }
        // a restarted master hears from this worker within a beat, and learns what still runs here
        executor.scheduleWithFixedDelay(() -> {
            try {
                if (!device.beat()) {
                    System.exit(0);
                }
            } catch (RuntimeException e) {
                System.err.println("DeviceManager " + node + ": beat failed, next in " + BEAT.toSeconds() + " s: " + e);
            }
        }, BEAT.toMillis(), BEAT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        System.out.println("DeviceManager " + node + " serving " + url + " with " + slots + " slots, reading under "
                + roots.roots());
        // the server's threads are daemons: this one keeps the process until its launcher stops it
        new java.util.concurrent.CountDownLatch(1).await();
    }

    /** Where the master is now, as the instance's runner says (it moves when a master is restarted on another node). */
    private static java.util.function.Supplier<Optional<String>> locator(Map<String, String> env) {
        if (env.get(RunnerClient.URL_VARIABLE) == null || env.get(RunnerClient.TOKEN_VARIABLE) == null) {
            return Optional::empty;
        }
        RunnerClient runner = RunnerClient.fromEnvironment();
        return () -> Optional.ofNullable(runner.status().master());
    }

    private static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            System.err.println(name + " is not set: a DeviceManager runs as a framework worker started by KOALA");
            System.exit(2);
        }
        return value;
    }
}
