package koala.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import koala.api.site.AgentHealth;
import koala.api.site.CellSnapshot;
import koala.api.site.QueueInstance;
import koala.placement.FileLocations;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.config.SchedulerSettings;
import koala.scheduler.kis.SiteInfo;
import koala.scheduler.storage.H2Store;

/**
 * A scheduler on made-up sites, for worked examples: a clock the test moves, the real store in
 * memory, sites whose one-slot nodes local users may occupy, and pilots that are accepted (or
 * refused) at once and start only when the test says their node arrived.
 */
final class TestGrid implements AutoCloseable {
    /** Moved by the test. */
    static final class Clock implements InstantSource {
        private Instant now = Instant.parse("2026-11-25T10:00:00Z");

        @Override
        public Instant instant() {
            return now;
        }

        void advance(Duration d) {
            now = now.plus(d);
        }
    }

    final Clock clock = new Clock();
    final H2Store store = H2Store.inMemory();
    Scheduler scheduler;
    /** Submissions held back while {@link #hold} is set, to be run by {@link #release()}. */
    final List<Runnable> held = new ArrayList<>();
    boolean hold;
    /** Jobs in each site's cell besides what KOALA's books hold (pilots left by a crash, another scheduler's). */
    final Map<String, List<koala.api.site.CellJob>> cellJobs = new LinkedHashMap<>();
    private final Duration claimTimeout;
    /** Pilots submitted, by node id, in order. */
    final List<String> submitted = new ArrayList<>();
    /** What each node's last pilot claimed of its host, as the scheduler sends it to the site's agent, by node id. */
    final Map<String, koala.api.site.PilotNeeds> needs = new LinkedHashMap<>();
    /** Sites whose hosts report their resources, with those hosts (free as given, less KOALA's arrived nodes). */
    private final Map<String, List<koala.api.site.HostInfo>> hosts = new LinkedHashMap<>();
    private final Map<String, Integer> sizes;
    private final Map<String, Integer> localUse = new LinkedHashMap<>();
    private final AtomicInteger pilots = new AtomicInteger();
    private String refusing;
    /** When the sites' snapshots were taken (default: long ago, so no pilot is ever missed from them). */
    Instant snapshotAt = Instant.EPOCH;
    /** Slots of each host of a site: a site of N nodes has N / hostSlots hosts (default: a host per node). */
    int hostSlots = 1;
    /** The GPU devices the configuration declares, by site, then host ({@code site.S.gpuDevices.H}), as {@link #start} reads them. */
    Map<String, Map<String, List<Integer>>> gpuDevices = Map.of();
    /** Each site as the information service saw it at its largest lately, where {@link #keepFullest} kept it. */
    private final Map<String, SiteInfo> fullest = new LinkedHashMap<>();
    /** How often the nodes' long-polls were woken for a job's start. */
    int woken;
    /** What the scheduler counts and reads, as {@code GET /metrics} shows it; new with each {@link #start()}. */
    koala.scheduler.metrics.SchedulerMetrics metrics;

    /** @param sizes each site's nodes, in the configuration's order */
    TestGrid(Map<String, Integer> sizes, Duration claimTimeout) {
        this.sizes = sizes;
        this.claimTimeout = claimTimeout;
        this.scheduler = start();
    }

    /** A scheduler on this grid's store: a new one is what a restart after a crash gets. */
    Scheduler start() {
        SchedulerSettings settings = new SchedulerSettings(7400, Duration.ofSeconds(1), 150, claimTimeout, 3,
                "worst-fit", Duration.ofSeconds(1), Duration.ofMinutes(5), null, 1000, Duration.ofMinutes(10),
                Duration.ofDays(30), null, SchedulerSettings.SWEEP_EVERY, gpuDevices);
        Pilots none = new Pilots((site, owner) -> null, remote, site -> new Pilots.Launcher("java", List.of(),
                List.of(), List.of(), "http://koala-host:7400", "/tmp", url -> url), Duration.ofMinutes(5), store.pilotTag(),
                Runnable::run, (site, url) -> unrelayed.add(site + " " + url), () -> { });
        Submissions submissions = Submissions.on((node, owner, claim) -> {
            if (node.site().equals(refusing)) {
                throw new IllegalStateException("cell " + refusing + " refuses pilots");
            }
            submitted.add(node.id());
            needs.put(node.id(), none.needs(node, owner, claim));
            return Integer.toString(pilots.incrementAndGet());
        }, work -> {
            if (hold) {
                held.add(work);
            } else {
                work.run();
            }
        }, Runnable::run);
        metrics = new koala.scheduler.metrics.SchedulerMetrics(sizes.keySet());
        koala.scheduler.kis.SiteInfos kis = new koala.scheduler.kis.SiteInfos() {
            @Override
            public Optional<SiteInfo> site(String site) {
                return unreached.contains(site) ? Optional.empty() : Optional.of(info(site));
            }

            @Override
            public Optional<SiteInfo> fullest(String site) {
                return fullest.containsKey(site) ? Optional.of(fullest.get(site)) : site(site);
            }
        };
        Scheduler started = new Scheduler(settings, store, kis, sizes, none, submissions,
                FileLocations.NONE, clock, metrics);
        started.checkDeclaredGpus();
        started.onStart(() -> woken++);
        started.parts().accounting().sink(sink.apply(started));
        started.parts().accounting().counts(metrics);
        return started;
    }

