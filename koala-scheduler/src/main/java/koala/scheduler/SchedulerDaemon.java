package koala.scheduler;

import koala.scheduler.config.HangupReload;
import koala.scheduler.config.SchedulerSettings;
import koala.scheduler.api.Caller;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import koala.common.api.AllocationRequest;
import koala.common.api.FrameworkRegistration;
import koala.common.api.GrowRequest;
import koala.common.api.SchedulerProcess;
import koala.common.api.MasterAddress;
import koala.common.api.NodeReport;
import koala.common.api.ReleaseRequest;
import koala.common.api.NodeTask;
import koala.common.api.SubmitRequest;
import koala.common.grid.GridConfig;
import koala.common.grid.KoalaHome;
import koala.common.grid.SiteConfig;
import koala.common.auth.TokenKey;
import koala.common.auth.Tokens;
import koala.common.http.ApiException;
import koala.common.http.Endpoint;
import koala.common.http.JsonHttpServer;
import koala.common.process.ClassArchive;
import koala.common.process.JavaCommand;
import koala.common.process.RuntimeImage;
import koala.common.site.SiteAgentClient;
import koala.scheduler.api.Admins;
import koala.scheduler.api.AuditLog;
import koala.scheduler.api.Callers;
import koala.scheduler.accounting.AccountingFile;
import koala.scheduler.accounting.AccountingQuery;
import koala.scheduler.accounting.AccountingWriter;
import koala.scheduler.api.MetricsToken;
import koala.scheduler.api.SchedulerApi;
import koala.scheduler.kis.InformationService;
import koala.scheduler.metrics.SchedulerMetrics;
import koala.scheduler.storage.H2Store;
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

    public static SchedulerDaemon start(GridConfig grid, Path koalaHome) throws IOException {
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
        H2Store store = H2Store.open(settings.database());
        // remote sites relay their nodes' call-backs to the address where the scheduler serves nodes
        SiteAgents agents = new SiteAgents(grid, koalaHome, store,
                grid.hostAddress().orElse(InetAddress.getLoopbackAddress().getHostAddress()), settings.port());
        try {
            agents.attachOrStart();
            return serve(grid, koalaHome, settings, store, agents, logLevels,
                    koala.scheduler.storage.Backups.beside(store, settings.database(), InstantSource.system()));
        } catch (RuntimeException | IOException e) {
            // a scheduler that cannot start leaves nothing running behind it
            agents.close();
            store.close();
            throw e;
        }
    }

    private static SchedulerDaemon serve(GridConfig grid, Path koalaHome, SchedulerSettings settings, Store store,
                                         SiteAgents siteAgents, koala.scheduler.config.LogLevels logLevels,
                                         koala.scheduler.storage.Backups backups)
            throws IOException {
        Map<String, SiteAgentClient> agents = siteAgents.clients();
        InformationService kis = new InformationService(grid.sites().stream().map(SiteConfig::name).toList(), agents,
                siteAgents::unreachable, InstantSource.system(), Executors.newSingleThreadScheduledExecutor(daemon("kis")));
        awaitAgents(agents.values());
        kis.pollAll();
        URI url = URI.create("http://127.0.0.1:" + settings.port());
        // nodes call back on the grid's address: other hosts cannot reach this machine's loopback
        URI nodeUrl = grid.hostAddress().map(h -> URI.create("http://" + h + ":" + settings.port())).orElse(url);
        Map<String, SiteConfig> sites = new LinkedHashMap<>();
        grid.sites().forEach(s -> sites.put(s.name(), s));
        LocalLaunchers local = new LocalLaunchers(koalaHome, nodeUrl);
        // publishing the jars to a site and training the launcher's class archive take seconds: done
        // here, before the loop serves, never on the loop thread in the middle of a claim
        grid.sites().stream().filter(s -> !s.remote()).forEach(local::of);
        SchedulerLoop loop = new SchedulerLoop(Executors.newSingleThreadScheduledExecutor(daemon("scheduler")), store);
        Pilots pilots = new Pilots(siteAgents::agentFor, sites, site -> siteAgents.remoteLauncher(site).map(r -> new Pilots.Launcher(
                r.java(), r.classpath(), List.of(), r.schedulerUrl(), r.logDir(), a -> siteAgents.reachable(site, a)))
                .orElseGet(() -> local.of(sites.get(site))), settings.nodeGiveUp(), store.pilotTag(),
                Executors.newSingleThreadExecutor(daemon("relays")), siteAgents::unrelay, () -> loop.post(() -> { }));
        Map<String, Integer> nodes = new LinkedHashMap<>();
        grid.sites().forEach(s -> nodes.put(s.name(), s.nodes()));
        Submissions submissions = Submissions.threaded(pilots::submit, loop::post, store::afterCommit);
        SchedulerMetrics metrics = new SchedulerMetrics(sites.keySet());
        Scheduler scheduler = new Scheduler(settings, store, kis, nodes, pilots, submissions, FileCatalog.from(grid),
                InstantSource.system(), metrics);
        scheduler.onStart(() -> loop.post(() -> { }));
        // usage records are appended and forced to disk on a thread of their own; each acknowledged back on the loop
        AccountingFile accountingFile = new AccountingFile(settings.accounting());
        AccountingWriter accounting = new AccountingWriter(accountingFile,
                Executors.newSingleThreadScheduledExecutor(daemon("accounting")),
                id -> loop.post(() -> scheduler.accounting().written(id)), Duration.ofSeconds(30));
        scheduler.accounting().sink(accounting);
        koala.arbitration.ArbitrationSettings sharing = arbitration(grid);
        // the file in force: a SIGHUP may replace it (Reconfiguration)
        AtomicReference<GridConfig> inForce = new AtomicReference<>(grid);
        scheduler.share(sharing, site -> inForce.get().section("site." + site + ".provisioning"));
        Map<String, Map<String, Map<String, koala.common.grid.HostList>>> groups = new LinkedHashMap<>();
        sites.keySet().forEach(site -> groups.put(site, grid.nodeGroups(site)));
        scheduler.nodeGroups(groups);
        LOG.info("framework instances share a full grid by {}", sharing.describe());
        loop.call(() -> {
            recover(scheduler, agents, pilots, sites.keySet());
            return null;
        });
        // users on this host call through the socket, where the kernel names them; programs may use
        // loopback TCP with a token the scheduler signed
        Path socket = grid.schedulerSocket();
        Files.createDirectories(socket.getParent(), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        JsonHttpServer server = new JsonHttpServer(List.of(Endpoint.unix("unix", socket, "rw-rw-rw-"),
                Endpoint.loopback("local", settings.port())), 64);
        TokenKey key = TokenKey.in(koalaHome.resolve("token.key"));
        AuditLog audit = AuditLog.in(koalaHome.resolve("logs").resolve("audit.log"), InstantSource.system());
        Callers callers = new Callers(new Tokens(key), Admins.of(grid.value("admin.group").orElse("koala-admin")),
                InstantSource.system());
        SchedulerApi.Operations operations = operations(scheduler, loop, key, accountingFile, backups);
        SchedulerApi.register(server, operations, callers, audit);
        // Prometheus scrapes with the metrics token (or, on this host, as any identified caller)
        MetricsToken metricsToken = MetricsToken.at(metricsTokenFile(grid, koalaHome));
        SchedulerApi.registerMetrics(server, metrics::scrape, metricsToken.orCaller(callers));
        AtomicReference<HangupReload> hangup =
                new AtomicReference<>(HangupReload.NOT_ASKED);
        SchedulerApi.registerProcess(server, () -> {
            HangupReload found = hangup.get();
            return new SchedulerProcess(ProcessHandle.current().pid(), found.reloads(), found.warning());
        }, callers);
        List<JsonHttpServer> servers = new java.util.ArrayList<>(List.of(server));
        if (!nodeUrl.equals(url)) {
            // the grid's hosts reach only the nodes' routes, each call checked against the node's token
            JsonHttpServer nodeServer = new JsonHttpServer(new InetSocketAddress(InetAddress.getByName(nodeUrl.getHost()),
                    settings.port()), 32);
            SchedulerApi.registerNodes(nodeServer, operations);
            // and a site's Prometheus reaches /metrics there, with the metrics token only
            SchedulerApi.registerMetrics(nodeServer, metrics::scrape, metricsToken.alone());
            servers.add(nodeServer);
        }
        servers.forEach(JsonHttpServer::start);
        kis.start(settings.kisEvery());
        loop.every(Duration.ofSeconds(1), scheduler::tick);
        siteAgents.watch(Executors.newSingleThreadScheduledExecutor(daemon("agent-watch")), Duration.ofSeconds(5));
        RunnerSupervisor runners = supervise(grid, scheduler, loop, koalaHome);
        LOG.info("scheduler serving users on {} and {} (with a token), nodes on {}, with sites {}; its pilots are "
                + "named koala-{}-JOB-COMPONENT-RANK-aATTEMPT; metrics on {}/metrics for the token in {}", socket, url,
                nodeUrl, sites.keySet(), store.pilotTag(), nodeUrl, metricsToken.file());
        LOG.info("usage records of ended jobs and instances go to {}", accountingFile.path());
        Reconfiguration reconfiguration = new Reconfiguration(inForce, koalaHome, scheduler, loop, metricsToken, logLevels,
                Executors.newSingleThreadExecutor(daemon("config-reload")));
        return new SchedulerDaemon(store, siteAgents, kis, loop, pilots, submissions, servers, URI.create("unix:" + socket),
                runners, accounting, reconfiguration, hangup);
    }

    /** {@code scheduler.metrics.tokenFile}, {@code KOALA_HOME/metrics.token} by default. */
    static Path metricsTokenFile(GridConfig grid, Path koalaHome) {
        return grid.value("scheduler.metrics.tokenFile").map(Path::of).orElse(koalaHome.resolve("metrics.token"));
    }

    /** {@code scheduler.arbitration.*}; a bad value stops the start, naming the key and why. */
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
    private static RunnerSupervisor supervise(GridConfig grid, Scheduler scheduler, SchedulerLoop loop, Path koalaHome) {
        RunnerSupervisor.Instances instances = new RunnerSupervisor.Instances() {
            @Override
            public List<RunnerSupervisor.Watched> watched() {
                return loop.call(() -> scheduler.frameworks().watched());
            }

            @Override
            public void restarted(long id, String note) {
                loop.call(() -> {
                    scheduler.runnerRestarted(id, note);
                    return null;
                });
            }

            @Override
            public void failed(long id, String reason) {
                loop.call(() -> scheduler.runnerGaveUp(id, reason));
            }
        };
        RunnerSupervisor supervisor = new RunnerSupervisor(instances,
                new RunnerProcesses(InstantSource.system(), Duration.ofSeconds(30), RuntimeImage.publishedClasspath(koalaHome))
                        .archived(KoalaHome.shared(koalaHome).resolve("runtime"), grid.file(),
                                work -> daemon("runner-archive").newThread(work).start()), InstantSource.system(),
                Executors.newCachedThreadPool(daemon("runner-start")), grid.integer("scheduler.runnerRestarts", 3),
                grid.seconds("scheduler.runnerHung", Duration.ofSeconds(30)));
        supervisor.watch(Executors.newSingleThreadScheduledExecutor(daemon("runner-watch")), Duration.ofMillis(250));
        return supervisor;
    }

    /** Gives freshly started agents a moment to reach their cells; a site still down is not waited for. */
    private static void awaitAgents(java.util.Collection<SiteAgentClient> agents) {
        new koala.common.time.Poll(InstantSource.system(), Duration.ofMillis(200)).until(() -> agents.stream()
                .allMatch(a -> {
                    try {
                        return a.health().up();
                    } catch (ApiException e) {
                        return false;
                    }
                }), Duration.ofSeconds(15));
    }

    private static void recover(Scheduler scheduler, Map<String, SiteAgentClient> agents, Pilots pilots,
                                Iterable<String> sites) {
        scheduler.recovery().reload(scheduler.settings().keepEnded());
        scheduler.recovery().adoptUnconfirmedPilots();
        scheduler.accounting().recover();
        for (String site : sites) {
            if (!agents.containsKey(site)) {
                continue; // a remote site not reached yet; its orphans wait for the next start
            }
            for (koala.common.site.CellJob orphan : scheduler.recovery().orphanPilots(site)) {
                LOG.info("killing orphan pilot {} of {} on {}: no live node owns it", orphan.id(), orphan.owner(), site);
                pilots.kill(site, orphan.id(), orphan.owner(), "no node");
            }
        }
    }

    /** The API's operations, each run on {@code loop}; without an accounting file. */
    static SchedulerApi.Operations operations(Scheduler s, SchedulerLoop loop, TokenKey key) {
        return operations(s, loop, key, null, null);
    }

    /** The API's operations, each run on {@code loop} but the reading of {@code accounting}; taking no backups. */
    static SchedulerApi.Operations operations(Scheduler s, SchedulerLoop loop, TokenKey key, AccountingFile accounting) {
        return operations(s, loop, key, accounting, null);
    }

    /**
     * The API's operations, each run on {@code loop} but the reading of {@code accounting} (null: none kept)
     * and the database's backups (null: none taken), which wait only for the loop's unit of work in hand.
     */
    static SchedulerApi.Operations operations(Scheduler s, SchedulerLoop loop, TokenKey key, AccountingFile accounting,
                                              koala.scheduler.storage.Backups backups) {
        return new SchedulerApi.Operations() {
            @Override
            public Object submit(Caller c, SubmitRequest r) {
                Owners.mayOwn(c);
                return loop.call(() -> s.submit(r.file(), r.jdf(), c.user(), r.requestId()));
            }

            @Override
            public Object job(long id, boolean heldOnly) {
                return loop.look(() -> heldOnly ? s.heldNow(id) : s.status(id));
            }

            @Override
            public Object jobs() {
                return loop.call(s::list);
            }

            @Override
            public Object cancel(Caller c, long id) {
                return loop.call(() -> {
                    s.owners().check(c, id, "cancel");
                    return s.cancel(id);
                });
            }

            @Override
            public Object sites() {
                return loop.call(s::sites);
            }

            @Override
            public Object accounting(Caller c, String user, java.time.Instant since, Long instance, int limit) {
                String owner = Accounting.readable(c, user);
                if (accounting == null) {
                    throw new koala.common.failure.Unavailable("this scheduler keeps no accounting file");
                }
                try {
                    return accounting.read(new AccountingQuery(owner, since, instance, limit));
                } catch (IOException e) {
                    throw new koala.common.failure.Unavailable("cannot read the accounting file " + accounting.path()
                            + ": " + e.getMessage(), e);
                }
            }

            @Override
            public Object report(Caller c, long id, koala.common.api.ShareReport r) {
                return loop.call(() -> {
                    s.owners().check(c, id, "report on");
                    return s.shareReport(id, r);
                });
            }

            @Override
            public Object allocate(Caller c, AllocationRequest r) {
                Owners.mayOwn(c);
                return loop.call(() -> s.allocations().open(r.owner(), c.user(), r.requestId(), r.roles()));
            }

            @Override
            public Object grow(Caller c, long id, GrowRequest r) {
                return loop.call(() -> {
                    s.owners().check(c, id, "grow");
                    return s.allocations().grow(id, r);
                });
            }

            @Override
            public Object release(Caller c, long id, ReleaseRequest r) {
                return loop.call(() -> {
                    s.owners().check(c, id, "release nodes of");
                    return s.allocations().release(id, r.nodes(), r.reason());
                });
            }

            @Override
            public Object close(Caller c, long id) {
                return loop.call(() -> {
                    s.owners().check(c, id, "close");
                    return s.allocations().close(id);
                });
            }

            @Override
            public Object fail(Caller c, long id, String reason) {
                return loop.call(() -> {
                    s.owners().check(c, id, "fail");
                    return s.allocations().fail(id, reason);
                });
            }

            @Override
            public Object register(Caller c, FrameworkRegistration r) {
                return loop.call(() -> {
                    s.owners().check(c, r.allocation(), "register an instance on");
                    return s.frameworks().register(r);
                });
            }

            @Override
            public Object master(Caller c, long id, MasterAddress m) {
                return loop.call(() -> {
                    s.owners().check(c, id, "re-point the master of");
                    return s.frameworks().master(id, m);
                });
            }

            @Override
            public Object mpiStart(String node, koala.common.api.MpiStart r) {
                return java.util.Map.of("node", loop.call(() -> s.nodes().mpiStart(node, r.token(), r.host(),
                        r.command())));
            }

            @Override
            public void rotateTokenKey() {
                try {
                    key.rotate();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot rotate the token key: " + e.getMessage(), e);
                }
            }

            @Override
            public Object backup(String file) {
                if (backups == null) {
                    throw new koala.common.failure.Unavailable("this scheduler's database is not kept in a file");
                }
                koala.scheduler.storage.Backups.Backup b = backups.take(file);
                LOG.info("database backed up into {} ({} bytes)", b.file(), b.bytes());
                return b;
            }

            @Override
            public Object framework(long id) {
                return loop.call(() -> s.frameworks().get(id));
            }

            @Override
            public Object frameworks() {
                return loop.call(() -> s.frameworks().all());
            }

            @Override
            public NodeTask arrive(String node, NodeReport r) {
                return loop.call(() -> s.nodes().arrive(node, r.token(), r.host()));
            }

            @Override
            public NodeTask task(String node, String token) {
                return loop.look(() -> s.nodes().task(node, token));
            }

            @Override
            public NodeTask exited(String node, NodeReport r) {
                return loop.call(() -> s.nodes().exited(node, r.token(), r.exitStatus(), r.detail(),
                        r.cpuSeconds()));
            }

            @Override
            public void awaitChange(long millis) throws InterruptedException {
                loop.awaitChange(millis);
            }
        };
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
     * read off the loop, and the loop applies it between rounds.
     */
    public void reload() {
        reconfiguration.request();
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
        store.close();
    }
}
