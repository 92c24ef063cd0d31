package koala.scheduler;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import koala.api.site.AgentSecret;
import koala.api.site.SiteAgentClient;
import koala.grid.GridConfig;
import koala.grid.SiteConfig;
import koala.http.ApiException;
import koala.process.AgentProcess;
import koala.process.RuntimeImage;
import koala.scheduler.remote.RemoteSite;
import koala.scheduler.storage.Store;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * One site agent per site, kept alive. At start-up an agent recorded before a crash that still
 * answers is re-attached, otherwise a new one is started. A watch then checks every agent's
 * process: one that has died — killed, crashed, or exited 75 because its DRMAA session wedged — is
 * started again and its new address used from then on. The clients map is live: the information
 * service and the pilots always reach the current agent. A remote site's agent runs on its head
 * node and is kept by its {@link RemoteSite}, over SSH.
 */
final class SiteAgents implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(SiteAgents.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final GridConfig grid;
    private final Path koalaHome;
    private final Store store;
    private final Map<String, SiteAgentClient> clients = new ConcurrentHashMap<>();
    private final Map<String, Long> pids = new ConcurrentHashMap<>();
    private final Map<String, AgentProcess> started = new ConcurrentHashMap<>();
    private final Map<String, RemoteSite> remotes = new ConcurrentHashMap<>();
    private final String koalaHost;
    private final int schedulerPort;
    /** This host's name: agents run on the scheduler's host, and are re-attached only there. */
    private final String host;
    private ScheduledExecutorService watch;

    /**
     * @param koalaHost     the name or address this machine advertises for the scheduler and its runners;
     *                      remote sites relay call-backs to it (and to this machine's loopback)
     * @param schedulerPort the scheduler's port there, which remote sites' pilots call back to through their relay
     */
    SiteAgents(GridConfig grid, Path koalaHome, Store store, String koalaHost, int schedulerPort) {
        this.grid = grid;
        this.koalaHome = koalaHome;
        this.store = store;
        this.koalaHost = koalaHost;
        this.schedulerPort = schedulerPort;
        this.host = thisHost();
    }

    /** The hosts of {@code scheduler.addresses}: runners there are relayed to remote sites' nodes as this host's are. */
    private java.util.Set<String> schedulerHosts() {
        return SchedulerDaemon.schedulers(grid).stream().map(URI::getHost).filter(java.util.Objects::nonNull)
                .collect(java.util.stream.Collectors.toSet());
    }

    static String thisHost() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException("this host has no name it can resolve: " + e.getMessage(), e);
        }
    }

    /**
     * Connects to the remote sites ahead ({@link RemoteSite#prepare}), without waiting: what a scheduler does
     * before it leads, so that a standby taking over has its SSH connections made and its jars sent.
     */
    void prepareRemotes() {
        grid.sites().stream().filter(SiteConfig::remote).forEach(site -> remote(site).prepare());
    }

    private RemoteSite remote(SiteConfig site) {
        return remotes.computeIfAbsent(site.name(), name -> new RemoteSite(site, koalaHost, schedulerHosts(), schedulerPort,
                RuntimeImage.currentClasspath(), InstantSource.system(),
                Executors.newSingleThreadScheduledExecutor(SchedulerDaemon.daemon("ssh-" + name)),
                client -> clients.put(name, client)));
    }

    /**
     * Re-attaches to the agents recorded before, if they still answer, and starts the others. A
     * remote site that cannot be reached is not fatal: it shows down with the reason, and is tried again.
     */
    void attachOrStart() {
        Map<String, Store.AgentRecord> known = store.agents();
        List<Callable<Runnable>> starts = new ArrayList<>();
        for (SiteConfig site : grid.sites()) {
            if (site.remote()) {
                RemoteSite remote = remote(site);
                starts.add(() -> {
                    remote.start();
                    return () -> { };
                });
                continue;
            }
            Optional<Store.AgentRecord> previous = Optional.ofNullable(known.get(site.name())).filter(this::answers);
            if (previous.isPresent()) {
                LOG.info("re-attached to the agent of site {} at {}", site.name(), previous.get().url());
                clients.put(site.name(), new SiteAgentClient(URI.create(previous.get().url()),
                        AgentSecret.of(previous.get().secret())));
                pids.put(site.name(), previous.get().pid());
            } else {
                starts.add(() -> launch(site));
            }
        }
        startTogether(starts);
        reattachUserAgents(known);
    }

    /**
     * Runs the sites' starts at once (each agent's JVM start and a remote site's SSH connection take seconds; one
     * after another they added up to a scheduler's start), then records what each started here, on this thread,
     * in site order. One that failed is reported once every other has started, so that none is left unrecorded.
     */
    private void startTogether(List<Callable<Runnable>> starts) {
        java.util.concurrent.ExecutorService starting = Executors.newFixedThreadPool(Math.max(1, starts.size()),
                SchedulerDaemon.daemon("site-start"));
        try {
            List<java.util.concurrent.Future<Runnable>> running = starts.stream().map(starting::submit).toList();
            RuntimeException failed = null;
            for (java.util.concurrent.Future<Runnable> start : running) {
                try {
                    start.get().run();
                } catch (java.util.concurrent.ExecutionException e) {
                    RuntimeException cause = e.getCause() instanceof RuntimeException r ? r
                            : new IllegalStateException(e.getCause().getMessage(), e.getCause());
                    failed = failed == null ? cause : failed;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while the site agents started", e);
                }
            }
            if (failed != null) {
                throw failed;
            }
        } finally {
            starting.shutdown();
        }
    }

    /** Why {@code site} cannot be reached at all now: a remote site whose SSH link is down. */
    Optional<String> unreachable(String site) {
        return Optional.ofNullable(remotes.get(site)).flatMap(RemoteSite::down);
    }

    /** How pilots of a remote site run there; empty for a site on this machine. */
    Optional<RemoteSite.Launcher> remoteLauncher(String site) {
        return Optional.ofNullable(remotes.get(site)).map(RemoteSite::launcher);
    }

    /** A URL on this machine (loopback, or the advertised KOALA host), or on another scheduler's host, as nodes of {@code site} reach it. */
    String reachable(String site, String url) {
        return Optional.ofNullable(remotes.get(site)).map(r -> r.reachable(url)).orElse(url);
    }

    /**
     * The live instances' runners are {@code liveRunners}: every remote site closes the relays it made again for
     * other runners ({@link RemoteSite#keepOnlyRunners}; SSH work: off the loop).
     */
    void keepOnlyRunners(java.util.Set<String> liveRunners) {
        remotes.values().forEach(r -> r.keepOnlyRunners(liveRunners));
    }

    /** The runner at {@code url} is gone for good (its instance ended): {@code site}'s relay to it is closed. */
    void unrelay(String site, String url) {
        Optional.ofNullable(remotes.get(site)).ifPresent(r -> r.unrelay(url));
    }

    /**
     * The agent that submits and kills {@code owner}'s pilots on {@code site}: on a local site the
     * user's own, started the first time it is needed (a few seconds) and stopping by itself after
     * {@link #USER_AGENT_IDLE} without calls; the site's own agent for a remote site (one account
     * there: the owner goes into SGE's account string), for an owner below uid 1000 (root and
     * system accounts: admins' jobs) or without an account here, and for the site's account itself.
     */
    Pilots.Agent agentFor(String site, String owner) {
        SiteConfig config = grid.site(site);
        if (config.remote() || owner == null || owner.equals(config.agentUser()) || !ordinaryUser(owner)) {
            SiteAgentClient own = clients.get(site);
            return own == null ? null : new Pilots.Agent(own, config.agentUser());
        }
        String key = site + "/" + owner;
        synchronized (userAgents) {
            UserAgent known = userAgents.get(key);
            if (known != null && known.alive()) {
                return new Pilots.Agent(known.client(), owner);
            }
            LocalLaunchers.ownedBy(LocalLaunchers.pilotLogs(config, koalaHome, owner), owner);
            AgentSecret secret = AgentSecret.random();
            AgentProcess agent = AgentProcess.startForUser(config, owner, grid.file(), koalaHome, START_TIMEOUT, secret,
                    USER_AGENT_IDLE);
            userAgents.put(key, new UserAgent(agent.client(), agent.pid(), agent));
            store.saveAgent(new Store.AgentRecord(key, agent.url().toString(), agent.pid(), secret.value(), host));
            // it serves before its DRMAA session is open, and refuses pilots until then (done off the
            // loop: this runs on the site's submission thread)
            boolean up = new koala.common.time.Poll(java.time.InstantSource.system(), Duration.ofMillis(100))
                    .until(() -> healthy(agent.client()), START_TIMEOUT);
            LOG.info("agent of site {} for {}'s pilots serving on {}{}", site, owner, agent.url(),
                    up ? "" : ", its cell not reached yet");
            return new Pilots.Agent(agent.client(), owner);
        }
    }

    private static boolean healthy(SiteAgentClient agent) {
        try {
            return agent.health().up();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** How long a user's agent lives without calls. */
    static final Duration USER_AGENT_IDLE = Duration.ofMinutes(10);
    /**
     * How long a site's own agent lives without calls. Its scheduler polls it every few seconds; one whose
     * scheduler is gone for good (the lead went to a scheduler on another host, which started its own) ends.
     */
    static final Duration SITE_AGENT_IDLE = Duration.ofMinutes(10);

    private final Map<String, UserAgent> userAgents = new java.util.HashMap<>();

    /**
     * A user's agent on a site: started here ({@code process}), or re-attached after a crash (no
     * process handle of ours, only its pid).
     */
    private record UserAgent(SiteAgentClient client, long pid, AgentProcess process) {
        boolean alive() {
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        }

        void stop() {
            if (process != null) {
                process.close();
            } else {
                ProcessHandle.of(pid).ifPresent(AgentProcess::terminate);
            }
        }

        /** A TERM to the agent and what it started; the processes, to wait for. */
        List<ProcessHandle> terminate() {
            return process != null ? process.terminate()
                    : ProcessHandle.of(pid).map(AgentProcess::terminate).orElse(List.of());
        }
    }

    /** The users' agents recorded before a crash that still answer serve their users' pilots again. */
    private void reattachUserAgents(Map<String, Store.AgentRecord> known) {
        known.values().stream().filter(a -> a.site().contains("/")).filter(this::answers).forEach(a -> {
            String[] siteAndUser = a.site().split("/", 2);
            LOG.info("re-attached to the agent of site {} for {}'s pilots at {}", siteAndUser[0], siteAndUser[1],
                    a.url());
            synchronized (userAgents) {
                userAgents.put(a.site(), new UserAgent(new SiteAgentClient(URI.create(a.url()),
                        AgentSecret.of(a.secret())), a.pid(), null));
            }
        });
    }

    private final Map<String, Boolean> ordinary = new ConcurrentHashMap<>();

    /** A local account with a uid of 1000 or more. */
    private boolean ordinaryUser(String user) {
        return ordinary.computeIfAbsent(user, SiteAgents::lookUp);
    }

    private static boolean lookUp(String user) {
        try {
            Process p = new ProcessBuilder("id", "-u", user).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 && Integer.parseInt(out) >= 1000;
        } catch (IOException | NumberFormatException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The current agent of every site; the map follows restarts. */
    Map<String, SiteAgentClient> clients() {
        return clients;
    }

    /** Checks every {@code every} that each agent's process lives, and starts a new one where not. */
    void watch(ScheduledExecutorService timer, Duration every) {
        this.watch = timer;
        timer.scheduleWithFixedDelay(this::restartDead, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void restartDead() {
        for (SiteConfig site : grid.sites()) {
            if (site.remote()) {
                continue; // kept by its RemoteSite
            }
            Long pid = pids.get(site.name());
            boolean alive = pid != null && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
            if (!alive) {
                LOG.warn("the agent of site {} (pid {}) is gone; starting a new one", site.name(), pid);
                try {
                    start(site);
                } catch (RuntimeException e) {
                    LOG.error("could not start an agent for site {}: {}; trying again", site.name(), e.getMessage());
                }
            }
        }
    }

    /** Starts an agent with a new secret, kept in the store so that a restarted scheduler can re-attach. */
    private void start(SiteConfig site) {
        launch(site).run();
    }

    /** Starts the agent of {@code site}; what it returns records it (in the store, the clients), on the caller's thread. */
    private Runnable launch(SiteConfig site) {
        AgentSecret secret = AgentSecret.random();
        AgentProcess agent = AgentProcess.start(site, grid.file(), koalaHome, site.agentPort(), START_TIMEOUT, secret,
                SITE_AGENT_IDLE);
        return () -> adopt(site, agent, secret);
    }

    private void adopt(SiteConfig site, AgentProcess agent, AgentSecret secret) {
        Optional.ofNullable(started.put(site.name(), agent)).ifPresent(AgentProcess::close);
        store.saveAgent(new Store.AgentRecord(site.name(), agent.url().toString(), agent.pid(), secret.value(), host));
        clients.put(site.name(), agent.client());
        pids.put(site.name(), agent.pid());
        LOG.info("agent of site {} serving on {}", site.name(), agent.url());
    }

    private boolean answers(Store.AgentRecord agent) {
        if (!agent.on(host)) {
            LOG.info("the agent of site {} runs on {}, where the scheduler that led before this one ran: this"
                    + " scheduler starts its own here (that one ends after {} min without calls)", agent.site(),
                    agent.host(), SITE_AGENT_IDLE.toMinutes());
            return false;
        }
        if (!ProcessHandle.of(agent.pid()).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        if (agent.secret() == null) {
            LOG.warn("the agent of site {} (pid {}) was recorded without a secret, by an older scheduler; starting a "
                    + "new one", agent.site(), agent.pid());
            return false;
        }
        try {
            new SiteAgentClient(URI.create(agent.url()), AgentSecret.of(agent.secret())).health();
            return true;
        } catch (ApiException | IllegalArgumentException e) {
            return false;
        }
    }

    /** Stops the watch and every agent: those started here and those re-attached after a crash. */
    @Override
    public void close() {
        close(Duration.ofSeconds(10));
    }

    /**
     * As {@link #close()}, within {@code within}: every agent is sent a TERM at once and waited for
     * together, those still there at the end are killed; remote sites stop their agents over SSH in
     * parallel and are not waited for past the deadline (their agents end by themselves when idle).
     */
    public void close(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        if (watch != null) {
            watch.shutdownNow();
        }
        java.util.concurrent.ExecutorService remoteStops = java.util.concurrent.Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "remote-stop");
            t.setDaemon(true);
            return t;
        });
        remotes.values().forEach(r -> remoteStops.submit(r::close));
        remoteStops.shutdown();
        List<ProcessHandle> going = new java.util.ArrayList<>();
        started.values().forEach(a -> going.addAll(a.terminate()));
        synchronized (userAgents) {
            userAgents.values().forEach(a -> going.addAll(a.terminate()));
        }
        pids.forEach((site, pid) -> {
            if (!started.containsKey(site) || started.get(site).pid() != pid) {
                ProcessHandle.of(pid).ifPresent(p -> going.addAll(AgentProcess.terminate(p)));
            }
        });
        for (ProcessHandle p : going) {
            awaitExit(p, deadline);
        }
        going.stream().filter(ProcessHandle::isAlive).forEach(p -> {
            LOG.warn("agent process {} still there after {} s: killed", p.pid(), within.toSeconds());
            p.destroyForcibly();
        });
        try {
            remoteStops.awaitTermination(Math.max(0, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void awaitExit(ProcessHandle p, long deadline) {
        try {
            p.onExit().get(Math.max(0, deadline - System.nanoTime()), java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            // killed by the caller
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
