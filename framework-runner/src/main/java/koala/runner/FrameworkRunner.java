package koala.runner;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import koala.common.api.JobView;
import koala.common.api.NodeView;
import koala.common.failure.Conflict;
import koala.common.failure.Gone;
import koala.common.http.ApiException;
import koala.common.jdf.JobDescription;
import koala.common.runner.RunnerMessages;
import koala.common.runner.RunnerMessages.HeartbeatReply;
import koala.common.runner.RunnerMessages.Hello;
import koala.common.runner.RunnerMessages.Orders;
import koala.common.time.Poll;
import koala.provisioning.GrowOverhead;
import koala.provisioning.OrchestratorPolicy;
import koala.provisioning.PolicyKind;
import koala.provisioning.ProvisioningSettings;
import koala.provisioning.WorkerPolicy;

/**
 * One framework instance's runner. The initial phase as in the paper: open an allocation and
 * register the instance with the FrameworkJobManager (Schedd); deploy the master and, once it has
 * reported its address, the orchestrators and the initial workers (Deployd). Then it serves the
 * framework's RPC ({@link Resizer}) and its launchers' heartbeats, and every tick: reloads the
 * settings, notices lost entities (no heartbeat for two periods, or their node gone at the
 * scheduler), keeps Static and Proactive at their initial workers and the instance at one
 * orchestrator node, and on each sample period lets the policy decide. A master that dies while the
 * instance runs is started again ({@link MasterRestarts}): its launcher restarts it on its node when
 * the node is still there, else it is deployed on a new node; either way the FrameworkJobManager is
 * pointed at its new address once it reports in. A master that cannot be restarted ends the
 * instance and gives every node back. All state is guarded by this object's lock.
 */
public final class FrameworkRunner {
    public enum State { DEPLOYING, RUNNING, ENDED, FAILED }

    private final InstantSource clock;
    private final JobDescription jdf;
    private final Schedd schedd;
    private final Deployd deployd;
    private final SiteSettings settings;
    private final Duration runnerGone;
    private final SchedulerSilence schedulerSilence;
    private final Entities entities = new Entities();
    /** Each running entity's start, step by step (what a grow's overhead is made of). */
    private final java.util.Map<String, RunnerMessages.Startup> startups = new java.util.HashMap<>();
    private final Events events = new Events();
    private final GrowOverhead growOverhead = new GrowOverhead();
    private final Resizer resizer;
    private final CountDownLatch ended = new CountDownLatch(1);
    private final MasterRestarts masterRestarts = new MasterRestarts(MASTER_RESTARTS, MASTER_STABLE);
    /** When the master died, until its successor reports in; when to ask again for a node for it. */
    private Instant masterDied;
    private Instant masterRetry;
    private volatile State state = State.DEPLOYING;
    private Instant lastSample;
    /** Whether the orchestrators and initial workers were asked for: a runner started again mid-deployment goes on from there. */
    private boolean initialRequested;
    private String masterAddress;
    /** Where the durable state goes ({@link RunnerMain} writes it to the state file), and what it last took. */
    private Consumer<RunnerState.Book> journal = b -> { };
    private RunnerState.Book written;
    private String journalTrouble;
    /** What the grid's arbitration said at the last report; null before the first (or from a scheduler without it). */
    private koala.common.api.ShareOrders orders;
    /** Workers given back at the grid's request since the last report (the scheduler's count lags by a report). */
    private int givenBack;
    /** The figure the framework last reported (a slowdown), passed on to the scheduler; null for none. */
    private Double figure;
    /** Workers the grid's arbitration took that the floor keeps: asked for again one at a time, when needed. */
    private int floorTaken;
    private final java.util.Set<String> takenSeen = new java.util.HashSet<>();

    /** Restarts of a master in a row, each dying within {@link #MASTER_STABLE} of its start, before the instance fails. */
    static final int MASTER_RESTARTS = 3;
    static final Duration MASTER_STABLE = Duration.ofSeconds(60);
    /** How long after a refused grow for the master's new node the runner asks again. */
    static final Duration MASTER_RETRY = Duration.ofSeconds(10);

    FrameworkRunner(InstantSource clock, JobDescription jdf, Schedd schedd, Deployd deployd, SiteSettings settings,
                    Duration runnerGone, Duration schedulerGone) {
        this.clock = clock;
        this.schedulerSilence = new SchedulerSilence(schedulerGone);
        this.jdf = jdf;
        this.schedd = schedd;
        this.deployd = deployd;
        this.settings = settings;
        this.runnerGone = runnerGone;
        this.resizer = new Resizer(entities, schedd, deployd, events, growOverhead);
        this.resizer.persistWith(this::persist);
        applySettings();
    }

