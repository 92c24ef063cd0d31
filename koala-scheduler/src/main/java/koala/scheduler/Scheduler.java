package koala.scheduler;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeReport;
import koala.api.scheduler.SiteStatus;
import koala.common.failure.Conflict;
import koala.common.failure.InvalidField;
import koala.common.failure.OverLimit;
import koala.jdf.ClusterCatalog;
import koala.jdf.JdfParser;
import koala.jdf.JobDescription;
import koala.jdf.JobKind;
import koala.placement.Assignment;
import koala.placement.FileLocations;
import koala.placement.GridView;
import koala.placement.PlacementDecision;
import koala.placement.PlacementReason;
import koala.scheduler.claiming.ClaimRules;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.config.SchedulerSettings;
import koala.scheduler.kis.SiteInfo;
import koala.scheduler.metrics.GridEvents;
import koala.scheduler.metrics.GridReading;
import koala.scheduler.state.JobEvent;
import koala.scheduler.state.JobState;
import koala.scheduler.state.JobStateMachine;
import koala.scheduler.state.SideEffect;
import koala.scheduler.storage.JobRecord;
import koala.scheduler.storage.Store;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The scheduler's state and decisions. Every method runs on the scheduler's one loop thread
 * (see {@link SchedulerLoop}), so nothing here is locked; the HTTP API and the periodic tick reach
 * it only through that loop.
 */
final class Scheduler {
    private static final Logger LOG = LogManager.getLogger(Scheduler.class);

    /** Its live part changes when the configuration is re-read ({@link #retune}). */
    private SchedulerSettings settings;
    private final Store store;
    private final koala.scheduler.kis.SiteInfos kis;
    /** The sites as their agents report them, before {@link DeclaredGpus#over} hides what it must. */
    private final koala.scheduler.kis.SiteInfos reported;
    /** Each host's GPU devices: declared ({@code site.S.gpuDevices.H}), else 0..N-1. */
    private final DeclaredGpus declaredGpus;
    private final List<String> siteNames;
    private final Map<String, Integer> configuredNodes;
    private final Pilots pilots;
    private final Submissions submissions;
    /** The grid as KOALA sees it now: the sites' snapshots less its own books' nodes. */
    private final GridNow grid;
    private final InstantSource clock;
    private final JobBook book;
    private final PlacementQueue queue = new PlacementQueue();
    private final NodeDesk desk;
    private final Recovery recovery;
    private final Allocations allocations;
    private final Claimer claimer;
    private final Frameworks frameworks;
    private final Owners owners;
    private final PilotWatch watch;
    private final Accounting accounting;
    private final GridEvents events;
    private final GridReader reader = new GridReader();
    /** When the queued jobs will likely start, made off the loop from a snapshot every few seconds. */
    private final StartTimes startTimes = new StartTimes();
    private final KeptHistory<koala.estimate.RunHistory> keptRuns;
    private final KeptHistory<koala.estimate.StartHistory> keptCalibration;
    private final StartInputs startInputs;
    /** Which placement policy places a job, and a grow. */
    private final JobPolicies policies;
    private final KeptArbitrationBooks books;
    private Sharing sharing;
    /** A site's provisioning defaults (instances' weights, minimum shares, F_max), as {@link #share} was given them. */
    private java.util.function.Function<String, Map<String, String>> siteDefaults = site -> Map.of();
    /** Wakes the nodes waiting for their task: a job's components may start. */
    private Runnable started = () -> { };
    private Instant nextPlacement = Instant.EPOCH;
    private Instant nextSweep = Instant.EPOCH;
    private Instant nextEviction = Instant.EPOCH;
    private Instant nextRetention;
    /** How often ended jobs are let go of (memory) and forgotten (the store). */
    static final java.time.Duration EVICT_EVERY = java.time.Duration.ofMinutes(1);
    static final java.time.Duration FORGET_EVERY = java.time.Duration.ofHours(1);
    /**
     * When the first forgetting comes after a start: not in the first rounds, where its deletes (about 0.3 s on
     * PostgreSQL under load) held up the first answers of a scheduler that had just taken over.
     */
    static final java.time.Duration FORGET_FIRST_AFTER = java.time.Duration.ofMinutes(10);
    /** How often the cells are swept for pilots no node owns (a kill that failed, a crash). */

