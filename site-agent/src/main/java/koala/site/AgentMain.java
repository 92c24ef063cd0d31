package koala.site;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import koala.api.site.AgentSecret;
import koala.api.site.AgentState;
import koala.grid.ConfigException;
import koala.grid.GridConfig;
import koala.grid.SiteConfig;
import koala.http.JsonHttpServer;
import koala.process.AgentProcess;
import koala.resourcemanager.ResourceManager;
import koala.sge.SgeResourceManager;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * Entry point of a site agent process: {@code --config FILE --site NAME [--port N] [--state-file F]
 * [--idle-exit SECONDS] [--relay-host HOST]}, with its secret as the first line of standard input (never an argument:
 * command lines are public on a machine). The process must have been started with the cell's
 * environment ({@code SGE_ROOT}, {@code SGE_CELL}, ports) and with libdrmaa loadable (the site's
 * resource manager is SGE's, {@link SgeResourceManager}: the one KOALA has today);
 * {@code bin/koala agent} and the scheduler do that. Prints {@code READY <url>} once it serves.
 * Exits 2 on bad arguments, configuration or secret, 75 when its connection to the manager is wedged (the
 * supervisor restarts it), 0 after {@code --idle-exit} seconds without a request from its scheduler.
 *
 * <p>An agent on a remote head node is started detached from the SSH session: it writes
 * {@code agent PORT PID SECRET} to its state file once it serves (and takes the line out when it
 * stops), so that a scheduler that reconnects finds and re-attaches to it instead of starting a
 * second one. With {@code --relay-host} (a remote site's agent) it runs {@link Relays} there for the
 * pilots' call-backs, re-opened from the state file on start.
 */
public final class AgentMain {
    public static final int EXIT_WEDGED = 75;
    /** Probe every 2 s; DOWN when a probe has not answered within 10 s; a DRMAA call stuck for 60 s is a wedge. */
    // a qstat of a loaded head node can take seconds: 10 s without an answer is a stall, not a slow moment
    static final SiteAgent.Timing TIMING = new SiteAgent.Timing(Duration.ofSeconds(2), Duration.ofSeconds(10),
            Duration.ofSeconds(60));
    /**
     * Threads serving requests: long polls and DRMAA calls stuck in a stall hold theirs, and
     * {@code /health} must still find one free.
     */
    private static final int HTTP_THREADS = 32;
    /** The most connections relayed at once, over all relays: each holds two threads. */
    static final int RELAYED_CONNECTIONS = 256;
    private static final Duration RELAY_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Logger LOG = LogManager.getLogger(AgentMain.class);

    private AgentMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        Options options;
        SiteConfig site;
        AgentSecret secret;
        try {
            options = Options.parse(List.of(args));
            secret = readSecret(System.in);
            // the account the agent runs as is the one its pilots run as: the site's, or a user's own
            site = GridConfig.load(options.config()).site(options.site()).withAgentUser(System.getProperty("user.name"));
            checkEnvironment(site);
            options.relayHost().ifPresent(AgentMain::resolve);
        } catch (IllegalArgumentException | ConfigException e) {
            System.err.println("koala agent: " + e.getMessage());
            System.exit(2);
            return;
        }
        run(site, options, secret);
    }

    /** The first line of standard input; the scheduler (or {@code bin/koala agent}) writes it there and closes it. */
    static AgentSecret readSecret(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        // byte by byte, up to the newline: nothing else is read from the input, and a stray stream is not read for ever
        for (int b = in.read(); b >= 0 && b != '\n' && line.size() < 200; b = in.read()) {
            line.write(b);
        }
        try {
            return AgentSecret.of(line.toString(StandardCharsets.US_ASCII));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("expected the agent's secret as the first line of standard input"
                    + " (the scheduler and bin/koala agent give it there): " + e.getMessage());
        }
    }

    /** The site's resource manager: its Slurm cluster ({@code site.S.manager = slurm}) or its SGE cell. */
    static ResourceManager manager(SiteConfig site) {
        return site.slurm().<ResourceManager>map(slurm -> koala.slurm.SlurmResourceManager.of(slurm.binDir(), slurm.conf(),
                        site.agentUser(), Duration.ofSeconds(20), TIMING.probeTimeout(), InstantSource.system()))
                .orElseGet(() -> SgeResourceManager.of(site, Duration.ofSeconds(20), TIMING.probeTimeout(),
                        InstantSource.system()));
    }

    static void run(SiteConfig site, Options options, AgentSecret secret) throws IOException, InterruptedException {
        SiteAgent.Threads threads = new SiteAgent.Threads(Executors.newSingleThreadScheduledExecutor(daemon("health")),
                Executors.newSingleThreadExecutor(daemon("probe")), Executors.newSingleThreadExecutor(daemon("drmaa-session")),
                Executors.newSingleThreadExecutor(daemon("reaper")));
        ResourceManager manager = manager(site);
        SiteAgent agent = new SiteAgent(site, manager, InstantSource.system(), threads, TIMING,
                () -> Runtime.getRuntime().halt(EXIT_WEDGED));
        CallerCheck check = new CallerCheck(secret);
        Optional<AgentStateFile> state = options.stateFile().map(AgentStateFile::new);
        Optional<Relays> relays = options.relayHost().map(host -> relays(host, state));
        relays.ifPresent(Relays::restore);
        JsonHttpServer server = new JsonHttpServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), options.port()),
                HTTP_THREADS);
        AgentApi.register(server, check, agent, relays);
        server.start();
        agent.start();
        CountDownLatch stopped = new CountDownLatch(1);
        long pid = ProcessHandle.current().pid();
        state.ifPresent(f -> f.update(s -> s.serving(new AgentState.Serving(server.port(), pid, secret))));
        options.idleExit().ifPresent(limit -> exitWhenIdle(check, site, new IdleExit(InstantSource.system(), limit)));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("agent for site {} stopping", site.name());
            state.ifPresent(f -> f.stopped(pid));
            relays.ifPresent(Relays::close);
            server.close();
            agent.close();
            stopped.countDown();
        }));
        String url = "http://127.0.0.1:" + server.port();
        LOG.info("agent for site {} (cell {}, qmaster port {}) serving on {}", site.name(), site.cell().cell(),
                site.cell().qmasterPort(), url);
        System.out.println(AgentProcess.READY + url);
        System.out.flush();
        stopped.await();
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalArgumentException("--relay-host " + host + ": unknown here (" + e.getMessage() + ")");
        }
    }

    private static Relays relays(String host, Optional<AgentStateFile> state) {
        return new Relays(host, resolve(host), state, RELAYED_CONNECTIONS, Executors.newCachedThreadPool(daemon("relay")),
                RELAY_CONNECT_TIMEOUT);
    }

    /** Checks every tenth of the limit (at most every 30 s) whether the scheduler still calls. */
    private static void exitWhenIdle(CallerCheck check, SiteConfig site, IdleExit idle) {
        long every = Math.max(1, Math.min(30_000, idle.limit().toMillis() / 10));
        Executors.newSingleThreadScheduledExecutor(daemon("idle-exit")).scheduleWithFixedDelay(() -> {
            if (idle.idle(check.admitted())) {
                LOG.warn("agent for site {}: no request for {} s, the scheduler is gone; stopping", site.name(),
                        idle.limit().toSeconds());
                System.exit(0);
            }
        }, every, every, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /**
     * DRMAA binds to the cell named by the environment; a mismatch would submit to the wrong cluster. A Slurm
     * site's commands are given their cluster's configuration on every call, whatever the environment says.
     */
    private static void checkEnvironment(SiteConfig site) {
        if (site.slurm().isPresent()) {
            return;
        }
        site.cell().variables().forEach((name, expected) -> {
            String actual = System.getenv(name);
            if (!expected.equals(actual)) {
                throw new IllegalArgumentException("environment " + name + "=" + actual + " but site " + site.name()
                        + " needs " + expected + " (start agents with bin/koala agent --site " + site.name() + ")");
            }
        });
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    record Options(Path config, String site, int port, Optional<Path> stateFile, Optional<Duration> idleExit,
                   Optional<String> relayHost) {
        static Options parse(List<String> args) {
            Path config = null;
            String site = null;
            int port = 0;
            Path stateFile = null;
            Duration idleExit = null;
            String relayHost = null;
            for (int i = 0; i < args.size(); i++) {
                String value = i + 1 < args.size() ? args.get(i + 1) : null;
                switch (args.get(i)) {
                    case "--config" -> config = Path.of(required("--config", value));
                    case "--site" -> site = required("--site", value);
                    case "--port" -> port = Integer.parseInt(required("--port", value));
                    case "--state-file" -> stateFile = Path.of(required("--state-file", value));
                    case "--idle-exit" -> idleExit = Duration.ofSeconds(Long.parseLong(required("--idle-exit", value)));
                    case "--relay-host" -> relayHost = required("--relay-host", value);
                    default -> throw new IllegalArgumentException("unknown option " + args.get(i));
                }
                i++;
            }
            if (config == null || site == null) {
                throw new IllegalArgumentException("usage: AgentMain --config FILE --site NAME [--port N] "
                        + "[--state-file FILE] [--idle-exit SECONDS] [--relay-host HOST] < SECRET");
            }
            return new Options(config, site, port, Optional.ofNullable(stateFile),
                    Optional.ofNullable(idleExit).filter(d -> !d.isZero()), Optional.ofNullable(relayHost));
        }

        private static String required(String option, String value) {
            if (value == null) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return value;
        }
    }
}