    /** Keeps the runner's state durably through {@code sink} from now on, on every change that matters. */
    synchronized void journal(Consumer<RunnerState.Book> sink) {
        this.journal = sink;
        this.written = null;
        persist();
    }

    /**
     * Writes the state if it changed since the last write (CPU use and heartbeat times are not part
     * of it: a heartbeat alone writes nothing). Called at the end of every call that changes the
     * state, and before a grow goes to the scheduler. A state that cannot be written is said once
     * in the events; the instance carries on (only a restart would miss it).
     */
    synchronized void persist() {
        RunnerState.Book book = book();
        if (book.equals(written)) {
            return;
        }
        try {
            journal.accept(book);
            written = book;
            journalTrouble = null;
        } catch (RuntimeException e) {
            if (!String.valueOf(e.getMessage()).equals(journalTrouble)) {
                journalTrouble = String.valueOf(e.getMessage());
                events.add(clock.instant(), "cannot keep the runner's state durably (a restart would not find it): "
                        + e.getMessage());
            }
        }
    }

    private RunnerState.Book book() {
        java.util.Map<String, List<Long>> grows = new java.util.TreeMap<>();
        growOverhead.recent().forEach((site, times) -> grows.put(site, times.stream().map(Duration::toMillis).toList()));
        secrets().keepKeysOf(entities.all().stream().map(Entity::node).collect(java.util.stream.Collectors.toSet()));
        return new RunnerState.Book(state.name(), initialRequested, masterAddress, settings.site(), lastSample,
                entities.saved(), grows, resizer.inFlight(), resizer.answered(), events.recent(), secrets().saved());
    }

    /**
     * Takes over instance {@code id} from a runner that died, with the book it kept: its entities
     * (each running one heard from now), O_grow's samples, its home site's settings, its recent
     * decisions; and the grow it had in flight, asked again under the same id. Its launchers find
     * this runner at the same address with the same token; the next tick reconciles with the
     * scheduler's allocation.
     */
    synchronized void adopt(long id, RunnerState.Book book, String why) {
        Instant now = clock.instant();
        schedd.adopt(id);
        deployd.instance(id);
        events.instance(id);
        events.restore(book.events());
        if (book.keys() != null) {
            secrets().restore(book.keys());
        }
        entities.restore(book.entities(), now);
        book.growMillis().forEach((site, times) -> times.forEach(t -> growOverhead.record(site, Duration.ofMillis(t))));
        if (book.master() != null) {
            masterAddress = book.master();
            deployd.master(book.master());
        }
        if (book.home() != null && !book.home().isEmpty()) {
            home(book.home());
        }
        state = State.valueOf(book.state());
        initialRequested = book.initialRequested();
        lastSample = book.lastSample() == null ? now : book.lastSample();
        events.add(now, "runner started again (" + why + "): took over " + entities.all().size() + " nodes "
                + entities.all().stream().map(Entity::node).toList() + (book.inFlight() == null ? ""
                : " and the grow in flight (" + book.inFlight().nodes() + " " + book.inFlight().role() + ")"));
        if (ended()) {
            // it died ending the instance (the scheduler did not answer, say): this one ends it again
            State how = state;
            state = State.RUNNING;
            end(how, "the runner before this one had ended it; ending it again");
            return;
        }
        resizer.resume(book.inFlight(), book.answered(), now);
        persist();
    }

    /** Opens the allocation and registers the instance; returns its id. */
    synchronized long open(String jdfText, String runnerUrl, java.util.function.LongFunction<String> stateFile) {
        ProvisioningSettings s = settings.current().settings();
        long id = schedd.open(jdf.name(), jdf.source(), jdfText, s.policy().shortName(), jdf.framework(),
                runnerUrl, stateFile);
        deployd.instance(id);
        events.instance(id);
        events.add(clock.instant(), "registered instance " + id + " (" + s.policy().shortName() + ")");
        persist();
        return id;
    }