    /**
     * @param configuredNodes each site's {@code node.count}, in the configuration's order
     * @param submissions     where pilots are submitted, off this loop
     */
    Scheduler(SchedulerSettings settings, Store store, koala.scheduler.kis.SiteInfos kis, Map<String, Integer> configuredNodes,
              Pilots pilots, Submissions submissions, FileLocations files, InstantSource clock) {
        this(settings, store, kis, configuredNodes, pilots, submissions, files, clock, GridEvents.NONE);
    }

    /** As above, telling {@code events} what happens and, at the end of each round, how the grid stands. */
    Scheduler(SchedulerSettings settings, Store store, koala.scheduler.kis.SiteInfos kis, Map<String, Integer> configuredNodes,
              Pilots pilots, Submissions submissions, FileLocations files, InstantSource clock, GridEvents events) {
        this.settings = settings;
        this.events = events;
        this.store = store;
        this.siteNames = List.copyOf(configuredNodes.keySet());
        this.declaredGpus = new DeclaredGpus(settings.gpuDevices());
        this.reported = kis;
        kis = declaredGpus.over(kis); // a host whose declared devices SGE's count disagrees with: seen with no GPUs
        this.kis = kis;
        this.configuredNodes = Map.copyOf(configuredNodes);
        this.pilots = pilots;
        this.submissions = submissions;
        this.clock = clock;
        this.nextRetention = clock.instant().plus(FORGET_FIRST_AFTER);
        this.book = new JobBook(store, clock);
        this.grid = new GridNow(siteNames, kis, book, pilots, store::pilotTag, files);
        this.policies = new JobPolicies(book, pilots::network);
        this.watch = new PilotWatch(kis, clock, events);
        this.claimer = new Claimer(book, pilots, submissions, new ClaimRules(settings.claimTimeout(), settings.maxClaimFailures()),
                policies::forJob, j -> grid.viewFor(j.record().owner(), grid.view(grid.held(), j)), this::fire, clock, events,
                this::memoryPerCore);
        this.desk = new NodeDesk(book, claimer::check, this::checkRunning, pilots::forNode, pilots::slots, clock,
                events, this::gpuDevices);
        this.frameworks = new Frameworks(store, book, clock);
        frameworks.networks(pilots::network);
        desk.runners(frameworks::withRunnerInForce);
        this.owners = new Owners(book);
        this.accounting = new Accounting(book, store, frameworks, pilots::cores, clock);
        this.recovery = new Recovery(book, store, kis, queue, claimer::submitPilot, clock);
        this.allocations = new Allocations(book, store, new AllocationClaims(this, claimer, pilots, siteNames), policies,
                clock, settings.claimTimeout(), events);
        this.books = new KeptArbitrationBooks(store);
        this.keptRuns = new KeptHistory<>(store, "start.runHistory", koala.estimate.RunHistory.class,
                koala.estimate.RunHistory.empty());
        this.keptCalibration = new KeptHistory<>(store, "start.calibration", koala.estimate.StartHistory.class,
                koala.estimate.StartHistory.empty());
        startTimes.restore(keptRuns.read(), keptCalibration.read());
        this.startInputs = new StartInputs(siteNames, new StartInputs.Books() {
            @Override
            public java.util.Collection<Job> jobs() {
                return book.all();
            }

            @Override
            public GridView hosts() {
                return hostsView();
            }

            @Override
            public Optional<SiteInfo> site(String name) {
                return Scheduler.this.kis.site(name);
            }

            @Override
            public koala.placement.PlacementPolicy policyFor(Job job) {
                return Scheduler.this.policyFor(job);
            }

            @Override
            public List<Frameworks.Running> instances() {
                return frameworks.running(siteDefaults);
            }

            @Override
            public Optional<koala.api.scheduler.ShareReport> report(long instance) {
                return sharing().report(instance);
            }

            @Override
            public String pilotTag() {
                return store.pilotTag();
            }
        });
    }

