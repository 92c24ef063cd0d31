package koala.runner;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import koala.api.runner.RunnerMessages;
import koala.api.runner.RunnerMessages.HeartbeatReply;
import koala.api.runner.RunnerMessages.Hello;
import koala.api.runner.RunnerMessages.OrchestratorPlace;
import koala.api.runner.RunnerMessages.Orders;
import koala.api.runner.RunnerMessages.ShrinkResult;
import koala.api.scheduler.ShareOrders;
import koala.common.failure.Conflict;
import koala.jdf.JobDescription;
import koala.provisioning.GrowOverhead;
import koala.provisioning.OrchestratorPolicy;
import koala.provisioning.ProvisioningSettings;
import koala.provisioning.WorkerPolicy;

/**
 * One framework instance's runner: the pieces that keep its instance, wired to one loop thread
 * ({@link RunnerLoop}) that owns all their state, as the scheduler's loop owns the scheduler's.
 * {@link InitialDeployment} runs the initial phase; {@link Launchers} hears the node launchers'
 * hellos, heartbeats and exits; {@link Resizer} carries out the provisioning policies on the
 * framework's requests and each sample, asking for nodes through {@link Grows} and giving them back
 * through {@link Releases}; {@link Reconciler} keeps the book of entities true to the scheduler's
 * allocation and finds silent entities; {@link MasterKeeper} restarts a master that dies;
 * {@link GridShare} reports to the grid's arbitration and gives back what it asks.
 *
 * <p>Every call to the scheduler is made off the loop ({@link SchedulerCalls}, behind the {@link Schedd}
 * interface) and its outcome comes back to the loop as an event, so a slow scheduler holds up no
 * heartbeat, hello or status. The methods here are the entry points: each posts its work to the loop
 * and waits for the answer within a bound; a grow or an orchestrator that needs a new node waits
 * for its grant, and only that request waits.
 *
 * <p>Every tick (each second) {@link Ticks} runs a round: the settings, a look at the allocation,
 * the share report, the silent entities and, each sample period, the policies. The state is written
 * durably ({@link RunnerState} through {@link #journal}) after each piece of work that changed it.
 */
public final class FrameworkRunner implements AutoCloseable {
    public enum State { DEPLOYING, RUNNING, ENDED, FAILED }

    /** How long the framework's grow (or orchestrator) waits for its grant before it is told to ask again under its request id. */
    static final Duration GROW_WAIT = Duration.ofSeconds(25);
    /** How long a launcher's hello waits for the grows before it and a fresh look at the allocation. */
    static final Duration HELLO_WAIT = RunnerLoop.WAIT_FOR.plus(RunnerLoop.GRACE);

    private final InstantSource clock;
    private final JobDescription jdf;
    private final RunnerLoop loop;
    private final SchedulerCalls calls;
    private final Deployd deployd;
    private final SiteSettings settings;
    private final Lifecycle lifecycle = new Lifecycle();
    private final Entities entities = new Entities();
    private final Events events = new Events();
    private final GrowOverhead growOverhead = new GrowOverhead();
    private final GridShare share = new GridShare();
    private final Grows grows;
    private final Resizer resizer;
    private final MasterKeeper master;
    private final Reconciler reconciler;
    private final Launchers launchers;
    private final InitialDeployment deployment;
    private final Ticks ticks;
    private final RunnerGone runnerGone;
    /** Where the durable state goes ({@link RunnerMain} writes it to the state file), and what it last took. */
    private Consumer<RunnerState.Book> journal = b -> { };
    private RunnerState.Book written;
    private String journalTrouble;
    /** Why another runner took this one's place; null while this one is in force. */
    private volatile String replacedBy;