    /** The initial phase: master first, then orchestrators and initial workers; false if it failed. */
    public boolean deploy(Duration timeout) {
        Instant start = clock.instant();
        Poll poll = new Poll(clock, Duration.ofMillis(200));
        synchronized (this) {
            if (entities.master().isEmpty()) {
                resizer.deploy(Entities.MASTER, 1, "initial deployment: the master", start, 0);
            }
            persist();
        }
        poll.until(() -> running(Entities.MASTER) || state != State.DEPLOYING, timeout);
        synchronized (this) {
            Optional<Entity> master = entities.master().filter(Entity::running);
            if (master.isEmpty() || state != State.DEPLOYING) {
                end(State.FAILED, "the master did not report in within " + timeout.toSeconds() + " s");
                return false;
            }
            if (!initialRequested) {
                String address = master.get().host() + ":" + master.get().port();
                schedd.master(master.get().node(), address);
                deployd.master(address);
                masterAddress = address;
                masterRestarts.reportedIn(clock.instant());
                home(master.get().site());
                deployInitial(Entities.ORCHESTRATOR, clock.instant());
                deployInitial(Entities.WORKER, clock.instant());
                initialRequested = true;
            }
            persist();
        }
        poll.until(() -> allRunning() || state != State.DEPLOYING, timeout);
        synchronized (this) {
            if (state != State.DEPLOYING) {
                return false;
            }
            Duration took = Duration.between(start, clock.instant());
            state = State.RUNNING;
            lastSample = clock.instant();
            events.add(clock.instant(), "initial deployment " + (allRunning() ? "done" : "timed out, going on")
                    + " in " + took.toMillis() / 1000.0 + " s: " + entities.all().size() + " nodes");
            persist();
            return true;
        }
    }

    private void deployInitial(String role, Instant now) {
        int count = deployd.initial(role);
        if (count > 0) {
            resizer.deploy(role, count, "initial deployment: " + count + " " + role + (count == 1 ? "" : "s"), now, 0);
        }
    }

    /** The instance's token in force. */
    public String token() {
        return secrets().token();
    }

    /** The instance's token and its nodes' keys; the API checks callers against them without this runner's lock. */
    InstanceSecrets secrets() {
        return deployd.secrets();
    }

    /**
     * A launcher says its entity runs on {@code node}. {@code keyed}: it proved the node with the
     * node's key (a master's launcher saying hello again after a restart); else it presented a token,
     * {@code current} when the token in force now. A hello the runner refuses with the token in
     * force — a node not the instance's, or one that already has a key — means the token is held by
     * a process that is not the instance's: the token is rotated.
     */
    synchronized Orders hello(String node, Hello hello, boolean keyed, boolean current) {
        if (entities.get(node).isEmpty() && state == State.RUNNING) {
            adoptGranted(); // a worker the grid's arbitration granted may say hello before the next tick sees it
        }
        if (entities.get(node).isEmpty() && current) {
            rotate("node " + node + ", not the instance's, said hello with its token");
        }
        Entity e = known(node);
        if (!keyed && secrets().keyed(node)) {
            if (current) {
                rotate("node " + node + " said hello again without its key: another process holds the instance's "
                        + "token");
            }
            throw new Conflict("node " + node + " has reported in already; its launcher proves it with the node's key",
                    "node");
        }
        String key = secrets().issue(node);
        Instant now = clock.instant();
        Duration period = period();
        Entity in = e.reportedIn(hello.site(), hello.host(), hello.port(), period, now);
        entities.put(in);
        if (!e.running() && in.site() != null) {
            growOverhead.record(in.site(), e.requestedAt(), now);
        }
        if (hello.startup() != null) {
            startups.put(node, hello.startup().reported(now));
        }
        events.add(now, e.role() + " " + node + (e.running() ? " reported in again on " + hello.host() + " (restarted)"
                : " reported in on " + hello.host() + " (" + in.site() + ") after "
                + Duration.between(e.requestedAt(), now).toMillis() / 1000.0 + " s"));
        if (e.is(Entities.MASTER) && state == State.RUNNING) {
            masterBack(in, now);
        }
        persist();
        return new Orders(period.toMillis(), runnerGone.toMillis(), key, secrets().token());
    }

    /** A heartbeat; to a launcher that proved its node with the node's key ({@code keyed}), the secrets in force. */
    synchronized HeartbeatReply heartbeat(String node, double cpu, boolean keyed) {
        Entity e = known(node);
        Duration period = period();
        entities.beat(e, cpu, period, clock.instant());
        persist();
        return new HeartbeatReply(HeartbeatReply.KEEP, period.toMillis(), keyed ? secrets().token() : null);
    }