    /**
     * The node groups the admin declared per site (site, kind, group, hosts): a constraint over the host
     * or such a group is then kept per host or group, each node's pilot pinned to its host.
     */
    void nodeGroups(Map<String, Map<String, Map<String, koala.grid.HostList>>> declared) {
        JobConstraints.GroupsOf groups = JobConstraints.GroupsOf.declared(declared);
        policies.groups(groups);
        frameworks.groups(groups);
    }

    /**
     * Shares the grid between framework instances by {@code settings} from now on; {@code siteDefaults}
     * gives a site's provisioning defaults (instances' weights and minimum shares).
     */
    void share(koala.arbitration.ArbitrationSettings settings,
               java.util.function.Function<String, Map<String, String>> siteDefaults) {
        this.siteDefaults = siteDefaults;
        sharing = new Sharing(settings, new SharedGrid(this, frameworks, allocations, siteDefaults), events);
        books.keep(sharing, siteNames);
        allocations.sharing(sharing);
        frameworks.shareLines((id, holds) -> sharing.line(id, holds, clock.instant()));
        frameworks.siteDefaults(siteDefaults);
    }

    /**
     * Takes what a re-read configuration changes while the scheduler runs: the live part of
     * {@code next} ({@link SchedulerSettings#withLive}), the Close-to-Files catalog and how framework
     * instances share a full grid. Queued jobs keep the policy they were queued with.
     */
    void retune(SchedulerSettings next, FileLocations catalog, koala.arbitration.ArbitrationSettings arbitration) {
        settings = settings.withLive(next);
        Instant sooner = clock.instant().plus(settings.sweepEvery());
        if (sooner.isBefore(nextSweep)) {
            nextSweep = sooner; // a shorter interval counts from now, not from the last sweep's longer one
        }
        grid.files(catalog);
        sharing().retune(arbitration);
    }

    /** The grid's sharing between framework instances (fcfs unless {@link #share} said otherwise). */
    Sharing sharing() {
        if (sharing == null) {
            share(koala.arbitration.ArbitrationSettings.DEFAULTS, site -> Map.of());
        }
        return sharing;
    }

    /** A runner's report on allocation {@code id}'s workers, counted for accounting; what sharing asks of it. */
    koala.api.scheduler.ShareOrders shareReport(long id, koala.api.scheduler.ShareReport report) {
        book.find(id).filter(j -> j.allocation() && j.state() == JobState.RUNNING)
                .ifPresent(j -> accounting.report(j, report));
        return sharing().report(id, report, clock.instant());
    }

    /** What wakes the nodes' long-polls when a job's components may start. */
    void onStart(Runnable wake) {
        this.started = wake;
    }

    SchedulerSettings settings() {
        return settings;
    }

    /** Its parts, for the daemon's wiring and its API: each one concern. */
    SchedulerParts parts() {
        return new SchedulerParts(this, allocations, frameworks, desk, owners, accounting, recovery);
    }

    // ---- jobs from users --------------------------------------------------------------------

    /**
     * Queues a job of {@code owner}'s. A request named {@code requestId} that was carried out before
     * (its answer lost to a time-out, say) is answered with the job it made, not made again; the name
     * used before for another file or JDF is a {@link koala.common.failure.Conflict} ({@link NamedRequests}).
     */
    JobView submit(String file, String text, String owner, String requestId) {
        NamedRequests.Asked asked = new NamedRequests.Asked(NamedRequests.Kind.SUBMIT,
                java.util.Map.of("file", file == null ? "-" : file, "jdf", text == null ? "" : text));
        Optional<Job> done = requestId == null ? Optional.empty()
                : new NamedRequests(store).earlier(owner, requestId, requestId, asked)
                .flatMap(id -> book.find(Long.parseLong(id)));
        if (done.isPresent()) {
            LOG.info("job {} of {}: submit {} asked again; answered with the job it made", done.get().id(), owner,
                    requestId);
            return done.get().view();
        }
        JobDescription description = JdfParser.parse(file, text, catalog());
        long queued = queuedOf(owner);
        if (queued >= settings.maxQueuedPerUser()) {
            throw new OverLimit(owner + " has " + queued + " jobs queued, the most one user may "
                    + "(scheduler.maxQueuedPerUser); wait for some to start, or cancel some");
        }
        refuseFramework(description, file);
        String policy = JobPolicies.name(description.placement(), description.kind(), settings.defaultPolicy());
        JobRecord record = new JobRecord(book.nextId(), description.name(), file, text, description.kind().name(),
                JobState.QUEUED, policy, description.priority(), 0, 0, "waiting for the first placement round",
                clock.instant(), owner);
        Job job = new Job(record, description);
        if (requestId != null) {
            new NamedRequests(store).remember(owner, requestId, asked, Long.toString(job.id()), clock.instant());
        }
        book.add(job);
        book.record(job, null, JobState.QUEUED, JobEvent.SUBMITTED, "from " + file + " by " + owner);
        queue.add(job.id(), record.priority());
        events.jobSubmitted();
        LOG.info("job {} ({}, {}, {} nodes) of {} queued, policy {}", job.id(), record.name(), record.kind(),
                description.totalNodes(), owner, policy);
        nextPlacement = Instant.EPOCH;
        return job.view();
    }