    /** Usage records made, in order; each acknowledged at once, as a writer that never fails would. */
    final List<koala.api.scheduler.UsageRecord> accounted = new ArrayList<>();
    /** Usage records replayed after a restart. */
    final List<koala.api.scheduler.UsageRecord> replayed = new ArrayList<>();
    /** Where a scheduler this grid starts sends its usage records (by default, {@link #accounted}). */
    java.util.function.Function<Scheduler, koala.scheduler.accounting.UsageSink> sink = s -> new koala.scheduler.accounting.UsageSink() {
        @Override
        public void append(koala.api.scheduler.UsageRecord record) {
            accounted.add(record);
            s.parts().accounting().written(record.id());
        }

        @Override
        public void replay(List<koala.api.scheduler.UsageRecord> records) {
            replayed.addAll(records);
        }
    };

    /** {@code site}'s nodes have {@code cores} cores each ({@code site.S.node.cores}); the scheduler is started anew. */
    TestGrid cores(String site, int cores) {
        java.nio.file.Path none = java.nio.file.Path.of("/nonexistent");
        remote.put(site, new koala.grid.SiteConfig(site, new koala.grid.CellEnvironment(none, site, 6444,
                6445, none), "koala", 0, "", sizes.get(site), new koala.grid.DrmaaInstall(none, none,
                Optional.empty()), Optional.empty(), Optional.empty(), cores));
        scheduler = start();
        return this;
    }

    /**
     * {@code site}'s node is a whole host of {@code slots} SGE slots ({@code site.S.node.slots}, its
     * {@code node.nativeSpec} claiming one); the scheduler is started anew.
     */
    TestGrid slots(String site, int slots) {
        java.nio.file.Path none = java.nio.file.Path.of("/nonexistent");
        remote.put(site, new koala.grid.SiteConfig(site, new koala.grid.CellEnvironment(none, site, 6444,
                6445, none), "koala", 0, "-l exclusive=true", sizes.get(site), new koala.grid.DrmaaInstall(none,
                none, Optional.empty()), Optional.empty(), Optional.empty(), slots, slots));
        scheduler = start();
        return this;
    }

    /**
     * Sites configured here: those reached over SSH, each on its own network and running every user's
     * pilots as one account, and local ones given their cores.
     */
    private final Map<String, koala.grid.SiteConfig> remote = new LinkedHashMap<>();

    /** Makes {@code sites} remote ones (before anything is submitted: the scheduler is started anew). */
    TestGrid remote(String... sites) {
        for (String site : sites) {
            java.nio.file.Path none = java.nio.file.Path.of("/nonexistent");
            remote.put(site, new koala.grid.SiteConfig(site, new koala.grid.CellEnvironment(none, site,
                    6444, 6445, none), "koala", 0, "", sizes.get(site), new koala.grid.DrmaaInstall(none, none,
                    Optional.empty()), Optional.of(new koala.grid.SshConfig(site + "-head", 22, "koala", none,
                    none, false, "/tmp", "java", Duration.ofMinutes(10), Optional.empty()))));
        }
        scheduler = start();
        return this;
    }

    /** The relays on remote head nodes closed, each "SITE URL": the runner's instance ended. */
    final List<String> unrelayed = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Sites the information service hears nothing from now (their link or agent down). */
    final java.util.Set<String> unreached = new java.util.HashSet<>();

