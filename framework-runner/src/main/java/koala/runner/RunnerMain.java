package koala.runner;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import koala.common.api.SchedulerClient;
import koala.common.grid.GridConfig;
import koala.common.http.JsonHttpServer;
import koala.common.jdf.ClusterCatalog;
import koala.common.jdf.JdfParser;
import koala.common.jdf.JobDescription;
import koala.common.json.Json;
import koala.provisioning.PolicyKind;
import koala.provisioning.SettingsLayer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A framework runner process, one per instance: {@code RunnerMain --scheduler URL --jdf FILE
 * --config GRID [--port N] [--state DIR] [--runner-gone S] [--deploy-timeout S]}. It prints
 * {@code READY <instance> <rpc url>} once the instance is registered, writes {@code runner.json}
 * (url, token, pid; readable only by its owner) to the state directory, deploys the instance and
 * runs until the instance ends (its master is lost, or its allocation is cancelled).
 */
public final class RunnerMain {
    public static final String READY = "READY ";
    private static final Logger LOG = LogManager.getLogger(RunnerMain.class);

    private RunnerMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        Path jdfFile = Path.of(required(options, "--jdf"));
        GridConfig grid = GridConfig.load(Path.of(required(options, "--config")));
        String text = Files.readString(jdfFile);
        JobDescription jdf = JdfParser.parse(jdfFile.toString(), text, new ClusterCatalog(grid.nodeCounts()),
                PolicyKind.shortNames());
        System.exit(run(new Setup(jdf, text, grid.file(), URI.create(required(options, "--scheduler")),
                Integer.parseInt(options.getOrDefault("--port", "0")),
                Path.of(options.getOrDefault("--state", System.getProperty("java.io.tmpdir"))),
                Duration.ofSeconds(Long.parseLong(options.getOrDefault("--runner-gone", "120"))),
                Duration.ofSeconds(Long.parseLong(options.getOrDefault("--deploy-timeout", "180"))))));
    }

    /** What one runner needs. */
    public record Setup(JobDescription jdf, String jdfText, Path gridFile, URI scheduler, int port, Path stateDir,
                        Duration runnerGone, Duration deployTimeout) {
    }

    /** A started runner: its instance id, RPC address and token, and the runner itself. */
    public record Started(long instance, URI url, String token, FrameworkRunner runner, JsonHttpServer server,
                          ScheduledExecutorService ticks) implements AutoCloseable {
        /** Stops serving without giving anything back, as a crash would. */
        @Override
        public void close() {
            ticks.shutdownNow();
            server.close();
        }
    }

    static int run(Setup setup) throws Exception {
        try (Started started = start(setup, InstantSource.system())) {
            System.out.println(READY + started.instance() + " " + started.url());
            System.out.flush();
            started.runner().deploy(setup.deployTimeout());
            started.runner().awaitEnd(Duration.ofDays(3650));
            return started.runner().state() == FrameworkRunner.State.FAILED ? 1 : 0;
        }
    }

    /** Serves the RPC, registers the instance and starts the ticks; the caller then calls {@code deploy}. */
    public static Started start(Setup setup, InstantSource clock) throws IOException {
        String token = secret();
        // the instance's entities call the runner from their nodes: it listens on the grid's address
        Optional<String> gridHost = GridConfig.load(setup.gridFile()).hostAddress();
        InetAddress bind = gridHost.isPresent() ? InetAddress.getByName(gridHost.get()) : InetAddress.getLoopbackAddress();
        JsonHttpServer server = new JsonHttpServer(new InetSocketAddress(bind, setup.port()), 8);
        URI url = URI.create("http://" + gridHost.orElse("127.0.0.1") + ":" + server.port());
        int workers = setup.jdf().components().stream().filter(c -> Entities.WORKER.equals(c.role()))
                .mapToInt(c -> c.count()).sum();
        SiteSettings settings = new SiteSettings(setup.gridFile(),
                SettingsLayer.parse(setup.jdf().framework()).withInitialWorkers(workers));
        FrameworkRunner runner = new FrameworkRunner(clock, setup.jdf(), new Schedd(new SchedulerClient(setup.scheduler())),
                new Deployd(setup.jdf(), url.toString(), token, secret()), settings, setup.runnerGone(),
                GridConfig.load(setup.gridFile()).seconds("scheduler.nodeGiveUp", Duration.ofSeconds(300)));
        new RunnerApi(runner, token, clock).routes(server);
        server.start();
        long instance = runner.open(setup.jdfText(), url.toString());
        writeState(setup.stateDir(), instance, url, token);
        ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "runner-tick");
            t.setDaemon(true);
            return t;
        });
        ticks.scheduleWithFixedDelay(() -> {
            try {
                runner.tick();
            } catch (RuntimeException e) {
                LOG.warn("instance {}: tick failed, next one in 1 s: {}", instance, e.toString());
            }
        }, 1, 1, TimeUnit.SECONDS);
        return new Started(instance, url, token, runner, server, ticks);
    }

    private static String secret() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static void writeState(Path dir, long instance, URI url, String token) throws IOException {
        Path file = dir.resolve("runner-" + instance + ".json");
        Files.createDirectories(dir);
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("instance", instance);
        state.put("url", url.toString());
        state.put("token", token);
        state.put("pid", ProcessHandle.current().pid());
        Files.writeString(file, Json.write(state));
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i], args[i + 1]);
        }
        return options;
    }

    private static String required(Map<String, String> options, String name) {
        String value = options.get(name);
        if (value == null) {
            throw new IllegalArgumentException("missing " + name);
        }
        return value;
    }
}