    /** How many of {@code owner}'s jobs wait in the queue: counted over the queue, not every job in memory. */
    private long queuedOf(String owner) {
        return queue.inOrder().stream().map(book::live).flatMap(Optional::stream)
                .filter(j -> j.state() == JobState.QUEUED && owner.equals(j.record().owner())).count();
    }

    JobView status(long id) {
        return withEstimate(book.get(id));
    }

    /** The job with only the nodes it holds now and no history: what a runner follows every second. */
    JobView heldNow(long id) {
        return book.get(id).heldView();
    }

    List<JobView> list() {
        return book.all().stream().map(this::withEstimate).toList();
    }

    /** The job's view, with its latest start estimate while it waits for its nodes. */
    private JobView withEstimate(Job job) {
        JobView view = job.view();
        boolean waits = job.state() == JobState.QUEUED || job.state() == JobState.CLAIMING;
        return waits ? startTimes.viewOf(job.id()).map(view::withEstimate).orElse(view) : view;
    }

    JobView cancel(long id) {
        Job job = book.get(id);
        if (job.state().ended()) {
            return job.view();
        }
        fire(job, JobEvent.CANCEL, "cancelled by the user");
        return job.view();
    }

    /**
     * Every configured site, with its size as last seen, or as configured before it was ever seen, and
     * its network (an MPI job pinned to sites on two networks is refused, not queued). A site seen
     * smaller than it was lately (a host re-registering after a restart) counts at its larger size: a
     * job that fits it waits rather than being refused.
     */
    private ClusterCatalog catalog() {
        Map<String, Integer> nodes = new TreeMap<>(configuredNodes);
        Map<String, String> networks = new TreeMap<>();
        for (String site : nodes.keySet()) {
            networks.put(site, pilots.network(site));
        }
        List<koala.jdf.HostCapacity> hosts = new ArrayList<>();
        for (String site : siteNames) {
            largest(site).ifPresent(i -> {
                nodes.put(site, i.snapshot().slotsTotal());
                hosts.addAll(SiteHosts.capacities(site, i.snapshot()));
            });
        }
        return new ClusterCatalog(nodes, null, networks).withHosts(hosts);
    }

    /** The site as seen now, or as it was lately when that was larger ({@link koala.scheduler.kis.SiteInfos#fullest}). */
    private Optional<SiteInfo> largest(String site) {
        Optional<SiteInfo> now = kis.site(site).filter(SiteInfo::up);
        Optional<SiteInfo> most = reported.fullest(site).filter(SiteInfo::up);
        if (most.isPresent() && (now.isEmpty() || most.get().snapshot().slotsTotal() > now.get().snapshot().slotsTotal())) {
            return most;
        }
        return now;
    }

    // ---- when queued jobs will start ------------------------------------------------------------

    /** The grid as a start estimate starts from now ({@link StartInputs}), with {@code queued} as the queue. */
    koala.estimate.GridSnapshot startSnapshot(List<Job> queued) {
        return startInputs.snapshot(clock.instant(), queued);
    }