    /**
     * @param loop           the loop the runner's state lives on
     * @param calls          the scheduler, called off the loop
     * @param runnerGone     how long a launcher on a site of this machine's network waits for a silent runner
     *                       (one on a remote site waits longer: {@link RunnerGone})
     * @param schedulerGone  how long the scheduler may be silent before the instance fails
     */
    FrameworkRunner(InstantSource clock, JobDescription jdf, RunnerLoop loop, SchedulerCalls calls, Deployd deployd,
                    SiteSettings settings, Duration runnerGone, Duration schedulerGone) {
        this.clock = clock;
        this.jdf = jdf;
        this.loop = loop;
        this.calls = calls;
        this.deployd = deployd;
        this.settings = settings;
        this.runnerGone = new RunnerGone(runnerGone);
        Releases releases = new Releases(calls, entities, events, clock);
        this.grows = new Grows(entities, events, deployd, calls, clock, this::persist);
        this.resizer = new Resizer(entities, grows, releases, calls, deployd, events, growOverhead, clock, lifecycle);
        this.master = new MasterKeeper(entities, events, deployd, calls, resizer, this::end, clock);
        this.reconciler = new Reconciler(entities, events, calls, releases, grows, settings, lifecycle, master,
                this::end, this::rotate, clock, this.runnerGone, schedulerGone);
        this.launchers = new Launchers(entities, events, secrets(), growOverhead, lifecycle, master, reconciler, grows,
                calls, clock, this::period, this.runnerGone, settings, this::rotate);
        this.deployment = new InitialDeployment(entities, resizer, deployd, master, lifecycle, events, clock,
                this::home);
        this.ticks = new Ticks(clock, settings, this::applySettings, events, lifecycle, entities, reconciler, share,
                calls, resizer, master, deployment, this::period);
        applySettings();
        loop.afterEach(this::persist);
        calls.whenReplaced(this::replaced);
    }

    /** Ticks every second on the loop from now on. */
    void start() {
        loop.every(Duration.ofSeconds(1), ticks::round);
    }

    /** Stops the loop and the calls to the scheduler, giving nothing back (as a crash would). */
    @Override
    public void close() {
        loop.close();
        calls.close();
    }

    /**
     * A runner was started in this one's place (the scheduler refused a call of this one's generation, or
     * the state file is a later runner's): this one stops acting at once, from any thread. Its loop and its
     * calls stop as in {@link #close}, nothing is ended or given back (the instance and its nodes are its
     * successor's), and {@link #awaitEnd} returns.
     */
    void replaced(String why) {
        synchronized (lifecycle) {
            if (replacedBy != null) {
                return;
            }
            replacedBy = why;
        }
        close();
        lifecycle.closed();
    }

    /** Why this runner stopped for another; empty while it is the instance's runner. */
    public java.util.Optional<String> replacedBy() {
        return java.util.Optional.ofNullable(replacedBy);
    }

    /** Keeps the runner's state durably through {@code sink} from now on, on every change that matters. */
    void journal(Consumer<RunnerState.Book> sink) {
        loop.call(() -> {
            journal = sink;
            written = null;
            persist();
            return null;
        });
    }

    /**
     * Writes the state if it changed since the last write (CPU use and heartbeat times are not part
     * of it: a heartbeat alone writes nothing). Runs after every piece of work on the loop, and before
     * a grow goes to the scheduler. A state that cannot be written is said once in the events; the
     * instance carries on (only a restart would miss it).
     */
    private void persist() {
        if (replacedBy != null) {
            return; // the state file is the successor's now
        }
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
        Map<String, List<Long>> growMillis = new TreeMap<>();
        growOverhead.recent().forEach((site, times) -> growMillis.put(site, times.stream().map(Duration::toMillis)
                .toList()));
        secrets().keepKeysOf(entities.all().stream().map(Entity::node).collect(Collectors.toSet()));
        return new RunnerState.Book(lifecycle.state().name(), deployment.requested(), master.address(), settings.site(),
                ticks.lastSample(), entities.saved(), growMillis, grows.inFlight(), resizer.answered(), events.recent(),
                secrets().saved());
    }