    /**
     * Replaces the instance's token: from now on only the new one is taken; the launchers learn it
     * at their next heartbeat, the owner from the state file, new entities from their environment.
     */
    private void rotate(String why) {
        secrets().rotate();
        events.add(clock.instant(), "the instance's token was replaced: " + why);
        persist();
    }

    synchronized void activity(String node, boolean busy, Instant since) {
        Entity e = entities.get(node).filter(w -> w.is(Entities.WORKER) && w.running()).orElseThrow(() ->
                new Conflict("node " + node + " is not a running worker of instance " + schedd.instance(),
                        "node"));
        entities.activity(e, busy, since, clock.instant());
        persist();
    }

    /** How {@code node}'s start went, as its launcher reported it; empty once the node has gone. */
    synchronized java.util.Optional<RunnerMessages.Startup> startup(String node) {
        if (entities.get(node).isEmpty()) {
            startups.remove(node);
        }
        return java.util.Optional.ofNullable(startups.get(node));
    }

    /**
     * The entity on {@code node} exited. A master while the instance runs is restarted on its node
     * (RESTART: its launcher starts the command again, and says hello again); anything else is lost (STOP).
     */
    synchronized HeartbeatReply exited(String node, int status, boolean keyed) {
        Entity e = known(node);
        String why = "its entity exited with status " + status;
        if (e.is(Entities.MASTER) && state == State.RUNNING) {
            MasterRestarts.Decision d = masterRestarts.died(clock.instant(), why, true);
            if (d.restart()) {
                masterDied = clock.instant();
                events.add(clock.instant(), d.reason().replaceFirst("^master", "master " + node));
                persist();
                return new HeartbeatReply(HeartbeatReply.RESTART, period().toMillis(),
                        keyed ? secrets().token() : null);
            }
            end(State.FAILED, d.reason());
            return new HeartbeatReply(HeartbeatReply.STOP, 0);
        }
        lost(node, why);
        persist();
        return new HeartbeatReply(HeartbeatReply.STOP, 0);
    }

    /** The master (restarted) reported in: the FrameworkJobManager and new entities get its address. */
    private void masterBack(Entity master, Instant now) {
        String address = master.host() + ":" + master.port();
        try {
            schedd.master(master.node(), address);
        } catch (ApiException ex) {
            events.add(now, "could not point the FrameworkJobManager at the master " + address + ": " + ex.getMessage());
        }
        deployd.master(address);
        masterAddress = address;
        masterRestarts.reportedIn(now);
        masterRetry = null;
        events.add(now, "master " + master.node() + " serves at " + address
                + (masterDied == null ? "" : ", " + Duration.between(masterDied, now).toMillis() / 1000.0
                + " s after its predecessor was found lost"));
        masterDied = null;
    }

    /** Asks for a new node for the master; one refused is asked for again after {@link #MASTER_RETRY}. */
    private void masterElsewhere(String reason, Instant now) {
        masterRetry = null;
        if (resizer.deploy(Entities.MASTER, 1, reason, now, 0).granted() == 0) {
            masterRetry = now.plus(MASTER_RETRY);
        }
    }

    private Entity known(String node) {
        return entities.get(node).orElseThrow(() -> new Gone("node " + node
                + " is not (or no longer) a node of instance " + schedd.instance(), "node"));
    }

    /** Every second: settings, losses, the floors, and on each sample period the policies. */
    synchronized void tick() {
        if (ended()) {
            return;
        }
        Instant now = clock.instant();
        settings.reload().ifPresent(change -> {
            events.add(now, change);
            applySettings();
        });
        if (!schedulerAnswers(now)) {
            return;
        }
        share(now);
        if (masterRetry != null && !now.isBefore(masterRetry) && entities.master().isEmpty()) {
            MasterRestarts.Decision d = masterRestarts.failedToStart(now, "no node for it");
            if (!d.restart()) {
                end(State.FAILED, d.reason());
                return;
            }
            masterElsewhere(d.reason(), now);
        }
        silentLost(now);
        if (state == State.RUNNING && !now.isBefore(lastSample.plus(period())) && masterServes()) {
            lastSample = now;
            resizer.sample(now);
            keepFloors(now);
        }
        persist();
    }