    /** A framework JDF is no job: its instance is started with its framework runner. */
    private static void refuseFramework(JobDescription description, String file) {
        if (description.kind() == JobKind.FRAMEWORK) {
            throw InvalidField.worded("jdf", file + ": framework jobs are started with their framework runner");
        }
    }

    /** The id a dry run's job has in its snapshot: no job of the books has it (theirs start at 1). */
    static final long DRY_RUN = 0;

    /**
     * The grid as the start estimate of a job that is not queued starts from: {@code text} parsed and checked
     * as a submit's is (a bad JDF is refused the same way), the job last in its priority's part of the queue,
     * as {@link #DRY_RUN}. Nothing is queued, nothing kept.
     */
    koala.estimate.GridSnapshot dryRunSnapshot(String file, String text, String owner) {
        JobDescription description = JdfParser.parse(file, text, catalog());
        refuseFramework(description, file);
        String policy = JobPolicies.name(description.placement(), description.kind(), settings.defaultPolicy());
        Job job = new Job(new JobRecord(DRY_RUN, description.name(), file, text, description.kind().name(),
                JobState.QUEUED, policy, description.priority(), 0, 0, "a dry run", clock.instant(), owner), description);
        List<Job> queued = new ArrayList<>(queue.inOrder().stream().map(book::get).toList());
        queued.add("high".equals(description.priority()) ? queue.highSize() : queued.size(), job);
        return startSnapshot(queued);
    }

    /**
     * Stops the start on a GPU declaration SGE's count disagrees with ({@link DeclaredGpus#checkAtStart}), once the
     * sites were first seen: whoever builds a scheduler calls it then (a take-over looks while it reloads its jobs).
     */
    void checkDeclaredGpus() {
        declaredGpus.checkAtStart(siteNames, reported);
    }

    StartTimes startTimes() {
        return startTimes;
    }

    /** The start estimates as the metrics show them, now (read off the loop). */
    koala.scheduler.metrics.StartFigures startFigures() {
        return startTimes.figures(clock.instant());
    }

    /** Job {@code id} as the books hold it. */
    Job job(long id) {
        return book.get(id);
    }

    /** A job that ran ends: what it ran is history its owner's next runs of the same name are guessed from. */
    private void ran(Job job, JobState from) {
        if (from == JobState.RUNNING) {
            java.time.Duration runtime = java.time.Duration.between(StartSnapshots.startedAt(job, clock.instant()),
                    clock.instant());
            startTimes.ran(job.record().owner(), job.record().name(), runtime, StartSnapshots.wallTime(job.description()));
        }
    }

    // ---- the periodic round -----------------------------------------------------------------

    /**
     * One round: follow the pilots, check claims and running jobs, and place what waits; then tell
     * how long it took and how the grid stands now.
     */
    void tick() {
        Instant start = clock.instant();
        round();
        Instant end = clock.instant();
        events.roundEnded(java.time.Duration.between(start, end), read(reader, end));
    }

    /** The grid as it stands now, read by {@code reader} (which keeps the instances' idle time between readings). */
    GridReading read(GridReader reader, Instant at) {
        return reader.read(new GridReader.Grid(book.all(), queue, sites(), frameworks.running(siteDefaults), sharing(),
                allocations), at);
    }

    private void round() {
        watch.followPilots(book).forEach(this::askHowItEnded);
        for (Job job : book.list()) {
            if (job.state() == JobState.CLAIMING) {
                claimer.check(job);
            } else if (job.state() == JobState.RUNNING && job.allocation()) {
                allocations.checkClaims(job);
            } else if (job.state() == JobState.RUNNING) {
                checkRunning(job);
            }
        }
        if (!clock.instant().isBefore(nextPlacement)) {
            placeQueued();
            nextPlacement = clock.instant().plus(settings.placementEvery());
        }
        if (startTimes.due(clock.instant())) {
            startTimes.refresh(startSnapshot(queue.inOrder().stream().map(book::get).toList()));
        }
        keptRuns.keep(startTimes.history(), clock.instant());
        keptCalibration.keep(startTimes.startHistory(), clock.instant());
        if (!clock.instant().isBefore(nextSweep)) {
            sweepOrphanPilots();
            nextSweep = clock.instant().plus(settings.sweepEvery());
        }
        keepBounded();
        sharing().tick(clock.instant());
        accounting.tick();
    }