    /**
     * Takes over instance {@code id} from a runner that died, with the book it kept: its entities
     * (each running one heard from now), O_grow's samples, its home site's settings, its recent
     * decisions; and the grow it had in flight, asked again under the same id. Its launchers find
     * this runner at the same address with the same token; the next tick reconciles with the
     * scheduler's allocation.
     */
    void adopt(long id, RunnerState.Book book, String why) {
        adopt(id, book, why, false);
    }

    /**
     * As {@link #adopt(long, RunnerState.Book, String)}, by a runner that serves at another address than its
     * predecessor ({@code moved}: started on another host). Its launchers beat to the old address until that
     * runner is silent to them, then ask the scheduler where this one serves: a running entity is awaited as
     * long as its launcher waits for a silent runner before it is taken as lost, not two periods.
     */
    void adopt(long id, RunnerState.Book book, String why, boolean moved) {
        loop.call(() -> {
            adopted(id, book, why);
            if (moved) {
                awaitAtNewAddress();
            }
            return null;
        });
    }

    private void awaitAtNewAddress() {
        Map<String, Instant> until = entities.awaitAtNewAddress(clock.instant(),
                e -> runnerGone.at(settings.remote(e.site())));
        if (!until.isEmpty()) {
            events.add(clock.instant(), "serving at another address than the runner before this one: its running "
                    + "entities' launchers find it once that runner is silent to them, each awaited until then or for "
                    + "as long as its launcher waits for a silent runner (" + new TreeMap<>(until) + ")");
        }
    }

    private void adopted(long id, RunnerState.Book book, String why) {
        Instant now = clock.instant();
        calls.schedd().adopt(id);
        deployd.instance(id);
        events.instance(id);
        events.restore(book.events());
        if (book.keys() != null) {
            secrets().restore(book.keys());
        }
        entities.restore(book.entities(), now);
        book.growMillis().forEach((site, times) -> times.forEach(t -> growOverhead.record(site, Duration.ofMillis(t))));
        if (book.master() != null) {
            master.restore(book.master());
        }
        if (book.home() != null && !book.home().isEmpty()) {
            home(book.home());
        }
        lifecycle.restore(State.valueOf(book.state()));
        deployment.restore(book.initialRequested());
        ticks.sampledAt(book.lastSample() == null ? now : book.lastSample());
        events.add(now, "runner started again (" + why + "): took over " + entities.all().size() + " nodes "
                + entities.all().stream().map(Entity::node).toList() + (book.inFlight() == null ? ""
                : " and the grow in flight (" + book.inFlight().nodes() + " " + book.inFlight().role() + ")"));
        if (lifecycle.ended()) {
            // it died ending the instance (the scheduler did not answer, say): this one ends it again
            State how = lifecycle.state();
            lifecycle.restore(State.RUNNING);
            end(how, "the runner before this one had ended it; ending it again");
            return;
        }
        resizer.resume(book.inFlight(), book.answered());
    }

    /**
     * Opens the allocation and registers the instance; returns its id. The scheduler is called on the
     * caller's thread (start-up, before the instance has any node), never on the loop.
     */
    long open(String jdfText, String runnerUrl, LongFunction<String> stateFile) {
        ProvisioningSettings s = loop.call(() -> settings.current().settings());
        long id = calls.schedd().open(jdf.name(), jdf.source(), jdfText, s.policy().shortName(), jdf.framework(),
                runnerUrl, stateFile, RolePlacements.of(jdf));
        loop.call(() -> {
            deployd.instance(id);
            events.instance(id);
            events.add(clock.instant(), "registered instance " + id + " (" + s.policy().shortName() + ")");
            return null;
        });
        return id;
    }

