package koala.scheduler.remote;

import com.jcraft.jsch.JSchException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import koala.common.grid.SiteConfig;
import koala.common.grid.SshConfig;
import koala.common.http.ApiException;
import koala.common.site.AgentSecret;
import koala.common.site.SiteAgentClient;
import koala.common.time.Poll;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A remote site, kept reachable: an SSH connection to its head node, its agent there (re-attached
 * if one runs, started otherwise), a local forward to the agent's port and a remote forward of the
 * scheduler's port for the pilots' call-backs. A watch checks every second: a dropped connection
 * marks the site down (its nodes are kept: their pilots run on in SGE) and is made again with
 * backoff ({@link Link}); a dead agent is started again. The remote forwards ask for the same ports
 * each time, so launchers that lost the scheduler (or their runner) during an outage find it again.
 */
public final class RemoteSite implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(RemoteSite.class);
    private static final Duration AGENT_CHECK = Duration.ofSeconds(5);
    private static final int CHECKS_BEFORE_LOST = 3;

    /** What a pilot on this site runs: the head node's Java, the jars there, the call-back address. */
    public record Launcher(String java, List<String> classpath, String schedulerUrl, String logDir) {
    }

    private record Attached(HeadNodeSession session, RemoteAgent agent, RemoteAgent.Running running, int localPort,
                            Launcher launcher) {
    }

    private final SiteConfig site;
    private final SshConfig ssh;
    private final int schedulerPort;
    private final List<Path> classpath;
    private final InstantSource clock;
    private final Consumer<SiteAgentClient> onAgent;
    private final ScheduledExecutorService timer;
    private int failedChecks;
    private volatile Link link = Link.initial();
    private volatile Attached attached;
    private volatile boolean closed;
    /** Ports of this machine (the scheduler's, runners') forwarded from the head node: local -> head node. */
    private final Map<Integer, Integer> callbacks = new java.util.concurrent.ConcurrentHashMap<>();
    private java.time.Instant nextAgentCheck = java.time.Instant.EPOCH;

    /**
     * @param classpath the scheduler's class path, sent to the head node
     * @param onAgent   told the client of the agent each time it is (re)attached, at its new local port
     */
    public RemoteSite(SiteConfig site, int schedulerPort, List<Path> classpath, InstantSource clock,
                      ScheduledExecutorService timer, Consumer<SiteAgentClient> onAgent) {
        this.site = site;
        this.ssh = site.ssh().orElseThrow();
        this.schedulerPort = schedulerPort;
        this.classpath = List.copyOf(classpath);
        this.clock = clock;
        this.timer = timer;
        this.onAgent = onAgent;
    }

    /** Connects now (a failure is logged and shown as the site's reason), then keeps watching. */
    public void start() {
        tick();
        timer.scheduleWithFixedDelay(this::tick, 1, 1, TimeUnit.SECONDS);
    }

    public String name() {
        return site.name();
    }

    /** Why the site cannot be reached now; empty while the link is up. */
    public Optional<String> down() {
        Link l = link;
        Attached a = attached;
        if (l.up() && a != null && !a.session().connected()) {
            return Optional.of(lostReason() + "; reconnecting"); // noticed by JSch before the watch's next round
        }
        return l.up() ? Optional.empty() : Optional.of(l.reason() + (l.nextTry().isAfter(java.time.Instant.EPOCH)
                ? "; next try at " + l.nextTry().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) : ""));
    }

    /** How pilots run on this site; a 503 while the site is not reachable. */
    public Launcher launcher() {
        Attached a = attached;
        if (a == null || !link.up()) {
            throw new ApiException(503, "site " + site.name() + " is not reachable: " + down().orElse(""));
        }
        return a.launcher();
    }

    synchronized void tick() {
        if (closed) {
            return;
        }
        // JSch's disconnect of a dropped session can leave the calling thread's interrupt flag set, and
        // every later wait of this thread would then end at once; only close() stops this watch
        Thread.interrupted();
        try {
            Attached a = attached;
            if (a != null && a.session().connected()) {
                try {
                    checkAgent(a);
                    failedChecks = 0;
                } catch (SshFailure | IllegalStateException | ApiException e) {
                    // a command refused on a live connection (e.g. "channel is not opened" under load) is
                    // tried again at the next check; only repeated failures take the site down
                    if (++failedChecks >= CHECKS_BEFORE_LOST || !a.session().connected()) {
                        failedChecks = 0;
                        lost(a, e.getMessage());
                    } else {
                        LOG.warn("site {}: agent check failed ({}), trying again", site.name(), e.getMessage());
                        nextAgentCheck = clock.instant();
                    }
                }
                return;
            }
            if (a != null) {
                lost(a, lostReason());
            }
            if (link.due(clock.instant())) {
                connect();
            }
        } catch (RuntimeException e) {
            LOG.error("site {}: {}", site.name(), e.getMessage(), e);
        }
    }

    private String lostReason() {
        return "SSH connection to " + ssh.address() + " lost";
    }

    private void lost(Attached a, String why) {
        LOG.warn("site {}: {}; its nodes are kept, reconnecting", site.name(), why);
        a.session().close();
        attached = null;
        link = link.lost(why, clock.instant());
    }

    private void connect() {
        HeadNodeSession session = null;
        try {
            session = HeadNodeSession.open(site, new Poll(clock, Duration.ofMillis(50)));
            RemoteAgent agent = RemoteAgent.probe(site, session);
            List<String> jars = agent.sync(RuntimeJars.of(classpath));
            RemoteAgent.Running running = agent.find(RemoteAgent.image(jars)).orElse(null);
            if (running != null) {
                LOG.info("site {}: re-attaching to the agent on {} (pid {})", site.name(), ssh.host(), running.pid());
            } else {
                running = agent.start(jars, AgentSecret.random());
            }
            int callback = forwardCallbacks(session, agent);
            Launcher launcher = new Launcher(agent.head().java(), jars, "http://127.0.0.1:" + callback,
                    agent.file("pilots"));
            attach(new Attached(session, agent, running, 0, launcher), jars);
        } catch (SshFailure | IllegalStateException | ApiException e) {
            if (session != null) {
                session.close();
            }
            link = link.failed(e.getMessage(), clock.instant());
            LOG.error("{} (try {}; next at {})", e.getMessage(), link.failures(), link.nextTry());
        }
    }

    /** Forwards to the agent's port, checks that it answers, and makes it the site's agent. */
    private void attach(Attached a, List<String> jars) {
        int local = a.session().forwardLocal(a.running().port());
        SiteAgentClient client = new SiteAgentClient(URI.create("http://127.0.0.1:" + local), a.running().secret());
        RemoteAgent.Running running = a.running();
        if (!answers(client)) {
            LOG.warn("site {}: the agent on {} (pid {}) does not answer; starting another", site.name(), ssh.host(),
                    running.pid());
            a.session().unforwardLocal(local);
            a.agent().stop(running.pid());
            running = a.agent().start(jars, AgentSecret.random());
            local = a.session().forwardLocal(running.port());
            client = new SiteAgentClient(URI.create("http://127.0.0.1:" + local), running.secret());
            if (!answers(client)) {
                throw new IllegalStateException("site " + site.name() + ": the agent on " + ssh.host()
                        + " does not answer through the SSH forward");
            }
        }
        attached = new Attached(a.session(), a.agent(), running, local, a.launcher());
        link = link.connected();
        onAgent.accept(client);
        LOG.info("site {}: agent on {} reached at {}; pilots call back on {}", site.name(), ssh.address(),
                client.base(), a.launcher().schedulerUrl());
    }

    private boolean answers(SiteAgentClient client) {
        // JSch may leave this thread's interrupt flag set while it connects, and the poll would then
        // give up at once: the agent would be taken for dead and a second one started
        Thread.interrupted();
        return new Poll(clock, Duration.ofMillis(200)).until(() -> {
            try {
                client.health();
                return true;
            } catch (ApiException e) {
                return false;
            }
        }, Duration.ofSeconds(10));
    }

    /**
     * The head node's port that reaches this scheduler: the one granted before if it is free (the
     * pilots running there were told it), any other otherwise. Runners' ports forwarded before are
     * asked for again too.
     */
    private int forwardCallbacks(HeadNodeSession session, RemoteAgent agent) {
        int wanted = callbacks.getOrDefault(schedulerPort, agent.callbackPort().orElse(0));
        int granted = forwardBack(session, schedulerPort, wanted);
        if (granted != wanted) {
            agent.rememberCallbackPort(granted);
        }
        for (Map.Entry<Integer, Integer> runner : Map.copyOf(callbacks).entrySet()) {
            if (runner.getKey() != schedulerPort) {
                forwardBack(session, runner.getKey(), runner.getValue());
            }
        }
        return granted;
    }

    /** Forwards a head-node port to {@code localPort} here: {@code wanted} if free, any otherwise. */
    private int forwardBack(HeadNodeSession session, int localPort, int wanted) {
        try {
            callbacks.put(localPort, session.forwardRemote(wanted, localPort));
        } catch (JSchException e) {
            LOG.warn("site {}: port {} on {} is taken; launchers told it before cannot call back to port {}",
                    site.name(), wanted, ssh.host(), localPort);
            try {
                callbacks.put(localPort, session.forwardRemote(0, localPort));
            } catch (JSchException again) {
                throw new SshFailure("site " + site.name() + ": " + ssh.host() + " refuses to forward a port back to "
                        + "this machine (AllowTcpForwarding?): " + again.getMessage(), again);
            }
        }
        return callbacks.get(localPort);
    }

    /**
     * A URL on this machine's loopback (a framework runner's RPC) as the site's nodes reach it: the
     * same path on a head-node port forwarded here. Any other URL, or while the site is down, as it is.
     */
    public String reachable(String url) {
        URI uri = URI.create(url);
        Attached a = attached;
        if (a == null || !List.of("127.0.0.1", "localhost").contains(uri.getHost()) || uri.getPort() < 0) {
            return url;
        }
        try {
            int port = callbacks.containsKey(uri.getPort()) ? callbacks.get(uri.getPort())
                    : forwardBack(a.session(), uri.getPort(), 0);
            return url.replaceFirst("//[^/]+", "//127.0.0.1:" + port);
        } catch (SshFailure e) {
            LOG.warn("{}", e.getMessage());
            return url;
        }
    }

    /** Every few seconds: is the agent's process still there? One that died is started again. */
    private void checkAgent(Attached a) {
        if (clock.instant().isBefore(nextAgentCheck)) {
            return;
        }
        nextAgentCheck = clock.instant().plus(AGENT_CHECK);
        if (!a.agent().alive(a.running().pid())) {
            LOG.warn("site {}: the agent on {} (pid {}) is gone; starting a new one", site.name(), ssh.host(),
                    a.running().pid());
            a.session().unforwardLocal(a.localPort());
            List<String> jars = a.launcher().classpath();
            attach(new Attached(a.session(), a.agent(), a.agent().start(jars, AgentSecret.random()), 0, a.launcher()), jars);
        }
    }

    /** Stops the watch and the agent on the head node, and closes the connection. */
    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        synchronized (this) {
            stopAgent();
        }
    }

    private void stopAgent() {
        Attached a = attached;
        if (a != null) {
            try {
                a.agent().stop(a.running().pid());
            } catch (RuntimeException e) {
                LOG.warn("site {}: could not stop the agent on {}: {}", site.name(), ssh.host(), e.getMessage());
            }
            a.session().close();
        }
    }
}