    /** Ended jobs leave memory after {@code keepEnded} and the store after {@code retention}. */
    private void keepBounded() {
        Instant now = clock.instant();
        if (!now.isBefore(nextEviction)) {
            int evicted = book.evict(now.minus(settings.keepEnded()));
            if (evicted > 0) {
                LOG.debug("{} ended jobs left memory (the database keeps them)", evicted);
            }
            nextEviction = now.plus(EVICT_EVERY);
        }
        if (!now.isBefore(nextRetention)) {
            int forgotten = store.forget(now.minus(settings.retention()));
            if (forgotten > 0) {
                LOG.info("{} jobs ended over {} days ago were forgotten (scheduler.retention)", forgotten,
                        settings.retention().toDays());
            }
            nextRetention = now.plus(FORGET_EVERY);
        }
    }

    /** SGE's pilots must equal KOALA's nodes: a pilot of ours that no node owns is killed again. */
    private void sweepOrphanPilots() {
        for (String site : siteNames) {
            for (koala.api.site.CellJob orphan : recovery.orphansSeenTwice(site)) {
                LOG.info("killing pilot {} of {} on {}: no live node owns it", orphan.id(), orphan.owner(), site);
                pilots.kill(site, orphan.id(), orphan.owner(), "no node");
            }
        }
    }

    /**
     * Places the queued jobs in the queue's order. The nodes the books hold are counted once a
     * round, and each job's own taken out before it is placed and put back after, as they are then:
     * counted again for every queued job, they made a round cost queued jobs times jobs in memory.
     */
    private void placeQueued() {
        GridNow.Held held = grid.held();
        for (long id : queue.inOrder()) {
            Job job = book.get(id);
            held.count(job, -1);
            PlacementDecision decision = policyFor(job).place(NodeNeeds.of(job.id(), job.description()),
                    grid.viewFor(job.record().owner(), grid.view(held, job)));
            if (decision instanceof PlacementDecision.Placed placed) {
                queue.remove(id);
                String where = describe(placed.assignments()) + (placed.softViolations().isEmpty() ? ""
                        : "; soft constraints broken, nothing else fitted: " + String.join("; ", placed.softViolations()));
                update(job, job.record().waiting("claiming nodes: " + where));
                startTimes.placed(job.id(), clock.instant());
                fire(job, JobEvent.PLACED, where, placed.assignments());
            } else {
                notPlaced(job, (PlacementDecision.NotPlaced) decision);
            }
            held.count(job, 1);
        }
    }

    private void notPlaced(Job job, PlacementDecision.NotPlaced decision) {
        List<String> unheard = siteNames.stream().filter(s -> kis.site(s).isEmpty()).toList();
        String why = waitingReason(decision.reasons(), unheard, siteNames.size())
                + GridNow.singleTenantNote(closedTo(job.record().owner()));
        update(job, job.record().triedOnce(why));
        if (job.record().placeTries() >= settings.maxPlaceTries()) {
            queue.remove(job.id());
            fire(job, JobEvent.GAVE_UP_PLACING, "not placed in " + job.record().placeTries() + " tries: " + why);
        }
    }

    /**
     * Why a job waits: the policy's reasons, naming the sites the information service has not heard
     * from yet (the policy saw none of their nodes); "no site information yet" when that is every site.
     */
    static String waitingReason(List<PlacementReason> reasons, List<String> unheard, int sites) {
        if (unheard.size() == sites) {
            return "no site information yet";
        }
        String why = reasons.stream().map(PlacementReason::text).collect(Collectors.joining("; "));
        return unheard.isEmpty() ? why : why + " (no information yet from " + String.join(", ", unheard) + ")";
    }

    /** The job's placement policy, kept with the placement constraints in force ({@link JobPolicies#forJob}). */
    koala.placement.PlacementPolicy policyFor(Job job) {
        return policies.forJob(job);
    }

