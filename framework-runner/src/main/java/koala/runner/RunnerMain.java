package koala.runner;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import koala.api.scheduler.SchedulerClient;
import koala.common.time.Poll;
import koala.grid.GridConfig;
import koala.http.JsonHttpServer;
import koala.jdf.ClusterCatalog;
import koala.jdf.JdfParser;
import koala.jdf.JobDescription;
import koala.process.JavaCommand;
import koala.provisioning.PolicyKind;
import koala.provisioning.SettingsLayer;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A framework runner process, one per instance: {@code RunnerMain --scheduler URL --jdf FILE
 * --config GRID [--port N] [--state DIR] [--runner-gone S] [--deploy-timeout S] [--as USER]}
 * ({@code --as}: an admin's runner, acting for the instance's owner). It prints
 * {@code READY <instance> <rpc url>} once the instance is registered, keeps its durable state in
 * {@code runner-ID.json} in the state directory (url, token, pid and all it knows of the instance;
 * readable only by its owner; see {@link RunnerState}), deploys the instance and runs until the
 * instance ends (its master is lost, or its allocation is cancelled).
 *
 * <p>{@code RunnerMain --adopt STATE_FILE [--generation N] [--url URL]} starts a runner again in the
 * place of one that died, as the scheduler's supervisor does: it takes over the instance from the
 * state file, on the same address and port with the same token, so that the instance's launchers,
 * entities and framework carry on. It prints the same {@code READY} line once it serves. The
 * supervisor gives it its generation ({@code koala.api.scheduler.RunnerGeneration}, recorded in the
 * scheduler's store before the start), and, for a runner of another host that it replaces on its own,
 * the address on this host it is to serve at.
 *
 * <p>A runner that learns that another was started in its place (the scheduler refuses its call, or
 * its state file is a later runner's) stops at once and exits with status {@value #REPLACED}, ending
 * nothing and giving nothing back.
 */
public final class RunnerMain {
    public static final String READY = "READY ";
    /** The exit status of a runner another was started in the place of (as a scheduler that stepped down). */
    public static final int REPLACED = 3;
    private static final Logger LOG = LogManager.getLogger(RunnerMain.class);

    private RunnerMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        if (options.containsKey("--train")) {
            System.exit(train(Path.of(options.get("--train"))));
        }
        if (options.containsKey("--adopt")) {
            System.exit(adopt(Path.of(options.get("--adopt")), Optional.ofNullable(options.get("--generation"))
                    .map(Long::parseLong), Optional.ofNullable(options.get("--url")).map(URI::create)));
        }
        Path jdfFile = Path.of(required(options, "--jdf"));
        GridConfig grid = GridConfig.load(Path.of(required(options, "--config")));
        String text = Files.readString(jdfFile);
        JobDescription jdf = JdfParser.parse(jdfFile.toString(), text, new ClusterCatalog(grid.nodeCounts()),
                PolicyKind.shortNames());
        System.exit(run(new Setup(jdf, text, grid.file(), URI.create(required(options, "--scheduler")),
                Integer.parseInt(options.getOrDefault("--port", "0")),
                Path.of(options.getOrDefault("--state", System.getProperty("java.io.tmpdir"))),
                Duration.ofSeconds(Long.parseLong(options.getOrDefault("--runner-gone", "120"))),
                Duration.ofSeconds(Long.parseLong(options.getOrDefault("--deploy-timeout", "180"))), true,
                options.get("--as"))));
    }

    /**
     * What one runner needs.
     *
     * @param supervised whether the scheduler restarts this runner should it die (a runner process of its
     *                   own); not one inside another program, such as a test's
     * @param actingFor  the user an admin's runner acts for ({@code --as}), who owns the instance; null: the
     *                   runner's own user
     */
    public record Setup(JobDescription jdf, String jdfText, Path gridFile, URI scheduler, int port, Path stateDir,
                        Duration runnerGone, Duration deployTimeout, boolean supervised, String actingFor) {
        public Setup(JobDescription jdf, String jdfText, Path gridFile, URI scheduler, int port, Path stateDir,
                     Duration runnerGone, Duration deployTimeout) {
            this(jdf, jdfText, gridFile, scheduler, port, stateDir, runnerGone, deployTimeout, false, null);
        }

        /** The same, acting for {@code user} (see {@code actingFor}). */
        public Setup actingFor(String user) {
            return new Setup(jdf, jdfText, gridFile, scheduler, port, stateDir, runnerGone, deployTimeout, supervised,
                    user);
        }
    }

    /** A started runner: its instance id, RPC address, and the runner itself (ticking on its loop). */
    public record Started(long instance, URI url, FrameworkRunner runner, JsonHttpServer server)
            implements AutoCloseable {
        /** The instance's token in force (the runner replaces it when a node is lost or a foreign node used it). */
        public String token() {
            return runner.token();
        }

        /** Stops serving without giving anything back, as a crash would. */
        @Override
        public void close() {
            server.close();
            runner.close();
        }
    }

    static int run(Setup setup) throws Exception {
        try (Started started = start(setup, InstantSource.system())) {
            System.out.println(READY + started.instance() + " " + started.url());
            System.out.flush();
            started.runner().deploy(setup.deployTimeout());
            started.runner().awaitEnd(Duration.ofDays(3650));
            return exitStatus(started.runner());
        }
    }

    /** 1 for an instance that failed; {@link #REPLACED} for a runner another took the place of, said in its log. */
    private static int exitStatus(FrameworkRunner runner) {
        if (runner.replacedBy().isPresent()) {
            LOG.warn("this runner stops, ending nothing and giving nothing back: {}", runner.replacedBy().get());
            return REPLACED;
        }
        return runner.state() == FrameworkRunner.State.FAILED ? 1 : 0;
    }

    /**
     * Keeps the runner's state in {@code file} on every change: never over a later runner's, which means this
     * one was replaced and stops.
     */
    private static void journal(FrameworkRunner runner, RunnerStateFile file, RunnerState state) {
        if (!file.write(state)) {
            runner.replaced("its state file " + file.path() + " is a later runner's (generation " + file.generation()
                    + "; this one is of generation " + state.generation() + ")");
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
        RunnerState.Launch launch = new RunnerState.Launch(setup.scheduler().toString(), setup.jdf().source(),
                setup.jdfText(), setup.gridFile().toAbsolutePath().toString(), secret(), setup.runnerGone().toSeconds(),
                setup.deployTimeout().toSeconds(), JavaCommand.currentJava().toString(),
                System.getProperty("java.class.path"), setup.actingFor());
        FrameworkRunner runner = runner(setup.jdf(), launch, url, token, clock, koala.api.scheduler.RunnerGeneration.FIRST);
        new RunnerApi(runner, clock).routes(server);
        server.start();
        // a directory made here is its owner's alone: the state holds the instance's token
        Files.createDirectories(setup.stateDir(), java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        long instance = runner.open(setup.jdfText(), url.toString(), id -> setup.supervised()
                ? RunnerStateFile.of(setup.stateDir(), id).path().toAbsolutePath().toString() : null);
        RunnerStateFile file = RunnerStateFile.of(setup.stateDir(), instance);
        runner.journal(book -> journal(runner, file, new RunnerState(instance, url.toString(), book.keys().token(),
                ProcessHandle.current().pid(), launch, book, koala.api.scheduler.RunnerGeneration.FIRST)));
        runner.start();
        return new Started(instance, url, runner, server);
    }

    /**
     * The runner of {@code jdf}, with what {@code launch} keeps of its settings and secrets: on a loop
     * thread of its own, calling the scheduler off it.
     */
    private static FrameworkRunner runner(JobDescription jdf, RunnerState.Launch launch, URI url, String token,
                                          InstantSource clock, long generation) {
        Path grid = Path.of(launch.gridFile());
        int workers = jdf.components().stream().filter(c -> Entities.WORKER.equals(c.role()))
                .mapToInt(c -> c.count()).sum();
        SiteSettings settings = new SiteSettings(grid, SettingsLayer.parse(jdf.framework()).withInitialWorkers(workers));
        RunnerLoop loop = RunnerLoop.threaded("runner-loop");
        SchedulerCalls calls = SchedulerCalls.threaded(new HttpSchedd(new SchedulerClient(URI.create(
                launch.scheduler())).actingFor(launch.actingFor()), generation), loop);
        return new FrameworkRunner(clock, jdf, loop, calls,
                new Deployd(jdf, url.toString(), token, launch.deviceToken()), settings,
                Duration.ofSeconds(launch.runnerGoneSeconds()),
                GridConfig.load(grid).seconds("scheduler.nodeGiveUp", Duration.ofSeconds(300)));
    }

    /**
     * Starts a runner again from the state its predecessor kept in {@code file}: the same instance,
     * address, port and token. The port may still be held for a moment by the kernel after the old
     * process died: binding is tried again for a few seconds.
     */
    public static Started adopt(Path path, InstantSource clock) throws IOException {
        return adopt(path, clock, Optional.empty(), Optional.empty());
    }

    /**
     * The same, as the runner of {@code generation} (empty: the state's), serving at {@code at} (empty: the
     * state's address): a runner started on this host in the place of one of another host listens here.
     */
    public static Started adopt(Path path, InstantSource clock, Optional<Long> generation, Optional<URI> at)
            throws IOException {
        RunnerStateFile file = new RunnerStateFile(path);
        RunnerState kept = file.read();
        RunnerState.Launch launch = kept.launch();
        GridConfig grid = GridConfig.load(Path.of(launch.gridFile()));
        JobDescription jdf = JdfParser.parse(launch.jdfFile(), launch.jdfText(), new ClusterCatalog(grid.nodeCounts()),
                PolicyKind.shortNames());
        URI url = at.orElse(URI.create(kept.url()));
        long mine = generation.orElse(kept.generation());
        FrameworkRunner runner = runner(jdf, launch, url, kept.token(), clock, mine);
        boolean moved = !url.toString().equals(kept.url());
        runner.adopt(kept.instance(), kept.book(), "pid " + ProcessHandle.current().pid() + " in the place of pid "
                + kept.pid() + (mine == kept.generation() ? "" : ", generation " + mine + " after " + kept.generation())
                + (moved ? ", at " + url + " (it was at " + kept.url() + ")" : ""), moved);
        JsonHttpServer server = bindAgain(new InetSocketAddress(InetAddress.getByName(url.getHost()), url.getPort()),
                clock);
        new RunnerApi(runner, clock).routes(server);
        server.start();
        runner.journal(book -> journal(runner, file, new RunnerState(kept.instance(), url.toString(), book.keys().token(),
                ProcessHandle.current().pid(), launch, book, mine)));
        runner.start();
        return new Started(kept.instance(), url, runner, server);
    }

    static int adopt(Path file, Optional<Long> generation, Optional<URI> at) throws Exception {
        RunnerState.Launch launch = new RunnerStateFile(file).read().launch();
        try (Started started = adopt(file, InstantSource.system(), generation, at)) {
            System.out.println(READY + started.instance() + " " + started.url());
            System.out.flush();
            if (started.runner().state() == FrameworkRunner.State.DEPLOYING) {
                started.runner().deploy(Duration.ofSeconds(launch.deployTimeoutSeconds()));
            }
            started.runner().awaitEnd(Duration.ofDays(3650));
            return exitStatus(started.runner());
        }
    }

    /**
     * The class archive's training run ({@code --train GRID}): what a runner started again loads
     * before it serves — the JDF, the grid configuration, the state file, the RPC server and a call
     * to it — on a loopback port, with no scheduler; then it exits.
     */
    static int train(Path gridFile) throws Exception {
        String text = "+( &(jobType = framework)(name = train)(role = master)(count = 1)(executable = /bin/true)"
                + "(provisioning = ondemand) ) ( &(role = orchestrator)(count = 1)(executable = /bin/true) )"
                + " ( &(role = worker)(count = 1)(executable = /bin/true) )";
        GridConfig grid = GridConfig.load(gridFile);
        JobDescription jdf = JdfParser.parse("train.jdf", text, new ClusterCatalog(grid.nodeCounts()),
                PolicyKind.shortNames());
        Path dir = Files.createTempDirectory("koala-runner-train-");
        try (JsonHttpServer server = new JsonHttpServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8)) {
            URI url = URI.create("http://127.0.0.1:" + server.port());
            RunnerState.Launch launch = new RunnerState.Launch("http://127.0.0.1:1", "train.jdf", text,
                    gridFile.toString(), secret(), 120, 180, JavaCommand.currentJava().toString(), "", null);
            try (FrameworkRunner runner = runner(jdf, launch, url, "train", InstantSource.system(), 0)) {
                new RunnerApi(runner, InstantSource.system()).routes(server);
                server.start();
                RunnerStateFile file = RunnerStateFile.of(dir, 0);
                runner.journal(book -> file.write(new RunnerState(0, url.toString(), "train", 0, launch, book, 0)));
                file.read();
                new koala.api.runner.RunnerClient(url, "train").status();
                koala.http.JsonHttpClient.shortLived(url, Duration.ofSeconds(5)).get("/health",
                        koala.api.runner.RunnerMessages.Health.class);
                LOG.info("training run done");
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
        return 0;
    }

    private static JsonHttpServer bindAgain(InetSocketAddress address, InstantSource clock) throws IOException {
        IOException[] last = new IOException[1];
        JsonHttpServer[] bound = new JsonHttpServer[1];
        new Poll(clock, Duration.ofMillis(100)).until(() -> {
            try {
                bound[0] = new JsonHttpServer(address, 8);
                return true;
            } catch (IOException e) {
                last[0] = e;
                return false;
            }
        }, Duration.ofSeconds(10));
        if (bound[0] == null) {
            throw new IOException("cannot listen on " + address + " again: " + last[0].getMessage(), last[0]);
        }
        return bound[0];
    }

    private static String secret() {
        return InstanceSecrets.fresh();
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