    /**
     * Entities silent for two periods are lost, but for those on a remote site whose link the scheduler
     * cannot reach now: their heartbeats come through that link, and their pilots carry on meanwhile.
     * They are waited for while their launchers wait for this runner ({@code runnerGone}, after which
     * a launcher ends its entity and pilot itself) plus one period; heard from again, they carry on.
     */
    private void silentLost(Instant now) {
        List<String> unseen = new java.util.ArrayList<>();
        silentLost(now, unseen);
        if (!unseen.isEmpty() && !ended()) {
            rotate("lost " + unseen + " without seeing its entity end (it may still hold the token)");
        }
    }

    private void silentLost(Instant now, List<String> unseen) {
        List<Entity> silent = entities.silent(now);
        if (silent.isEmpty()) {
            waitingOnLink.clear();
            return;
        }
        java.util.Set<String> down = silent.stream().anyMatch(e -> settings.remote(e.site())) ? sitesDown()
                : java.util.Set.of();
        for (Entity e : silent) {
            long quiet = Duration.between(e.lastBeat(), now).toSeconds();
            Instant bound = e.lastBeat().plus(runnerGone).plus(e.beatPeriod());
            if (settings.remote(e.site()) && down.contains(e.site()) && now.isBefore(bound)) {
                if (waitingOnLink.add(e.node())) {
                    events.add(now, e.role() + " " + e.node() + " silent for " + quiet + " s while the link to "
                            + e.site() + " is down: waited for until " + bound + " (its launcher waits "
                            + runnerGone.toSeconds() + " s for this runner)");
                }
                continue;
            }
            waitingOnLink.remove(e.node());
            unseen.add(e.node());
            lost(e.node(), "no heartbeat for " + quiet + " s (two periods: " + e.beatPeriod().toSeconds() + " s each)"
                    + (down.contains(e.site()) ? "; the link to " + e.site() + " was down longer than its launcher waits"
                    : ""));
        }
        waitingOnLink.retainAll(silent.stream().map(Entity::node).toList());
    }

    private final java.util.Set<String> waitingOnLink = new java.util.HashSet<>();

    /** The sites the scheduler cannot reach now; none when it cannot say (the silent are then lost as before). */
    private java.util.Set<String> sitesDown() {
        try {
            return schedd.sitesDown();
        } catch (ApiException e) {
            return java.util.Set.of();
        }
    }

    /** Whether the master runs: workers deployed without it would find no master to join. */
    private boolean masterServes() {
        return entities.master().filter(Entity::running).isPresent();
    }

    /**
     * Reconciles with the scheduler; false while it does not answer (nothing else is done then:
     * grows and releases need it), and the instance fails once it has been silent for the time the
     * launchers wait too.
     */
    private boolean schedulerAnswers(Instant now) {
        try {
            reconcile();
            schedulerSilence.answered(now).ifPresent(text -> events.add(now, text));
            return true;
        } catch (ApiException e) {
            if (!e.transientFailure()) {
                throw e;
            }
            if (schedulerSilence.silent(now)) {
                end(State.FAILED, "the scheduler has not answered for " + schedulerSilence.giveUp().toSeconds()
                        + " s (" + e.getMessage() + ")");
            } else if (schedulerSilence.began(now)) {
                events.add(now, "the scheduler does not answer (" + e.getMessage() + "); trying every second, giving "
                        + "up after " + schedulerSilence.giveUp().toSeconds() + " s");
            }
            return false;
        }
    }

    /**
     * Tells the scheduler each running worker's activity, for sharing a full grid; keeps its answer
     * (what to give back, which workers it took). A scheduler that does not take the report changes nothing.
     */
    private void share(Instant now) {
        List<koala.common.api.ShareReport.WorkerActivity> workers = entities.role(Entities.WORKER).stream()
                .filter(Entity::running).map(e -> new koala.common.api.ShareReport.WorkerActivity(e.node(),
                        e.idleSince() == null, e.idleSince(), e.cpuPercent())).toList();
        try {
            orders = schedd.report(new koala.common.api.ShareReport(workers, figure));
            givenBack = 0;
            resizer.arbitrated(orders.arbitrated());
        } catch (ApiException e) {
            return;
        }
        for (String node : orders.takenBack()) {
            if (takenSeen.add(node) && resizer.policy().kind().keepsInitialWorkers()) {
                floorTaken++;
                events.add(now, EventKind.LOST, "worker " + node + " taken back by the grid's arbitration ("
                        + orders.policy() + "); asked for again only when all workers are busy",
                        java.util.Map.of("node", node, "role", Entities.WORKER));
            }
        }
    }