    /**
     * Asks, off the loop, how a lost node's pilot ended, and notes it in its job's history: SGE stops
     * a pilot whose node used more memory than it claimed, and the user should read that, not only
     * that the node was lost.
     */
    private void askHowItEnded(PilotWatch.Lost lost) {
        NodeClaim node = lost.node();
        String owner = lost.job().record().owner();
        submissions.ask(node.site(), () -> pilots.endedAs(node, owner), status -> {
            String reason = status == null ? null : SiteHosts.howItEnded(lost.job().description(), node, status);
            if (reason != null && !reason.isBlank()) {
                LOG.info("job {}: node {}'s pilot {} on {} ended: {}", lost.job().id(), node.id(), node.pilot(),
                        node.site(), reason);
                book.note(lost.job(), JobEvent.PILOT_ENDED, "node " + node.id() + (node.host() == null ? ""
                        : " on " + node.host()) + ": " + reason);
            }
        });
    }

    /** What a node that asks for no memory claims per core on {@code site} ({@link SiteHosts#memoryPerCore}). */
    long memoryPerCore(String site) {
        return kis.site(site).map(SiteInfo::snapshot).map(SiteHosts::memoryPerCore).orElse(0L);
    }

    /**
     * The GPU devices of {@code host} of {@code site}, as its agent last saw it: those declared for it, else
     * 0..N-1; empty where none, not known, or the declaration disagrees with SGE's count ({@link DeclaredGpus}).
     */
    private List<Integer> gpuDevices(String site, String host) {
        return kis.site(site).map(SiteInfo::snapshot).map(snapshot -> declaredGpus.devices(site, snapshot, host))
                .orElse(List.of());
    }

    /** Every site as the information service and KOALA's books see it, for {@code koala sites}. */
    List<SiteStatus> sites() {
        return SiteReport.of(siteNames, kis, book.all(), gridView());
    }

    /** The grid as {@code owner}'s work may use it ({@link GridNow#viewFor}). */
    GridView gridViewFor(String owner) {
        return grid.viewFor(owner);
    }

    /**
     * The grid as {@code owner}'s work may use it, for nodes that each ask for {@code perNode}: host by
     * host when they ask for more than a core ({@link GridNow#byResources}), else in idle nodes.
     */
    GridView gridViewFor(String owner, koala.placement.Resources perNode) {
        return perNode.equals(koala.placement.Resources.NODE) ? grid.viewFor(owner)
                : grid.viewFor(owner, grid.byResources(grid.held()));
    }

    /** The single-tenant sites closed to {@code owner}'s work now ({@link GridNow#closedTo}). */
    List<String> closedTo(String owner) {
        return grid.closedTo(owner);
    }

    GridView gridView() {
        return grid.view();
    }

    /** The grid host by host, with what is free of each host's resources now ({@link GridNow#byResources}). */
    GridView hostsView() {
        return grid.byResources(grid.held());
    }

    void checkRunning(Job job) {
        if (job.state() != JobState.RUNNING || job.allocation()) {
            return; // an allocation's nodes come and go; only its owner ends it
        }
        Optional<NodeClaim> lost = job.nodes().stream().filter(n -> n.state() == NodeState.LOST).findFirst();
        Optional<NodeClaim> mpiFailed = job.description().mpi() ? job.nodes().stream()
                .filter(n -> n.state() == NodeState.EXITED && n.exitStatus() != 0).findFirst() : Optional.empty();
        if (lost.isPresent()) {
            fire(job, JobEvent.BROKE, "node " + lost.get().id() + " on " + lost.get().site() + " was lost");
        } else if (mpiFailed.isPresent() && !job.allExited()) {
            // one MPI world: a daemon or mpirun that failed leaves the others waiting for it
            fire(job, JobEvent.BROKE, howItEnded(mpiFailed.get()) + " on " + mpiFailed.get().host()
                    + ": the MPI world cannot go on without it");
        } else if (job.allExited()) {
            List<NodeClaim> failed = job.nodes().stream().filter(n -> n.state() == NodeState.EXITED
                    && n.exitStatus() != 0).toList();
            if (failed.isEmpty()) {
                fire(job, JobEvent.COMPLETED, "every component ended with status 0");
            } else {
                fire(job, JobEvent.BROKE, failed.stream().map(Scheduler::howItEnded).collect(Collectors.joining(", ")));
            }
        }
    }

