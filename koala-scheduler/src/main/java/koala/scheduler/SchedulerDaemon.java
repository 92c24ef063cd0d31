package koala.scheduler;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import koala.api.scheduler.SchedulerProcess;
import koala.api.site.SiteAgentClient;
import koala.auth.TokenKey;
import koala.auth.Tokens;
import koala.grid.GridConfig;
import koala.grid.KoalaHome;
import koala.grid.SiteConfig;
import koala.http.ApiException;
import koala.http.Endpoint;
import koala.http.JsonHttpServer;
import koala.process.ProcessClasspath;
import koala.process.RuntimeImage;
import koala.scheduler.accounting.AccountingFile;
import koala.scheduler.accounting.AccountingWriter;
import koala.scheduler.api.Admins;
import koala.scheduler.api.AuditLog;
import koala.scheduler.api.Callers;
import koala.scheduler.api.MetricsToken;
import koala.scheduler.api.SchedulerApi;
import koala.scheduler.config.HangupReload;
import koala.scheduler.config.SchedulerSettings;
import koala.scheduler.kis.InformationService;
import koala.scheduler.metrics.SchedulerMetrics;
import koala.scheduler.storage.SqlStore;
import koala.scheduler.storage.Store;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The scheduler process, wired: the store, one site agent per site (re-attached when one from
 * before a crash still runs, started otherwise), the information service, the loop and the API.
 */
