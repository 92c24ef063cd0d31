package koala.scheduler.remote;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import koala.api.site.AgentSecret;
import koala.api.site.SiteAgentClient;
import koala.common.failure.Unavailable;
import koala.common.time.Poll;
import koala.grid.SiteConfig;
import koala.grid.SshConfig;
import koala.http.ApiException;
import koala.process.ProcessClasspath;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A remote site, kept reachable: an SSH connection to its head node, its agent there (re-attached
 * if one runs, started otherwise), a local forward to the agent's port, and for each address on
 * the KOALA side that pilots call back to (the scheduler's, runners') an SSH remote forward to it
 * on the head node's loopback and a relay of the agent's on the head node's cluster-facing address
 * ({@code ssh.relayHost}) to that forward: compute nodes are other hosts and cannot reach the head
 * node's loopback. A watch checks every second: a dropped connection marks the site down (its
 * nodes are kept: their pilots run on in SGE) and is made again with backoff ({@link Link}); a dead
 * agent is started again. Forwards and relays ask for the same ports each time, so launchers that
 * lost the scheduler (or their runner) during an outage find it again at the address they were told.
 */
public final class RemoteSite implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(RemoteSite.class);
    private static final Duration AGENT_CHECK = Duration.ofSeconds(5);
    private static final int CHECKS_BEFORE_LOST = 3;

    /**
     * What a pilot on this site runs: the head node's Java, the launcher's jars there, the jars of
     * KOALA's programs there ({@code ${KOALA_CLASSPATH}}), the call-back address.
     */
    public record Launcher(String java, List<String> classpath, List<String> programs, String schedulerUrl,
                           String logDir) {
    }

    /** The jars on the head node, as each process there runs on them. */
    private record Jars(List<String> agent, List<String> launcher, List<String> programs) {
    }

    /** The agent reached through the local forward. */
    private record Reached(RemoteAgent.Running running, int localPort, SiteAgentClient client) {
    }

    private record Attached(HeadNodeSession session, RemoteAgent agent, Reached reached, String relayHost,
                            Jars jars, Launcher launcher) {
    }

    /** A connection made ahead, while the scheduler stood by: the session, the head node's probe, the jars there. */
    private record Ready(HeadNodeSession session, RemoteAgent agent, Jars jars) {
    }

    private final SiteConfig site;
    private final SshConfig ssh;
    private final CallBacks callBacks;
    private final List<Path> classpath;
    private final InstantSource clock;
    private final Consumer<SiteAgentClient> onAgent;
    private final ScheduledExecutorService timer;
    private int failedChecks;
    /** Runners' relays whose instances ended while the link was down: closed once it is up again. */
    private final java.util.Set<CallBacks.Callback> ended = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile Link link = Link.initial();
    private volatile Attached attached;
    /** Made by {@link #prepare}, taken by the first connection; on the timer's thread only. */
    private Ready ready;
    private volatile boolean closed;
    private java.time.Instant nextAgentCheck = java.time.Instant.EPOCH;

    /**
     * @param koalaHost     the name or address this machine advertises to others for itself and its
     *                      runners (e.g. {@code koala-host}); URLs on it, or on loopback, are relayed
     * @param schedulerPort the scheduler's port on {@code koalaHost}, where the site's pilots call back
     * @param classpath     the scheduler's class path: what the agent, the pilots and KOALA's programs
     *                      run on of it is sent to the head node, on each connection
     * @param onAgent       told the client of the agent each time it is (re)attached, at its new local port
     */
    public RemoteSite(SiteConfig site, String koalaHost, int schedulerPort, List<Path> classpath, InstantSource clock,
                      ScheduledExecutorService timer, Consumer<SiteAgentClient> onAgent) {
        this(site, koalaHost, java.util.Set.of(), schedulerPort, classpath, clock, timer, onAgent);
    }

    /** @param schedulerHosts the hosts of the grid's other schedulers, whose runners are relayed too */
    public RemoteSite(SiteConfig site, String koalaHost, java.util.Set<String> schedulerHosts, int schedulerPort,
                      List<Path> classpath, InstantSource clock, ScheduledExecutorService timer,
                      Consumer<SiteAgentClient> onAgent) {
        this.site = site;
        this.ssh = site.ssh().orElseThrow();
        this.callBacks = new CallBacks(site, koalaHost, schedulerHosts, schedulerPort);
        this.classpath = List.copyOf(classpath);
        this.clock = clock;
        this.timer = timer;
        this.onAgent = onAgent;
    }

    /**
     * Connects to the head node ahead, on the site's own thread, without waiting: the SSH connection, the head
     * node's check and the jars sent (under names of their own: nothing running there is touched), kept for the
     * first connection {@link #start} makes. What a standby does, so that taking over costs it only the agent's
     * re-attachment (the connection and the jars' check took about 1 s of a take-over). A failure is only
     * logged: the connection is made again when the scheduler starts.
     */
    public void prepare() {
        timer.submit(() -> {
            Thread.interrupted(); // as in tick: JSch may leave it set
            try {
                ready = ready();
            } catch (SshFailure | IllegalStateException | ApiException e) {
                LOG.warn("site {}: no connection made ahead ({}); it is made when this scheduler leads", site.name(),
                        e.getMessage());
            }
        });
    }

    /** The SSH connection, the head node's check and the jars there; the connection is closed when a step fails. */
    private Ready ready() {
        HeadNodeSession session = HeadNodeSession.open(site, new Poll(clock, Duration.ofMillis(50)));
        try {
            RemoteAgent agent = RemoteAgent.probe(site, session);
            List<Path> shipped = shipped();
            return new Ready(session, agent, jarsThere(shipped, agent.sync(RuntimeJars.of(shipped))));
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /** Connects now (a failure is logged and shown as the site's reason), then keeps watching. */
    public void start() {
        // the first connection is made on the site's own thread, not the caller's: JSch may leave the
        // interrupt flag of the thread it ran on set, which would break the caller's next blocking call
        java.util.concurrent.Future<?> first = timer.submit(this::tick);
        timer.scheduleWithFixedDelay(this::tick, 1, 1, TimeUnit.SECONDS);
        try {
            first.get(90, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            LOG.warn("site {}: no answer from {} within 90 s; trying on in the background", site.name(), ssh.address());
        } catch (java.util.concurrent.ExecutionException e) {
            LOG.error("site {}: {}", site.name(), e.getCause().getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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

    /** How pilots run on this site; {@link Unavailable} while the site is not reachable. */
    public Launcher launcher() {
        Attached a = attached;
        if (a == null || !link.up()) {
            throw new Unavailable("site " + site.name() + " is not reachable: " + down().orElse(""));
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
        Ready r = null;
        try {
            Ready ahead = takeReady();
            r = ahead != null ? ahead : ready();
            String relayHost = ssh.relayHost().orElse(r.agent().head().hostname());
            RemoteAgent.Running running = r.agent().find(RemoteAgent.image(r.jars().agent(), relayHost)).orElse(null);
            if (running != null) {
                LOG.info("site {}: re-attaching to the agent on {} (pid {})", site.name(), ssh.host(), running.pid());
            } else {
                running = r.agent().start(r.jars().agent(), AgentSecret.random(), relayHost);
            }
            attach(r.session(), r.agent(), reach(r.session(), r.agent(), running, r.jars(), relayHost), r.jars(), relayHost);
        } catch (SshFailure | IllegalStateException | ApiException e) {
            if (r != null) {
                r.session().close();
            }
            link = link.failed(e.getMessage(), clock.instant(), ssh.retryMax());
            LOG.error("{} (try {}; next at {})", e.getMessage(), link.failures(), link.nextTry());
        }
    }

    /** The connection made ahead, once, if it still holds; one that dropped meanwhile is closed. */
    private Ready takeReady() {
        Ready r = ready;
        ready = null;
        if (r != null && !r.session().connected()) {
            r.session().close();
            return null;
        }
        return r;
    }

    /**
     * What runs on the site, of the scheduler's class path: the agent's, the launcher's and KOALA's
     * programs' jars, less the DRMAA binding, which comes from the cluster's SGE installation. A class
     * path without them (a build that did not list them) fails the connection with the reason.
     */
    private List<Path> shipped() {
        return ProcessClasspath.union(List.of(ProcessClasspath.SITE_AGENT, ProcessClasspath.NODE_LAUNCHER,
                ProcessClasspath.PROGRAMS), classpath).stream().filter(p -> !RuntimeJars.isDrmaa(p)).toList();
    }

    /** Each process's jars on the head node, from their paths there in the order of {@code shipped}. */
    private Jars jarsThere(List<Path> shipped, List<String> there) {
        java.util.function.Function<String, List<String>> of = module -> ProcessClasspath.of(module, shipped).stream()
                .map(p -> there.get(shipped.indexOf(p))).toList();
        return new Jars(of.apply(ProcessClasspath.SITE_AGENT), of.apply(ProcessClasspath.NODE_LAUNCHER),
                of.apply(ProcessClasspath.PROGRAMS));
    }

    /** Forwards to the agent's port and checks that it answers; starts another agent if it does not. */
    private Reached reach(HeadNodeSession session, RemoteAgent agent, RemoteAgent.Running running, Jars jars,
                          String relayHost) {
        int local = session.forwardLocal(running.port());
        SiteAgentClient client = new SiteAgentClient(URI.create("http://127.0.0.1:" + local), running.secret());
        if (answers(client)) {
            return new Reached(running, local, client);
        }
        LOG.warn("site {}: the agent on {} (pid {}) does not answer; starting another", site.name(), ssh.host(),
                running.pid());
        session.unforwardLocal(local);
        agent.stop(running.pid());
        RemoteAgent.Running again = agent.start(jars.agent(), AgentSecret.random(), relayHost);
        local = session.forwardLocal(again.port());
        client = new SiteAgentClient(URI.create("http://127.0.0.1:" + local), again.secret());
        if (!answers(client)) {
            throw new IllegalStateException("site " + site.name() + ": the agent on " + ssh.host()
                    + " does not answer through the SSH forward");
        }
        return new Reached(again, local, client);
    }

    /** Restores the call-backs through the agent reached, and makes it the site's agent. */
    private void attach(HeadNodeSession session, RemoteAgent agent, Reached reached, Jars jars, String relayHost) {
        CallBacks.Callback back = callBacks.restore(session, agent, reached.client());
        Launcher launcher = new Launcher(agent.head().java(), jars.launcher(), jars.programs(),
                "http://" + back.authority(), agent.file("pilots"));
        Attached a = new Attached(session, agent, reached, relayHost, jars, launcher);
        closeEnded(a);
        attached = a;
        link = link.connected();
        onAgent.accept(reached.client());
        LOG.info("site {}: agent on {} reached at {}; pilots call back on {} (relayed to {}:{} here)", site.name(),
                ssh.address(), reached.client().base(), launcher.schedulerUrl(), callBacks.scheduler().host(),
                callBacks.scheduler().port());
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
     * A URL on this machine (a framework runner's RPC) as the site's nodes reach it: the same path
     * on the agent's relay on the head node, the one made before for it if any (in this process, or
     * by a scheduler before this one, restored on connecting). URLs on loopback or on the advertised
     * KOALA host, or on another scheduler's host, are relayed; any other URL is returned as it is. While the site is down, one not
     * relayed yet is {@link Unavailable}: asked again once it is up, it gets its relay.
     */
    public String reachable(String url) {
        Attached a = attached;
        Optional<CallBacks.Endpoint> to = callBacks.endpoint(URI.create(url));
        if (to.isEmpty()) {
            return url;
        }
        Optional<CallBacks.Callback> known = callBacks.known(to.get());
        if (a == null) {
            return CallBacks.relayed(url, known.orElseThrow(() -> new Unavailable("site " + site.name()
                    + " is not reachable; no relay for " + url + " yet")));
        }
        try {
            return CallBacks.relayed(url, known.orElseGet(() -> callBacks.relayFor(a.session(), a.agent(),
                    a.reached().client(), to.get())));
        } catch (SshFailure | ApiException e) {
            LOG.warn("site {}: no relay for {}: {}", site.name(), url, e.getMessage());
            return url;
        }
    }

    /**
     * The instance whose runner serves at {@code url} has ended: the relay on the head node and the SSH
     * forward behind it are closed, so that nothing listens there for a runner that is gone (a caller
     * would be accepted and cut off at once), and they are not made again on a reconnection, nor by a
     * scheduler after this one (its record on the head node goes). While the link is down they are closed
     * once it is up again. Does SSH work: never on the scheduler's loop.
     */
    public void unrelay(String url) {
        callBacks.endpoint(URI.create(url)).flatMap(callBacks::forget).ifPresent(this::closeRelay);
    }

    /**
     * The scheduler has reloaded its jobs, whose live instances' runners are {@code liveRunners}: the call-backs
     * made again from the head node's record for any other runner are forgotten, and their relays and forwards
     * closed. SSH work, and it waits for a (re)connection in progress: never on the loop.
     */
    public void keepOnlyRunners(java.util.Set<String> liveRunners) {
        List<CallBacks.Callback> stale = callBacks.keepOnly(liveRunners);
        closeRelays(stale);
        if (!stale.isEmpty()) {
            LOG.info("site {}: relays of runners no live instance has, closed: {}", site.name(),
                    stale.stream().map(CallBacks.Callback::authority).toList());
        }
    }

    /** Closes a relay on the head node and the forward behind it now, or once the link is up again. */
    private void closeRelay(CallBacks.Callback back) {
        closeRelays(List.of(back));
    }

    /**
     * Closes relays on the head node and the forwards behind them now, or once the link is up again; the head
     * node's record of the call-backs is written once for them all.
     */
    private void closeRelays(List<CallBacks.Callback> backs) {
        if (backs.isEmpty()) {
            return;
        }
        Attached a = attached;
        if (a == null || !a.session().connected()) {
            ended.addAll(backs);
            return;
        }
        for (CallBacks.Callback back : backs) {
            try {
                close(a, back);
                a.session().unforwardRemote(back.forward());
            } catch (SshFailure | ApiException e) {
                LOG.warn("site {}: relay {} not closed yet ({}); closing it once the link is up again", site.name(),
                        back.authority(), e.getMessage());
                ended.add(back);
            }
        }
        callBacks.record(a.agent());
    }

    /** Closes the relays of ended instances that could not be closed while the link was down (their forwards went with it). */
    private void closeEnded(Attached a) {
        for (CallBacks.Callback back : List.copyOf(ended)) {
            try {
                close(a, back);
                ended.remove(back);
            } catch (ApiException e) {
                LOG.warn("site {}: relay {} not closed: {}", site.name(), back.authority(), e.getMessage());
            }
        }
    }

    private void close(Attached a, CallBacks.Callback back) {
        boolean closed = a.reached().client().closeRelay(back.relayPort());
        LOG.info("site {}: relay {} {} (its instance ended)", site.name(), back.authority(),
                closed ? "closed" : "was closed already");
    }

    /** Every few seconds: is the agent's process still there? One that died is started again. */
    private void checkAgent(Attached a) {
        if (clock.instant().isBefore(nextAgentCheck)) {
            return;
        }
        nextAgentCheck = clock.instant().plus(AGENT_CHECK);
        if (!a.agent().alive(a.reached().running().pid())) {
            LOG.warn("site {}: the agent on {} (pid {}) is gone; starting a new one", site.name(), ssh.host(),
                    a.reached().running().pid());
            a.session().unforwardLocal(a.reached().localPort());
            Jars jars = a.jars();
            RemoteAgent.Running running = a.agent().start(jars.agent(), AgentSecret.random(), a.relayHost());
            attach(a.session(), a.agent(), reach(a.session(), a.agent(), running, jars, a.relayHost()), jars,
                    a.relayHost());
        }
    }

    /** Stops the watch and the agent on the head node, and closes the connection. */
    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        synchronized (this) {
            stopAgent();
            Ready r = ready;
            if (r != null) {
                r.session().close(); // made ahead by a standby that never led: no agent of its own to stop
            }
        }
    }

    private void stopAgent() {
        Attached a = attached;
        if (a != null) {
            try {
                a.agent().stop(a.reached().running().pid());
            } catch (RuntimeException e) {
                LOG.warn("site {}: could not stop the agent on {}: {}", site.name(), ssh.host(), e.getMessage());
            }
            a.session().close();
        }
    }
}