    private static String howItEnded(NodeClaim node) {
        return node.exitStatus() == NodeReport.PAST_WALL_TIME
                ? "node " + node.id() + " ran past its component's maxWallTime and was stopped"
                : "node " + node.id() + " exited with " + node.exitStatus();
    }

    // ---- transitions ------------------------------------------------------------------------

    void fire(Job job, JobEvent event, String reason) {
        fire(job, event, reason, List.of());
    }

    /**
     * Moves the job by the transition table and carries out every side effect the transition names,
     * in the table's order; {@code placed} are the assignments a placement claims.
     */
    private void fire(Job job, JobEvent event, String reason, List<Assignment> placed) {
        JobStateMachine.Transition t = JobStateMachine.on(job.state(), event).orElseThrow(() -> new Conflict(
                "job " + job.id() + " is " + job.state() + ": cannot " + event.name().toLowerCase()));
        if (t.effects().contains(SideEffect.RECORD_USAGE)) {
            accounting.ending(job); // marked before its end is saved: a crash in between still gets it a record
        }
        update(job, job.record().withState(t.to()));
        record(job, t.from(), t.to(), event, reason);
        LOG.info("job {}: {} -> {} ({}): {}", job.id(), t.from(), t.to(), event, reason);
        for (SideEffect effect : t.effects()) {
            // a switch expression: a side effect added to the table does not compile until it is carried out here
            Runnable carryOut = switch (effect) {
                case CLAIM_NODES -> () -> claimer.claim(job, placed);
                // its launchers, waiting in long-polls, are woken to fetch their commands
                case START_COMPONENTS -> started;
                case RELEASE_NODES -> () -> release(job);
                case REQUEUE -> () -> requeue(job, reason);
                // last: the nodes given back, their spans have ended
                case RECORD_USAGE -> () -> accounting.ended(job);
            };
            carryOut.run();
        }
        if (t.to().ended()) {
            queue.remove(job.id());
            if (!job.allocation()) {
                events.jobEnded(t.to());
                ran(job, t.from());
                startTimes.forget(job.id());
            }
            runnerUrls(job).forEach(pilots::runnerGone); // its relays on remote head nodes end with it
        }
    }

    /** The runners' addresses the job's components were given (a framework instance's: one). */
    private static java.util.Set<String> runnerUrls(Job job) {
        return job.description().components().stream().map(c -> c.environment() == null ? null
                        : c.environment().get(koala.api.runner.RunnerClient.URL_VARIABLE))
                .filter(java.util.Objects::nonNull).collect(Collectors.toSet());
    }

    /** The runner of instance {@code id} was started again (by the supervisor): into its history, and counted. */
    void runnerRestarted(long id, String note) {
        allocations.note(id, JobEvent.RUNNER_RESTARTED, note);
        events.runnerRestarted(id);
    }

    /** The runner of instance {@code id} cannot be started again: the instance fails with {@code reason}. */
    JobView runnerGaveUp(long id, String reason) {
        events.runnerGaveUp(id);
        return allocations.fail(id, reason);
    }

    private void requeue(Job job, String reason) {
        update(job, job.record().claimsReset().waiting("back in the queue: " + reason));
        queue.add(job.id(), job.record().priority());
    }

    private void release(Job job) {
        for (NodeClaim node : job.heldNodes()) {
            pilots.kill(node, job.record().owner());
            save(job, node.with(NodeState.RELEASED));
        }
    }

    private void record(Job job, JobState from, JobState to, JobEvent event, String reason) {
        book.record(job, from, to, event, reason);
    }

    private void update(Job job, JobRecord next) {
        book.update(job, next);
    }

    private void save(Job job, NodeClaim node) {
        book.save(job, node);
    }

    static String describe(List<Assignment> assignments) {
        return assignments.stream().map(a -> "component " + a.component() + ": " + a.nodes() + " on " + a.site())
                .collect(Collectors.joining(", "));
    }
}