public final class SchedulerDaemon implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(SchedulerDaemon.class);

    private final Store store;
    private final SiteAgents agents;
    private final InformationService kis;
    private final SchedulerLoop loop;
    private final Pilots pilots;
    private final Submissions submissions;
    private final List<JsonHttpServer> servers;
    private final URI url;
    private final RunnerSupervisor runners;
    private final AccountingWriter accounting;
    private final Reconfiguration reconfiguration;
    /** Set once it serves; closed last, so that a clean stop lets the lease go for a standby. */
    private Leadership leadership;
    /** Whether SIGHUP reloads: {@code GET /scheduler} tells it, for {@code koala config check}. */
    private final AtomicReference<HangupReload> hangup;

    private SchedulerDaemon(Store store, SiteAgents agents, InformationService kis, SchedulerLoop loop, Pilots pilots,
                            Submissions submissions, List<JsonHttpServer> servers, URI url, RunnerSupervisor runners,
                            AccountingWriter accounting, Reconfiguration reconfiguration,
                            AtomicReference<HangupReload> hangup) {
        this.reconfiguration = reconfiguration;
        this.hangup = hangup;
        this.runners = runners;
        this.accounting = accounting;
        this.store = store;
        this.agents = agents;
        this.kis = kis;
        this.loop = loop;
        this.pilots = pilots;
        this.submissions = submissions;
        this.servers = servers;
        this.url = url;
    }

    /**
     * Starts the scheduler; on a store that several schedulers share, once it leads (a standby until then).
     * A scheduler that loses the lead halts at once, as after a {@code kill -9}: everything it started
     * (agents, pilots, runners) goes on for the scheduler that leads now, and whatever restarts this
     * process makes it a standby.
     */
    public static SchedulerDaemon start(GridConfig grid, Path koalaHome) throws IOException {
        return start(grid, koalaHome, reason -> Runtime.getRuntime().halt(STEPPED_DOWN));
    }

    /** The exit status of a scheduler that stepped down. */
    public static final int STEPPED_DOWN = 3;

    /** As {@link #start(GridConfig, Path)}; {@code steppedDown} is what a scheduler that lost the lead does. */
    public static SchedulerDaemon start(GridConfig grid, Path koalaHome, java.util.function.Consumer<String> steppedDown)
            throws IOException {
        SchedulerSettings settings = SchedulerSettings.from(grid, koalaHome);
        // scheduler.logLevel*: set first, so that they cover the start too
        koala.scheduler.config.LogLevels logLevels = koala.scheduler.config.LogLevels.atStart();
        logLevels.apply(Map.of(), grid.values());
        if (grid.file().toAbsolutePath().startsWith(koalaHome.toAbsolutePath())
                && grid.sites().stream().anyMatch(s -> !s.remote())) {
            throw new IllegalArgumentException(grid.file() + ": the grid configuration is inside KOALA_HOME ("
                    + koalaHome + "), which the scheduler closes (0700), so the site agents' accounts could not read it;"
                    + " move it to " + KoalaHome.SYSTEM_CONFIG);
        }
        KoalaHome.closeUp(koalaHome);
        SqlStore store = koala.scheduler.config.StoreSettings.from(grid, koalaHome).open();
        // publishing the jars to a site and training the launcher's class archive take seconds: done before
        // this scheduler leads (a standby has them ready when it takes over), never on the loop thread
        LocalLaunchers local = new LocalLaunchers(koalaHome, nodeUrl(grid, settings), schedulers(grid));
        grid.sites().stream().filter(s -> !s.remote()).forEach(local::of);
        // remote sites relay their nodes' call-backs to the address where the scheduler serves nodes
        SiteAgents agents = new SiteAgents(grid, koalaHome, store,
                grid.hostAddress().orElse(InetAddress.getLoopbackAddress().getHostAddress()), settings.port());
        agents.prepareRemotes();
        Leadership leadership;
        try {
            leadership = lead(grid, koalaHome, settings, store, steppedDown);
        } catch (RuntimeException | IOException e) {
            agents.close();
            store.close();
            throw e;
        }
        StartSteps steps = new StartSteps();
        try {
            agents.attachOrStart();
            steps.done("site agents");
            SchedulerDaemon daemon = serve(grid, koalaHome, settings, store, agents, local, logLevels, leadership,
                    koala.scheduler.storage.Backups.beside(store, settings.database(), InstantSource.system()), steps);
            daemon.leadership = leadership;
            return daemon;
        } catch (RuntimeException | IOException e) {
            // a scheduler that cannot start leaves nothing running behind it
            agents.close();
            leadership.close();
            store.close();
            throw e;
        }
    }

    /** Where nodes call back: the grid's address (other hosts cannot reach this machine's loopback), else loopback. */
    static URI nodeUrl(GridConfig grid, SchedulerSettings settings) throws IOException {
        return URI.create("http://" + grid.hostAddress().orElse("127.0.0.1") + ":" + settings.port());
    }

    /** {@code scheduler.addresses}: where every scheduler sharing this grid's store serves its nodes. */
    static List<URI> schedulers(GridConfig grid) {
        return grid.value("scheduler.addresses").stream().flatMap(v -> java.util.Arrays.stream(v.split(",")))
                .map(String::strip).filter(a -> !a.isEmpty()).map(URI::create).toList();
    }

    /**
     * Waits, as a standby answering who leads, until this scheduler holds the store's lease, and fences
     * the store at its epoch; a store only one scheduler opens (H2) is led at once. Once leading, a lost
     * lease or a refused write hands {@code steppedDown} the reason.
     */
    private static Leadership lead(GridConfig grid, Path koalaHome, SchedulerSettings settings, SqlStore store,
                                   java.util.function.Consumer<String> steppedDown) throws IOException {
        koala.scheduler.storage.LeaderLease lease = store.lease(Leadership.TERM);
        URI nodeUrl = nodeUrl(grid, settings);
        String name = InetAddress.getLocalHost().getHostName() + ":" + ProcessHandle.current().pid();
        Leadership leadership = new Leadership(lease, name, nodeUrl.toString(), InstantSource.system(),
                () -> Executors.newScheduledThreadPool(2, daemon("lease"))); // a renewal, and the watch on its term
        if (lease == koala.scheduler.storage.LeaderLease.ALONE) {
            leadership.awaitLeadingNow();
            leadership.lead(steppedDown);
            return leadership;
        }
        MetricsToken metricsToken = MetricsToken.at(metricsTokenFile(grid, koalaHome));
        Callers callers = callers(grid, TokenKey.in(koalaHome.resolve("token.key")));
        try (Standby standby = Standby.serve(grid.schedulerSocket(), settings.port(), nodeUrl,
                metricsToken.orCaller(callers), metricsToken.alone(), new Standby.Users(name, callers, auditLog(koalaHome)))) {
            long epoch = leadership.awaitLeading(standby::leader);
            store.fence(epoch, Leadership.TERM, why -> leadership.lost("the store refused a write: " + why));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            leadership.close();
            throw new IOException("interrupted while a standby", e);
        }
        leadership.lead(steppedDown);
        return leadership;
    }

    private static SchedulerDaemon serve(GridConfig grid, Path koalaHome, SchedulerSettings settings, Store store,
                                         SiteAgents siteAgents, LocalLaunchers local,
                                         koala.scheduler.config.LogLevels logLevels, Leadership leadership,
                                         koala.scheduler.storage.Backups backups, StartSteps steps)
            throws IOException {
        Map<String, SiteAgentClient> agents = siteAgents.clients();
        InformationService kis = new InformationService(grid.sites().stream().map(SiteConfig::name).toList(), agents,
                siteAgents::unreachable, InstantSource.system(), Executors.newSingleThreadScheduledExecutor(daemon("kis")));
        awaitAgents(agents);
        steps.done("agents answering");
        // the first look asks every agent for its cell (qstat, qhost): about 1 s, taken beside the scheduler's
        // construction and the reload of its jobs, which do not need it
        CompletableFuture<Void> firstLook = CompletableFuture.runAsync(kis::pollAll,
                r -> daemon("first-look").newThread(r).start());
        URI url = URI.create("http://127.0.0.1:" + settings.port());
        URI nodeUrl = nodeUrl(grid, settings);
        Map<String, SiteConfig> sites = new LinkedHashMap<>();
        grid.sites().forEach(s -> sites.put(s.name(), s));
        SchedulerLoop loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor(daemon("scheduler")), store);
        // memory ahead of the store would answer from changes a restart forgets: the store is the truth
        loop.whenUndone(e -> leadership.lost("a unit of work could not be committed (" + e.getMessage() + "); what it"
                + " did is in this process's memory only, so it starts again from the store"));
        Pilots pilots = new Pilots(siteAgents::agentFor, sites, site -> siteAgents.remoteLauncher(site).map(r -> new Pilots.Launcher(
                r.java(), r.classpath(), r.programs(), List.of(), r.schedulerUrl(), r.logDir(), a -> siteAgents.reachable(site, a)))
                .orElseGet(() -> local.of(sites.get(site))), settings.nodeGiveUp(), store.pilotTag(),
                Executors.newSingleThreadExecutor(daemon("relays")), siteAgents::unrelay, () -> loop.post(() -> { }));
        Map<String, Integer> nodes = new LinkedHashMap<>();
        grid.sites().forEach(s -> nodes.put(s.name(), s.nodes()));
        Submissions submissions = Submissions.threaded(pilots::submit, loop::post, store::afterCommit);
        SchedulerMetrics metrics = new SchedulerMetrics(sites.keySet());
        metrics.leads(leadership.epoch(), leadership.since());
        Scheduler scheduler = new Scheduler(settings, store, kis, nodes, pilots, submissions, FileCatalog.from(grid),
                InstantSource.system(), metrics);
        scheduler.onStart(() -> loop.post(() -> { }));
        metrics.startEstimates(scheduler::startFigures);
        SchedulerParts parts = scheduler.parts();
        // usage records are appended and forced to disk on a thread of their own; each acknowledged back on the loop
        AccountingFile accountingFile = new AccountingFile(settings.accounting());
        AccountingWriter accounting = new AccountingWriter(accountingFile,
                Executors.newSingleThreadScheduledExecutor(daemon("accounting")),
                id -> loop.post(() -> parts.accounting().written(id)), Duration.ofSeconds(30));
        parts.accounting().sink(accounting);
        steps.done("the scheduler's parts");
        koala.arbitration.ArbitrationSettings sharing = arbitration(grid);
        // the file in force: a SIGHUP may replace it (Reconfiguration)
        AtomicReference<GridConfig> inForce = new AtomicReference<>(grid);
        scheduler.share(sharing, site -> inForce.get().section("site." + site + ".provisioning"));
        scheduler.nodeGroups(nodeGroups(grid));
        LOG.info("framework instances share a full grid by {}", sharing.describe());
        loop.call(() -> {
            parts.accounting().counts(metrics); // before recovery, whose records count too
            reload(parts, settings);
            return null;
        });
        steps.done("jobs reloaded");
        firstLook.join();
        steps.done("first look at the sites (beside the above)");
        scheduler.checkDeclaredGpus();
        loop.call(() -> {
            reconcile(parts, agents, pilots, sites.keySet());
            return null;
        });
        java.util.Set<String> liveRunners = loop.call(() -> parts.frameworks().liveRunners());
        daemon("stale-relays").newThread(() -> siteAgents.keepOnlyRunners(liveRunners)).start();
        steps.done("pilots reconciled");
        // users on this host call through the socket, where the kernel names them; programs may use
        // loopback TCP with a token the scheduler signed
        Path socket = grid.schedulerSocket();
        Files.createDirectories(socket.getParent(), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        JsonHttpServer server = new JsonHttpServer(List.of(Endpoint.unix("unix", socket, "rw-rw-rw-"),
                Endpoint.loopback("local", settings.port())), 64);
        TokenKey key = TokenKey.in(koalaHome.resolve("token.key"));
        AuditLog audit = auditLog(koalaHome);
        Callers callers = callers(grid, key);
        SchedulerApi.Operations operations = new LoopOperations(parts, loop, key, accountingFile, backups);
        SchedulerApi.register(server, operations, callers, audit);
        // Prometheus scrapes with the metrics token (or, on this host, as any identified caller)
        MetricsToken metricsToken = MetricsToken.at(metricsTokenFile(grid, koalaHome));
        SchedulerApi.registerMetrics(server, metrics::scrape, metricsToken.orCaller(callers));
        AtomicReference<HangupReload> hangup =
                new AtomicReference<>(HangupReload.NOT_ASKED);
        java.util.function.Supplier<SchedulerProcess> process = () -> {
            HangupReload found = hangup.get();
            return new SchedulerProcess(ProcessHandle.current().pid(), found.reloads(), found.warning(), leadership.name(),
                    leadership.epoch(), leadership.since());
        };
        SchedulerApi.registerProcess(server, process, callers);
        List<JsonHttpServer> servers = new java.util.ArrayList<>(List.of(server));
        if (!nodeUrl.equals(url)) {
            // the grid's hosts reach only the nodes' routes, each call checked against the node's token
            JsonHttpServer nodeServer = new JsonHttpServer(new InetSocketAddress(InetAddress.getByName(nodeUrl.getHost()),
                    settings.port()), 32);
            SchedulerApi.registerNodes(nodeServer, operations);
            // and the users' calls a standby of the grid passes on, each with its voucher
            SchedulerApi.registerRelayed(nodeServer, Endpoint.DEFAULT, operations, callers, audit, process);
            // and a site's Prometheus reaches /metrics there, with the metrics token only
            SchedulerApi.registerMetrics(nodeServer, metrics::scrape, metricsToken.alone());
            servers.add(nodeServer);
        }
        servers.forEach(JsonHttpServer::start);
        kis.start(settings.kisEvery());
        loop.every(Duration.ofSeconds(1), scheduler::tick);
        siteAgents.watch(Executors.newSingleThreadScheduledExecutor(daemon("agent-watch")), Duration.ofSeconds(5));
        RunnerSupervisor runners = supervise(grid, parts, loop, koalaHome);
        LOG.info("scheduler serving users on {} and {} (with a token), nodes on {}, with sites {}; its pilots are "
                + "named koala-{}-JOB-COMPONENT-RANK-aATTEMPT; metrics on {}/metrics for the token in {}", socket, url,
                nodeUrl, sites.keySet(), store.pilotTag(), nodeUrl, metricsToken.file());
        steps.done("serving");
        LOG.info("usage records of ended jobs and instances go to {}", accountingFile.path());
        LOG.info("{}", steps.describe());
        Reconfiguration reconfiguration = new Reconfiguration(inForce, koalaHome, scheduler, loop, metricsToken, logLevels,
                Executors.newSingleThreadExecutor(daemon("config-reload")));
        return new SchedulerDaemon(store, siteAgents, kis, loop, pilots, submissions, servers, URI.create("unix:" + socket),
                runners, accounting, reconfiguration, hangup);
    }

    /**
     * Who calls: a user named by the socket's kernel or by a token {@code key} signed, or one a standby of the
     * grid vouches for under the same key; admins in {@code admin.group}.
     */
    private static Callers callers(GridConfig grid, TokenKey key) {
        return new Callers(new Tokens(key), Admins.of(grid.value("admin.group").orElse("koala-admin")),
                InstantSource.system()).withRelays(new koala.auth.Vouchers(key));
    }

    private static AuditLog auditLog(Path koalaHome) throws IOException {
        return AuditLog.in(koalaHome.resolve("logs").resolve("audit.log"), InstantSource.system());
    }

    /** {@code scheduler.metrics.tokenFile}, {@code KOALA_HOME/metrics.token} by default. */
    static Path metricsTokenFile(GridConfig grid, Path koalaHome) {
        return grid.value("scheduler.metrics.tokenFile").map(Path::of).orElse(koalaHome.resolve("metrics.token"));
    }

    /** {@code scheduler.arbitration.*}; a bad value stops the start, naming the key and why. */
    /** The node groups {@code grid} declares, per site: {@code site.S.groups.K.G}. */
    static Map<String, Map<String, Map<String, koala.grid.HostList>>> nodeGroups(GridConfig grid) {
        Map<String, Map<String, Map<String, koala.grid.HostList>>> groups = new LinkedHashMap<>();
        grid.sites().forEach(site -> groups.put(site.name(), grid.nodeGroups(site.name())));
        return groups;
    }

    static koala.arbitration.ArbitrationSettings arbitration(GridConfig grid) {
        try {
            return koala.arbitration.ArbitrationSettings.parse(grid.section("scheduler.arbitration"));
        } catch (koala.provisioning.InvalidSettingsException e) {
            throw new IllegalArgumentException(e.problems().stream().map(p -> "scheduler.arbitration." + p.key()
                    + ": " + p.reason()).collect(java.util.stream.Collectors.joining("; ")), e);
        }
    }

    /**
     * Watches the framework runners four times a second, off the loop (which is asked only for the
     * instances and to record what happened): a dead one is started again, one that cannot be is
     * failed with the reason ({@code scheduler.runnerRestarts} tries, 3 by default; a runner that
     * does not answer for {@code scheduler.runnerHung}, 30 s, is killed and started again).
     */
    private static RunnerSupervisor supervise(GridConfig grid, SchedulerParts parts, SchedulerLoop loop, Path koalaHome)
            throws IOException {
        RunnerSupervisor.Instances instances = new RunnerSupervisor.Instances() {
            @Override
            public List<RunnerSupervisor.Watched> watched() {
                return loop.call(() -> parts.frameworks().watched());
            }

            @Override
            public long replacing(RunnerSupervisor.Watched w, String host, URI url) {
                return loop.call(() -> parts.frameworks().replaceRunner(w.id(), host, url.toString()));
            }

            @Override
            public void restarted(long id, String note) {
                loop.call(() -> {
                    parts.scheduler().runnerRestarted(id, note);
                    return null;
                });
            }

            @Override
            public void failed(long id, String reason) {
                loop.call(() -> parts.scheduler().runnerGaveUp(id, reason));
            }
        };
        RunnerSupervisor supervisor = new RunnerSupervisor(instances,
                new RunnerProcesses(InstantSource.system(), Duration.ofSeconds(30), RuntimeImage.publishedClasspath(koalaHome, ProcessClasspath.RUNNER),
                        grid.hostAddress().orElse("127.0.0.1"))
                        .archived(KoalaHome.shared(koalaHome).resolve("runtime"), grid.file(),
                                work -> daemon("runner-archive").newThread(work).start()), InstantSource.system(),
                Executors.newCachedThreadPool(daemon("runner-start")), grid.integer("scheduler.runnerRestarts", 3),
                grid.seconds("scheduler.runnerHung", Duration.ofSeconds(30)), SiteAgents.thisHost());
        supervisor.watch(Executors.newSingleThreadScheduledExecutor(daemon("runner-watch")), Duration.ofMillis(250));
        return supervisor;
    }

    /**
     * Gives freshly started agents a moment to reach their cells; a site still down is not waited for, and
     * the log says why it is not up, from the last answer of its agent.
     */
    private static void awaitAgents(Map<String, SiteAgentClient> agents) {
        Map<String, String> notUp = new java.util.concurrent.ConcurrentHashMap<>();
        boolean up = new koala.common.time.Poll(InstantSource.system(), Duration.ofMillis(200)).until(() -> {
            agents.forEach((site, a) -> notUp.compute(site, (s, before) -> whyNotUp(a)));
            return notUp.isEmpty();
        }, Duration.ofSeconds(15));
        if (!up) {
            notUp.forEach((site, why) -> LOG.warn("site {} is not up after 15 s ({}); the scheduler starts, and places "
                    + "nothing there until it is", site, why));
        }
    }

    /** Why the agent's site is not up; null when it is. */
    private static String whyNotUp(SiteAgentClient agent) {
        try {
            koala.api.site.AgentHealth health = agent.health();
            return health.up() ? null : "its cell is " + health.status() + ": " + health.reason();
        } catch (ApiException e) {
            return "its agent does not answer: " + e.getMessage();
        }
    }

    /** The stored jobs back in memory, and the usage records owed sent again: what needs no look at the sites. */
    private static void reload(SchedulerParts parts, SchedulerSettings settings) {
        parts.recovery().reload(settings.keepEnded());
        parts.accounting().recover();
    }

    /** After the first look at the sites: each unconfirmed pilot adopted or claimed again, each orphan killed. */
    private static void reconcile(SchedulerParts parts, Map<String, SiteAgentClient> agents, Pilots pilots,
                                  Iterable<String> sites) {
        parts.recovery().adoptUnconfirmedPilots();
        for (String site : sites) {
            if (!agents.containsKey(site)) {
                continue; // a remote site not reached yet; its orphans wait for the next start
            }
            for (koala.api.site.CellJob orphan : parts.recovery().orphanPilots(site)) {
                LOG.info("killing orphan pilot {} of {} on {}: no live node owns it", orphan.id(), orphan.owner(), site);
                pilots.kill(site, orphan.id(), orphan.owner(), "no node");
            }
        }
    }

    static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    public URI url() {
        return url;
    }

    /**
     * Reads the grid configuration again and takes what may change while the scheduler runs; what
     * needs a restart is named in the log, a file that fails the check is refused whole (see the
     * admin guide, "Changing the configuration of a running scheduler"). Returns at once: the file is
     * read off the loop, and the loop applies it between rounds; what it decided completes the answer.
     */
    public java.util.concurrent.CompletableFuture<koala.scheduler.config.ConfigReload.Decision> reload() {
        return reconfiguration.request();
    }

    /** Whether SIGHUP reaches {@link #reload}, as the process found at its start. */
    public void hangup(HangupReload found) {
        hangup.set(found);
    }

    /**
     * A clean stop within about 4 s (an admin's restart waits for it): the API, the loop, the agents
     * this process started, the store. Jobs, instances and their pilots carry on; kills of pilots not
     * done within 1.5 s are left to the next start's sweep, which finds the pilots no node owns.
     */
    @Override
    public void close() {
        runners.close();
        servers.forEach(JsonHttpServer::close);
        loop.close();
        accounting.close();
        submissions.close();
        pilots.finishKills(Duration.ofMillis(1500));
        kis.close();
        agents.close(Duration.ofSeconds(2));
        if (leadership != null) {
            leadership.close();
        }
        store.close();
    }
}