    /** Runs the submissions held back. */
    void release() {
        List<Runnable> now = List.copyOf(held);
        held.clear();
        now.forEach(Runnable::run);
    }

    /**
     * {@code site}'s agent reports these hosts with their resources (one queue instance each, of the
     * host's cores); what is free of them is given, as SGE's consumables would show it.
     */
    TestGrid hosts(String site, koala.api.site.HostInfo... infos) {
        hosts.put(site, List.of(infos));
        return this;
    }

    /** A host of {@code cores} cores, {@code memoryGib} GiB and {@code gpus} GPUs, all free. */
    static koala.api.site.HostInfo host(String name, int cores, int memoryGib, int gpus) {
        long mib = memoryGib * 1024L;
        return new koala.api.site.HostInfo(name, "lx-amd64", cores, 0.0, memoryGib + "G", "0", new koala.api.site.HostResources(
                cores, cores, mib, mib, koala.api.site.HostResources.MemorySource.CONSUMABLE, gpus, gpus));
    }

    /** Local users' jobs take {@code slots} of {@code site}'s nodes. */
    TestGrid localUsers(String site, int slots) {
        localUse.put(site, slots);
        return this;
    }

    /** Pilots of {@code site} are refused from now on (null: none). */
    void refuse(String site) {
        refusing = site;
    }

    /** The scheduler's allocations. */
    Allocations allocations() {
        return scheduler.parts().allocations();
    }

    /** The scheduler's node desk: what the nodes call. */
    NodeDesk nodes() {
        return scheduler.parts().nodes();
    }

    /** The scheduler's FrameworkJobManager. */
    Frameworks frameworks() {
        return scheduler.parts().frameworks();
    }

    /** What the scheduler reloads after a crash. */
    Recovery recovery() {
        return scheduler.parts().recovery();
    }

    /** The scheduler's usage records. */
    Accounting accounting() {
        return scheduler.parts().accounting();
    }

    /** Moves the clock and runs a round. */
    void tick(Duration after) {
        clock.advance(after);
        scheduler.tick();
    }

    /** Every node of the job that is waiting for its pilot arrives on a host of its site. */
    void arrive(long job) {
        for (NodeClaim n : store.nodes(job)) {
            if (n.state() == koala.scheduler.claiming.NodeState.SUBMITTED) {
                nodes().arrive(n.id(), n.token(), n.host() != null ? n.host() : n.site() + "-n" + (n.rank() + 1));
            }
        }
    }

    /** What a scrape shows now, in Prometheus text 0.0.4. */
    String scrape() {
        return new String(metrics.scrape(null).body(), java.nio.charset.StandardCharsets.UTF_8);
    }

    List<String> events(long job) {
        return scheduler.status(job).history().stream().map(t -> t.event()).toList();
    }

    /** {@code site} as it is now is what the information service keeps as its largest lately. */
    void keepFullest(String site) {
        fullest.put(site, info(site));
    }

    private SiteInfo info(String site) {
        if (hosts.containsKey(site)) {
            List<QueueInstance> queues = hosts.get(site).stream().map(h -> new QueueInstance("all.q@" + h.name(), h.name(),
                    h.resources().cores(), h.resources().cores() - h.resources().coresFree(), 0, true, "")).toList();
            return new SiteInfo(site, new AgentHealth(site, site, "UP", null, Instant.EPOCH, "SGE", 0),
                    new CellSnapshot(site, snapshotAt, hosts.get(site), queues, cellJobs.getOrDefault(site, List.of())),
                    null, Instant.EPOCH);
        }
        List<QueueInstance> queues = new ArrayList<>();
        int used = localUse.getOrDefault(site, 0);
        for (int i = 1; i <= sizes.get(site) / hostSlots; i++) {
            int taken = Math.max(0, Math.min(hostSlots, used - (i - 1) * hostSlots));
            queues.add(new QueueInstance("all.q@" + site + "-n" + i, site + "-n" + i, hostSlots, taken, 0, true, ""));
        }
        CellSnapshot snapshot = new CellSnapshot(site, snapshotAt, List.of(), queues,
                cellJobs.getOrDefault(site, List.of()));
        return new SiteInfo(site, new AgentHealth(site, site, "UP", null, Instant.EPOCH, "SGE", 0), snapshot, null,
                Instant.EPOCH);
    }

    @Override
    public void close() {
        store.close();
    }
}