    /** The initial phase: master first, then orchestrators and initial workers; false if it failed. */
    public boolean deploy(Duration timeout) {
        Instant start = clock.instant();
        beginDeployment();
        try {
            // a master refused a node waits for one (its site busy): the time-out is for a master that has a node
            boolean in;
            do {
                in = loop.until(deployment::masterIn, timeout);
            } while (!in && loop.call(() -> deployment.masterRefusedWithin(timeout)));
            if (!loop.call(() -> deployment.rest(timeout, this::end))) {
                return false;
            }
            loop.until(deployment::allIn, timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return loop.call(() -> {
            Instant now = clock.instant();
            if (!deployment.done(Duration.between(start, now), now)) {
                return false;
            }
            ticks.sampledAt(now);
            return true;
        });
    }

    /** The initial phase's first step: the master's node asked for ({@link #deploy} then waits for it). */
    void beginDeployment() {
        loop.call(() -> {
            deployment.begin();
            return null;
        });
    }

    /** The instance's token in force. */
    public String token() {
        return secrets().token();
    }

    /** The instance's token and its nodes' keys; the API checks callers against them off the loop. */
    InstanceSecrets secrets() {
        return deployd.secrets();
    }

    /** A launcher's hello (see {@link Launchers#hello}); a node not known yet waits for the grows before it and a look at the allocation. */
    Orders hello(String node, Hello hello, boolean keyed, boolean current) {
        return loop.ask(reply -> launchers.hello(node, hello, keyed, current, reply), HELLO_WAIT,
                "the runner is still finding out whether node " + node + " is the instance's; say hello again");
    }

    /** A heartbeat; to a launcher that proved its node with the node's key ({@code keyed}), the token in force. */
    HeartbeatReply heartbeat(String node, double cpu, boolean keyed) {
        return loop.call(() -> launchers.heartbeat(node, cpu, keyed));
    }

    /** The entity on {@code node} exited (see {@link Launchers#exited}). */
    HeartbeatReply exited(String node, int status, boolean keyed) {
        return loop.call(() -> launchers.exited(node, status, keyed));
    }

    void activity(String node, boolean busy, Instant since) {
        loop.call(() -> {
            launchers.activity(node, busy, since);
            return null;
        });
    }

    /** How {@code node}'s start went, as its launcher reported it; empty once the node has gone. */
    Optional<RunnerMessages.Startup> startup(String node) {
        return loop.call(() -> launchers.startup(node));
    }

    /**
     * The framework's grow of {@code nodes} workers; waits for the grant (at most {@link #GROW_WAIT}:
     * then the framework is told to ask again under the same request id, which gets this grow's answer).
     */
    RunnerMessages.GrowResult grow(int nodes, String requestId) {
        return loop.ask(reply -> {
            if (reply.begin()) {
                requireRunning();
                reply.follow(resizer.grow(nodes, requestId));
            }
        }, GROW_WAIT, "the grow is still at the scheduler; ask again with the same request id to learn what it got");
    }

    ShrinkResult shrink(List<String> nodes) {
        return loop.call(() -> {
            requireRunning();
            return resizer.shrink(nodes, clock.instant());
        });
    }

    ShrinkResult shrinkIdle() {
        return loop.call(() -> {
            requireRunning();
            return resizer.shrinkIdle(clock.instant());
        });
    }

    /** Where the framework's new orchestrator goes; a new node waits for its grant, as a grow does. */
    OrchestratorPlace placeOrchestrator() {
        return loop.ask(reply -> {
            if (reply.begin()) {
                requireRunning();
                reply.follow(resizer.placeOrchestrator());
            }
        }, GROW_WAIT, "the orchestrator's new node is still at the scheduler");
    }

    OrchestratorPlace orchestratorDone(String node) {
        return loop.call(() -> {
            requireRunning();
            return resizer.orchestratorDone(node, clock.instant());
        });
    }

    /** @param rejectRate the share of its work the framework rejected lately, 0 to 1; null for none */
    void figure(double slowdown, Double rejectRate) {
        loop.call(() -> {
            share.figure(slowdown, rejectRate);
            return null;
        });
    }

    /** What the grid's arbitration asks this instance to give back now; null for nothing. */
    ShareOrders.GiveBack giveBackAsk() {
        return loop.call(share::giveBackAsk);
    }

    /** The framework gives back these workers at the grid's request: as many as asked, no more. */
    ShrinkResult giveBack(List<String> nodes) {
        return loop.call(() -> {
            requireRunning();
            for (String node : nodes) {
                if (entities.get(node).filter(e -> e.is(Entities.WORKER)).isEmpty()) {
                    throw new Conflict("node " + node + " is not a worker of instance " + calls.instance(), "nodes");
                }
            }
            ShrinkResult result = share.giveBack(nodes, resizer.policy().kind().keepsInitialWorkers());
            if (!result.released().isEmpty()) {
                resizer.release(result.released(), "given back at the grid's request: " + result.reason(),
                        clock.instant());
            }
            return result;
        });
    }

    private void requireRunning() {
        if (!lifecycle.is(State.RUNNING)) {
            throw new Conflict("instance is " + lifecycle.state() + "; it can be resized while RUNNING");
        }
    }

    /** A tick's round now (the loop runs one every second once {@link #start started}). */
    void tick() {
        loop.call(() -> {
            ticks.round();
            return null;
        });
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

    /** Ends the instance: every node given back, the allocation closed (or failed) at the scheduler, off the loop. */
    private void end(State how, String why) {
        if (lifecycle.ended()) {
            return;
        }
        lifecycle.move(how);
        events.add(clock.instant(), EventKind.ENDED, "instance " + (how == State.FAILED ? "failed" : "ends") + ": " + why,
                Map.of("state", how.name()));
        entities.all().forEach(e -> entities.remove(e.node()));
        persist();
        calls.ask(s -> {
            if (!s.allocation().ended()) {
                if (how == State.FAILED) {
                    s.fail(why);
                } else {
                    s.close();
                }
            }
            return Boolean.TRUE;
        }, outcome -> {
            if (!outcome.answered()) {
                events.add(clock.instant(), "could not close the allocation: " + outcome.failure().getMessage());
            }
            lifecycle.closed();
        });
    }

    /** Waits for the instance's end, told to the scheduler. */
    public boolean awaitEnd(Duration timeout) throws InterruptedException {
        return lifecycle.awaitEnd(timeout);
    }

    /** The instance's state now; read from any thread. */
    public State state() {
        return lifecycle.state();
    }

    /** Off the loop: says only that the runner serves, and whom, even while the loop is busy. */
    RunnerMessages.Health health() {
        return new RunnerMessages.Health(calls.instance(), lifecycle.state().name(), ProcessHandle.current().pid());
    }

    RunnerMessages.Status status() {
        return loop.call(() -> {
            String at = entities.master().filter(Entity::running).map(m -> m.host() + ":" + m.port()).orElse(null);
            return new RunnerMessages.Status(calls.instance(), jdf.name(), lifecycle.state().name(),
                    resizer.policy().kind().name().toLowerCase(), settings.current().describe(), at,
                    entities.views().stream().filter(e -> !share.taken(e.node())).toList(),
                    events.recent(), resizer.idleTime().toMillis(), period().toMillis(), waiting());
        });
    }

    /**
     * What the instance waits for: its master's node or its orchestrator node, refused by the scheduler
     * and asked for again (the master's every {@link MasterKeeper#RETRY}, the orchestrator's each sample).
     */
    private List<String> waiting() {
        List<String> out = new java.util.ArrayList<>();
        if (entities.master().isEmpty()) {
            grows.refused(Entities.MASTER).ifPresent(why -> out.add("waiting for its master: " + why
                    + " (asked for again every " + MasterKeeper.RETRY.toSeconds() + " s)"));
        }
        if (entities.role(Entities.ORCHESTRATOR).isEmpty() && entities.master().isPresent()) {
            grows.refused(Entities.ORCHESTRATOR).ifPresent(why -> out.add("waiting for its orchestrator: " + why
                    + " (asked for again every sample, " + period().toSeconds() + " s)"));
        }
        return out;
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
}