    synchronized void figure(double slowdown) {
        this.figure = slowdown;
    }

    /** What the grid's arbitration asks this instance to give back now; null for nothing. */
    synchronized koala.common.api.ShareOrders.GiveBack giveBackAsk() {
        if (orders == null || orders.giveBack() == null || orders.giveBack().workers() - givenBack <= 0) {
            return null;
        }
        koala.common.api.ShareOrders.GiveBack ask = orders.giveBack();
        return new koala.common.api.ShareOrders.GiveBack(ask.workers() - givenBack, ask.by(), ask.reason());
    }

    /** The framework gives back these workers at the grid's request: as many as asked, no more. */
    synchronized RunnerMessages.ShrinkResult giveBack(List<String> nodes) {
        koala.common.api.ShareOrders.GiveBack ask = giveBackAsk();
        for (String node : nodes) {
            if (entities.get(node).filter(e -> e.is(Entities.WORKER)).isEmpty()) {
                throw new Conflict("node " + node + " is not a worker of instance " + schedd.instance(), "nodes");
            }
        }
        int room = ask == null ? 0 : ask.workers();
        List<String> given = nodes.stream().distinct().limit(room).toList();
        List<RunnerMessages.Refusal> kept = nodes.stream().distinct().skip(room).map(n -> new RunnerMessages.Refusal(n,
                ask == null ? "nothing is asked back now" : "only " + room + " asked back")).toList();
        if (!given.isEmpty()) {
            resizer.release(given, "given back at the grid's request: " + ask.reason(), clock.instant());
            givenBack += given.size();
            if (resizer.policy().kind().keepsInitialWorkers()) {
                floorTaken += given.size();
            }
        }
        persist();
        return new RunnerMessages.ShrinkResult(given, kept, ask == null ? "nothing is asked back now" : ask.reason());
    }

    private void adoptGranted() {
        try {
            reconcile();
        } catch (ApiException e) {
            // the scheduler does not answer: the node is unknown for now, and its launcher is told so
        }
    }

    /** Entities whose node the scheduler no longer holds (killed, claim timed out) are lost; an ended allocation ends the instance. */
    private void reconcile() {
        JobView allocation = schedd.allocation();
        if (allocation.ended()) {
            end(State.ENDED, "its allocation is " + allocation.state());
            return;
        }
        java.util.Set<String> held = new java.util.HashSet<>();
        for (NodeView n : allocation.nodes()) {
            held.add(n.id());
            if (entities.get(n.id()).isEmpty() && Entities.WORKER.equals(n.role()) && state == State.RUNNING) {
                // granted by the grid's arbitration: nodes taken back for this instance, or its queued work
                entities.starting(List.of(n.id()), Entities.WORKER, clock.instant(), 0);
                events.add(clock.instant(), EventKind.GROW, "grow 1 worker [" + n.id() + "]: granted by the grid's "
                        + "arbitration", java.util.Map.of("role", Entities.WORKER, "count", 1, "nodes", List.of(n.id())));
            }
            entities.get(n.id()).ifPresent(e -> {
                if (e.site() == null) {
                    entities.put(e.at(n.site()));
                }
            });
        }
        // the scheduler shows only the nodes it holds: one of ours it no longer holds exited, was
        // released or was lost there
        List<String> gone = entities.all().stream().map(Entity::node).filter(n -> !held.contains(n)).toList();
        gone.forEach(n -> lost(n, "its node is no longer held at the scheduler"));
        if (!gone.isEmpty() && !ended()) {
            rotate("lost " + gone + " without seeing its entity end (it may still hold the token)");
        }
    }

    private void lost(String node, String why) {
        Optional<Entity> gone = entities.remove(node);
        if (gone.isEmpty() || ended()) {
            return;
        }
        Instant now = clock.instant();
        Entity e = gone.get();
        events.add(now, EventKind.LOST, e.role() + " " + node + " lost: " + why, java.util.Map.of("node", node, "role", e.role()));
        try {
            schedd.release(List.of(node), e.role() + " lost: " + why);
        } catch (ApiException ex) {
            events.add(now, "could not give " + node + " back: " + ex.getMessage());
        }
        if (e.is(Entities.MASTER) && state == State.RUNNING) {
            MasterRestarts.Decision d = e.running() ? masterRestarts.died(now, why, false)
                    : masterRestarts.failedToStart(now, why);
            if (!d.restart()) {
                end(State.FAILED, d.reason());
                return;
            }
            masterDied = masterDied == null ? now : masterDied;
            masterElsewhere(d.reason(), now);
        } else if (e.is(Entities.MASTER)) {
            end(State.FAILED, "its master was lost (" + why + ")");
        }
    }

    /** Static and Proactive never run below their initial workers (see PolicyKind); an instance always has an orchestrator node. */
    private void keepFloors(Instant now) {
        PolicyKind kind = resizer.policy().kind();
        int missing = deployd.initial(Entities.WORKER) - entities.role(Entities.WORKER).size();
        floorTaken = Math.max(0, Math.min(floorTaken, missing));
        if (floorTaken > 0 && kind.keepsInitialWorkers() && allWorkersBusy()) {
            // taken back by the grid's arbitration: one at a time, when the instance needs it (docs/sharing.md)
            if (resizer.deploy(Entities.WORKER, 1, kind.name().toLowerCase() + " keeps its " + deployd.initial(
                    Entities.WORKER) + " initial workers: all busy, one of the " + floorTaken
                    + " taken back asked for again", now, 0).granted() > 0) {
                floorTaken--;
                missing--;
            }
        }
        missing -= floorTaken;
        if (missing > 0 && kind.keepsInitialWorkers()) {
            resizer.deploy(Entities.WORKER, missing, kind.name().toLowerCase() + " keeps its " + deployd.initial(
                    Entities.WORKER) + " initial workers: " + missing + " missing", now, 0);
        }
        if (entities.role(Entities.ORCHESTRATOR).isEmpty()) {
            resizer.deploy(Entities.ORCHESTRATOR, 1, "an instance keeps one orchestrator node", now, 0);
        }
    }

    /** No worker idle by the runner's samples and none starting: an arriving application would find none free. */
    private boolean allWorkersBusy() {
        List<Entity> workers = entities.role(Entities.WORKER);
        return workers.stream().allMatch(e -> e.running() && e.idleSince() == null);
    }

    /** Ends the instance: every node given back, the allocation closed. */
    synchronized void end(State how, String why) {
        if (ended()) {
            return;
        }
        state = how;
        events.add(clock.instant(), EventKind.ENDED, "instance " + (how == State.FAILED ? "failed" : "ends") + ": " + why, java.util.Map.of("state", how.name()));
        try {
            if (!schedd.allocation().ended() && how == State.FAILED) {
                schedd.fail(why);
            } else if (!schedd.allocation().ended()) {
                schedd.close();
            }
        } catch (ApiException e) {
            events.add(clock.instant(), "could not close the allocation: " + e.getMessage());
        }
        entities.all().forEach(e -> entities.remove(e.node()));
        persist();
        ended.countDown();
    }

    public boolean awaitEnd(Duration timeout) throws InterruptedException {
        return ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    synchronized boolean ended() {
        return state == State.ENDED || state == State.FAILED;
    }

    public synchronized State state() {
        return state;
    }

    Resizer resizer() {
        return resizer;
    }

    /** Not synchronized: a runner busy under its lock (a grow waiting on the scheduler) is still alive. */
    RunnerMessages.Health health() {
        return new RunnerMessages.Health(schedd.instance(), state.name(), ProcessHandle.current().pid());
    }

    synchronized RunnerMessages.Status status() {
        String master = entities.master().filter(Entity::running).map(m -> m.host() + ":" + m.port()).orElse(null);
        return new RunnerMessages.Status(schedd.instance(), jdf.name(), state.name(),
                resizer.policy().kind().name().toLowerCase(), settings.current().describe(), master, entities.views(),
                events.recent(), resizer.idleTime().toMillis(), period().toMillis());
    }

    private void home(String site) {
        resizer.home(site == null ? "" : site);
        settings.home(site == null ? "" : site).ifPresent(change -> events.add(clock.instant(), change));
        applySettings();
    }

    private void applySettings() {
        ProvisioningSettings s = settings.current().settings();
        resizer.policies(WorkerPolicy.of(s), new OrchestratorPolicy(s));
    }

    private Duration period() {
        return settings.current().settings().samplePeriod();
    }

    private synchronized boolean running(String role) {
        return entities.role(role).stream().anyMatch(Entity::running);
    }

    private synchronized boolean allRunning() {
        return entities.all().stream().allMatch(Entity::running);
    }
}
