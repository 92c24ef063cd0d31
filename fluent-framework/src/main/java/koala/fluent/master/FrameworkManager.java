package koala.fluent.master;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import koala.api.runner.RunnerMessages.GrowResult;
import koala.common.event.EventLine;
import koala.common.failure.Conflict;
import koala.common.failure.InvalidField;
import koala.common.failure.NotFound;
import koala.fluent.AppOutcome;
import koala.fluent.Application;
import koala.fluent.FrameworkState;
import koala.fluent.PlacementOutcome;
import koala.fluent.ResizeRequest;
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.AppReply;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.fluent.wire.FluentMessages.MasterStatus;
import koala.fluent.wire.FluentMessages.MetricsReport;
import koala.fluent.wire.MasterEventKind;
import koala.http.ApiException;

/**
 * The framework's master, the FrameworkManager: the registry of DeviceManagers, the jobs clients
 * submit and the applications' lifecycle, on the reference framework's {@link FrameworkState}.
 * Jobs are taken first come, first served. Under OnDemand a job that lacks workers waits while
 * its runner grows exactly those, until the new DeviceManagers have reported in (or the grow was
 * refused, or {@code growWait} passed), so that its RLs find the idle workers asked for them;
 * workers idle at least t_idle are given back. Under Static and Proactive the same requests are
 * only logged. Each running application gets its orchestrator through the runner. The master
 * tells the runner which workers are busy, so that the runner's t_idle timers are the master's.
 * Every change is written to its {@link Journal} before the master acts on it, and a master
 * started on a journal takes over from its predecessor ({@link MasterRecovery}): the same workers,
 * running applications, queue and waiting jobs. Time comes from the injected clock.
 *
 * <p>All state lives on one thread, the master's {@link MasterLoop}: a client's job or read, a
 * DeviceManager's hello or report and the tick are queued onto it, and nothing on it waits on the
 * network or the disk. Every call to the runner (a grow, a shrink, an orchestrator, the status, the
 * workers' activity) goes through its {@link RunnerLine}, every call to a DeviceManager (a deploy, a
 * stop, a suspend or resume, a move) through the application's lane ({@link DeviceLanes}), and what
 * comes back is posted to the loop, where the state it answers is looked at again; so a slow runner (a
 * grow waiting for its grant at the scheduler) or a DeviceManager that hangs until its time-out holds
 * up no client's job, status read or other DeviceManager's report. Meanwhile the job whose grow is at
 * the runner waits as it waits for its workers, workers being given back are out of the placement
 * until the runner has answered (those it keeps come back, idle from then), and a word count being
 * moved is not moved again. The journal is written off the loop and forced in batches
 * ({@link JournalLine}); no answer, and no call, leaves before what led to it is on disk.
 */
public final class FrameworkManager {
    private record Arrival(JobIntake.Accepted job, CompletableFuture<JobReply> reply) {
    }

    /** A job taken in: its id, and its reply once it is placed. */
    public record Submitted(String job, CompletableFuture<JobReply> reply) {
    }

    /**
     * The job at the head of the line and its grow: asked of the runner ({@code nodes} and {@code deadline}
     * null until it answers), then granted and waiting for its workers until {@code deadline}.
     */
    private record PendingGrow(Arrival arrival, Set<String> nodes, Instant deadline, String note) {
        boolean granted() {
            return nodes != null;
        }
    }

    /** Entries after which the journal is compacted into one snapshot. */
    static final int COMPACT_AFTER = 1000;
    /** Ended applications a snapshot keeps for {@code GET /jobs/{id}}, the latest. */
    static final int KEEP_ENDED = 1000;

    private final InstantSource clock;
    private final Duration growWait;
    private final FrameworkState state;
    private final AppBook book;
    private final Map<String, String> urls;
    private final Deque<Arrival> arrivals = new ArrayDeque<>();
    /** What each placed job's grow came to, for its later readers. */
    private final Map<String, String> growNotes;
    private final MasterEvents events;
    private final Provisioning provisioning;
    /** Workers that left: a late hello of theirs must not bring them back. */
    private final Set<String> gone;
    /**
     * Applications running when this master took over from the journal, and the workers of each
     * that have not said hello to it yet: one that none of its workers runs any more is failed.
     */
    private final Map<String, Set<String>> unconfirmed = new LinkedHashMap<>();
    /** The latest instant in the journal: a new node's clock behind the old one's does not turn time back. */
    private final Instant floor;
    private PendingGrow pending;
    private int jobs;
    private final MasterLoop loop;
    private final JournalLine journal;
    private final DeviceCalls calls;
    private final RunnerLine line;
    /** Whether a release or a give-back is at the runner: its workers are out of the placement meanwhile. */
    private boolean releasing;
    private boolean givingBack;
    /** Moves of suspended word counts decided and not carried out yet (by a predecessor cut short), and what moved. */
    private final MoveBook moves;
    /** Workers whose DeviceManager has said hello to this master: they hold its key, a move may call them. */
    private final Set<String> heard = new HashSet<>();
    /** Word counts whose move is at their DeviceManagers: not begun again until it comes back. */
    private final Set<String> carrying = new HashSet<>();

    FrameworkManager(InstantSource clock, Runner runner, Devices devices, MasterEvents events,
                     Provisioning provisioning, Duration growWait) {
        this(clock, runner, devices, events, provisioning, growWait, Journal.memory());
    }

    /**
     * A master that starts from {@code journal}: what its predecessor wrote is replayed, then the
     * journal is compacted into one snapshot, and from now on every change is written to it first.
     */
    FrameworkManager(InstantSource clock, Runner runner, Devices devices, MasterEvents events,
                     Provisioning provisioning, Duration growWait, Journal journal) {
        this(clock, runner, devices, events, provisioning, growWait, journal, MasterThreads.direct());
    }

    /**
     * As above, on {@code threads}: its loop, and the calls to the runner, to DeviceManagers and to the
     * journal off it. The other constructors run everything on the caller's thread: for worked examples.
     */
    FrameworkManager(InstantSource clock, Runner runner, Devices devices, MasterEvents events,
                     Provisioning provisioning, Duration growWait, Journal journal, MasterThreads threads) {
        this.loop = threads.loop();
        this.journal = JournalLine.on(journal, threads.journal());
        this.loop.answerThrough(this.journal::then);
        this.calls = new DeviceCalls(devices, DeviceLanes.on(threads.deviceCalls()), this.journal, loop);
        this.line = RunnerLine.on(runner, threads.runnerCalls(), this.journal::then, loop);
        this.clock = clock;
        this.events = events;
        this.provisioning = provisioning;
        this.growWait = growWait;
        List<JournalEntry> written = journal.read();
        MasterRecovery.Recovered r = MasterRecovery.replay(written, provisioning.settings(), clock.instant());
        this.state = r.state();
        this.book = r.book();
        this.urls = new LinkedHashMap<>(r.urls());
        this.growNotes = new java.util.HashMap<>(r.growNotes());
        this.gone = new java.util.HashSet<>(r.gone());
        this.jobs = r.jobs();
        this.moves = r.moves();
        this.floor = written.isEmpty() ? clock.instant() : written.get(written.size() - 1).at();
        takeOver(r);
        journal.compact(snapshot()); // before the loop takes anything: what the predecessor wrote is one entry
    }

    /** Ticks every {@code period} on the loop: what {@link MasterMain} runs; worked examples call {@link #tick}. */
    void ticking(Duration period) {
        loop.every(period, this::ticked);
    }

    /** Says {@code text} among the master's events, from its loop (the events are the loop's, as its state is). */
    void note(MasterEventKind kind, String text, Map<String, ?> fields) {
        loop.post(() -> events.add(kind, text, fields));
    }

    /**
     * What the predecessor left beside the state: its waiting jobs (no client waits on them here;
     * their clients poll), its pending grow (given its full wait again), and its running
     * applications, to be confirmed by their workers' hellos.
     */
    private void takeOver(MasterRecovery.Recovered r) {
        r.waiting().forEach(w -> arrivals.addLast(new Arrival(w.job(), new CompletableFuture<>())));
        if (r.pending() != null) {
            pending = new PendingGrow(new Arrival(r.pending().job().job(), new CompletableFuture<>()),
                    Set.copyOf(r.pending().nodes()), now().plus(growWait), r.pending().note());
        }
        state.running().forEach(app -> unconfirmed.put(app.app().id(), new java.util.HashSet<>(
                app.where().stream().map(koala.fluent.Assignment::workerId).toList())));
        // a move cut short is finished once its workers report in; until then its new workers need not run it
        moves.unfinished().keySet().forEach(unconfirmed::remove);
        if (r.entries() > 0) {
            events.add("recovered from the journal (" + r.entries() + " entries): " + urls.size() + " workers, "
                    + state.running().size() + " applications running, " + state.queue().size() + " queued, "
                    + (arrivals.size() + (pending == null ? 0 : 1)) + " jobs waiting; " + jobs + " jobs so far");
        }
    }

    /**
     * A client's job: checked (its files read on the caller's thread), then placed in arrival order on
     * the loop; the reply completes once it is placed.
     */
    public Submitted submit(JobRequest request) {
        JobIntake.Checked checked = JobIntake.check(request);
        return loop.call(() -> arrived(request.name(), checked));
    }

    private Submitted arrived(String name, JobIntake.Checked checked) {
        String id = "j" + (jobs + 1);
        JobIntake.Accepted job = JobIntake.accept(id, checked, now());
        journal.append(new JournalEntry.Arrived(job.job().submittedAt(), id, name,
                List.copyOf(job.requests().keySet()), job.requests(), job.expected()));
        jobs++;
        Arrival arrival = new Arrival(job, new CompletableFuture<>());
        arrivals.addLast(arrival);
        events.add(MasterEventKind.JOB_ARRIVED, "job " + id + (name == null ? "" : " (" + name
                + ")") + " arrived: " + job.job().apps().size() + " applications",
                Map.of("job", id, "apps", job.job().apps().size()));
        takeArrivals();
        return new Submitted(id, arrival.reply());
    }

    /** A DeviceManager reports in: its worker joins, and may start waiting SWCs or complete a pending grow. */
    public void device(DeviceHello hello) {
        loop.call(() -> {
            hello(hello);
            return null;
        });
    }

    private void hello(DeviceHello hello) {
        if (hello.node() == null || hello.url() == null) {
            throw new InvalidField(hello.node() == null ? "node" : "url", "missing");
        }
        if (hello.slots() != null && hello.slots() < 1) {
            throw new InvalidField("slots", hello.slots() + ": a worker has at least 1 slot");
        }
        if (gone.contains(hello.node())) {
            throw new koala.common.failure.Gone("worker " + hello.node() + " has left the instance", "node");
        }
        heard.add(hello.node());
        if (urls.containsKey(hello.node())) {
            again(hello);
            return;
        }
        int slots = hello.slots() == null ? state.settings().slotsPerWorker() : hello.slots();
        journal.append(new JournalEntry.Joined(now(), hello.node(), hello.url(), slots));
        urls.put(hello.node(), hello.url());
        FrameworkState.Started started = state.join(hello.node(), slots, now());
        events.add(MasterEventKind.JOINED, "worker " + hello.node() + " joined (" + slots + " slots) at " + hello.url(),
                Map.of("node", hello.node(), "slots", slots, "url", hello.url()));
        again(started);
        joinedForGrow();
        provisioning.reportActivity(line, state.workers());
    }

    /** The job waiting for its grow is placed once every worker granted for it has joined. */
    private void joinedForGrow() {
        if (pending != null && pending.granted() && urls.keySet().containsAll(pending.nodes())) {
            PendingGrow done = pending;
            pending = null;
            place(done.arrival(), done.note() + "; the new workers joined");
            takeArrivals();
        }
    }

    /**
     * A known worker's hello: a DeviceManager's regular one (quiet), or its first to this master
     * after a restart, with the applications it still runs or has not reported yet. An application
     * recovered from the journal that none of its workers runs any more failed while the master
     * was away.
     */
    private void again(DeviceHello hello) {
        if (!hello.url().equals(urls.put(hello.node(), hello.url()))) {
            events.add(MasterEventKind.REJOINED, "worker " + hello.node() + " reported in again at " + hello.url(),
                    Map.of("node", hello.node(), "url", hello.url()));
        }
        if (hello.running() == null) {
            return;
        }
        for (String app : List.copyOf(unconfirmed.keySet())) {
            Set<String> waiting = unconfirmed.get(app);
            if (!waiting.remove(hello.node())) {
                continue;
            }
            if (hello.running().contains(app)) {
                unconfirmed.remove(app);
                events.add(app + " still runs on " + hello.node() + ", which reported to this master");
            } else if (waiting.isEmpty()) {
                unconfirmed.remove(app);
                book.find(app).filter(e -> e.state() == AppBook.State.RUNNING).ifPresent(e ->
                        fail(e, "none of its workers runs it any more after the master's restart"));
            }
        }
    }

    /** An application's last component is done (or failed): its slots and orchestrator are freed. */
    public void done(String app, AppDone done) {
        loop.call(() -> {
            reported(app, done);
            return null;
        });
    }

    private void reported(String app, AppDone done) {
        AppBook.Entry entry = book.find(app).orElseThrow(() -> new NotFound("application " + app));
        if (entry.state() != AppBook.State.RUNNING) {
            throw new Conflict(app + " is " + entry.state() + ", not running", "app");
        }
        unconfirmed.remove(app);
        if (done.error() != null) {
            fail(entry, done.error());
        } else {
            Checks.Verdict verdict = Checks.check(entry, done.result());
            String check = verdict.text();
            AppBook.State end = verdict.ok() ? AppBook.State.FINISHED : AppBook.State.FAILED;
            Map<String, Object> result = Checks.withCheck(entry, done.result(), verdict);
            journal.append(new JournalEntry.Ended(now(), app, end, check, result));
            book.ended(app, end, check, result);
            events.add(MasterEventKind.APP_FINISHED, app + " finished on " + done.node() + ": " + check,
                    EventLine.fields("app", app, "node", done.node()));
            freed(entry);
        }
        provisioning.reportActivity(line, state.workers());
    }

    /**
     * Every second: a pending grow's deadline, what the grid's arbitration asks back, releases of
     * idle workers, and each sample period the metrics. The runner is asked off the loop; its answers
     * are taken as they come.
     */
    public void tick() {
        loop.call(() -> {
            ticked();
            return null;
        });
    }

    private void ticked() {
        takeArrivals(); // jobs a restarted master found waiting in its journal
        finishMoves();
        Instant now = now();
        if (pending != null && pending.granted() && !now.isBefore(pending.deadline())) {
            PendingGrow late = pending;
            pending = null;
            Set<String> missing = new HashSet<>(late.nodes());
            missing.removeAll(urls.keySet());
            place(late.arrival(), late.note() + "; " + missing + " not in after " + growWait.toSeconds()
                    + " s, placed with the workers there");
            takeArrivals();
        }
        if (!givingBack) {
            givingBack = true;
            Map<String, Integer> slots = new LinkedHashMap<>();
            provisioning.giveBack(line, state, this::yieldWorkers, idle -> slots.putAll(leave(idle)), (offered, taken) -> {
                givingBack = false;
                settle(offered, taken, slots);
            });
        }
        now = now(); // a give-back may have moved word counts since, at later instants
        if (pending == null && !releasing) {
            // while a job waits for its grow, the idle workers are the ones it counted on: none goes
            ResizeRequest down = provisioning.releaseAsk(state, now);
            if (down != null) {
                Map<String, Integer> slots = leave(down.release());
                releasing = true;
                provisioning.release(line, down, released -> {
                    releasing = false;
                    settle(down.release(), released, slots);
                });
            }
        }
        provisioning.sample(line, state, now, this::now, () -> Set.copyOf(urls.keySet()),
                lost -> lost.forEach(this::lost));
        provisioning.reportActivity(line, state.workers());
        if (journal.sinceCompaction() >= COMPACT_AFTER && !releasing && !givingBack) {
            journal.compact(snapshot());
        }
    }

    /**
     * Idle workers about to be offered to the runner leave the placement now, so that no application
     * is placed on a node the runner is giving back; returns each one's slots, to take back those it keeps.
     */
    private Map<String, Integer> leave(List<String> nodes) {
        Map<String, Integer> slots = new LinkedHashMap<>();
        Instant now = now();
        for (String node : nodes) {
            state.workers().stream().filter(w -> w.id().equals(node)).findFirst().ifPresent(w -> {
                slots.put(node, w.slots());
                state.removeWorker(node, now);
            });
        }
        return slots;
    }

    /** The runner answered an offer of {@code offered}: those it {@code took} are gone, the others are workers again. */
    private void settle(List<String> offered, List<String> took, Map<String, Integer> slots) {
        Instant now = now();
        for (String node : offered) {
            if (took.contains(node)) {
                left(node);
            } else if (slots.containsKey(node) && urls.containsKey(node)) {
                again(state.join(node, slots.get(node), now));
            }
        }
        joinedForGrow();
    }

    private void left(String node) {
        journal.append(new JournalEntry.Left(now(), node));
        urls.remove(node);
        gone.add(node);
    }

    /** Everything the journal needs to start again from now. */
    private JournalEntry.Snapshot snapshot() {
        List<JournalEntry.Arrived> waiting = new java.util.ArrayList<>();
        if (pending != null) {
            waiting.add(arrived(pending.arrival()));
        }
        arrivals.forEach(a -> waiting.add(arrived(a)));
        // a grow the runner has not answered is not kept: the job waits, and a master started again asks anew
        JournalEntry.GrowAsked grow = pending == null || !pending.granted() ? null : new JournalEntry.GrowAsked(now(),
                pending.arrival().job().job().id(), List.copyOf(pending.nodes()), pending.note());
        return MasterRecovery.snapshot(now(), state, book, urls, waiting, grow, jobs, growNotes, gone, KEEP_ENDED,
                moves);
    }

    private static JournalEntry.Arrived arrived(Arrival a) {
        JobIntake.Accepted job = a.job();
        return new JournalEntry.Arrived(job.job().submittedAt(), job.job().id(), null,
                List.copyOf(job.requests().keySet()), job.requests(), job.expected());
    }

    /** The clock, never before the journal's latest entry. */
    private Instant now() {
        Instant now = clock.instant();
        return now.isBefore(floor) ? floor : now;
    }

    private void takeArrivals() {
        while (pending == null && !arrivals.isEmpty()) {
            Arrival next = arrivals.pollFirst();
            ResizeRequest up = state.growRequest(next.job().job());
            events.add(up.ask() || up.grow() == 0 ? MasterEventKind.NOTE : MasterEventKind.RESIZE_REPORTED,
                    next.job().job().id() + ": " + up.reason(), EventLine.fields("job", next.job().job().id()));
            if (!up.ask()) {
                place(next, up.reason());
                continue;
            }
            pending = new PendingGrow(next, null, null, "asking the runner to grow " + up.grow());
            provisioning.grow(line, up.grow(), grow -> granted(next, up.grow(), grow));
        }
    }

    /** The runner answered the grow asked for the job at the head of the line. */
    private void granted(Arrival arrival, int asked, GrowResult grow) {
        String note = "asked to grow " + asked + ", granted " + grow.granted()
                + (grow.reason() == null ? "" : " (" + grow.reason() + ")");
        if (grow.granted() == 0) {
            pending = null;
            place(arrival, note);
        } else {
            journal.append(new JournalEntry.GrowAsked(now(), arrival.job().job().id(), List.copyOf(grow.nodes()),
                    note));
            pending = new PendingGrow(arrival, Set.copyOf(grow.nodes()), now().plus(growWait), note);
            joinedForGrow(); // its workers may have said hello before the runner's answer came
        }
        takeArrivals();
    }

    private void place(Arrival arrival, String growNote) {
        JobIntake.Accepted job = arrival.job();
        String id = job.job().id();
        journal.append(new JournalEntry.Placed(now(), id, growNote));
        PlacementOutcome outcome = state.submit(job.job(), now());
        for (AppOutcome app : outcome.apps()) {
            String appId = app.app().id();
            book.submitted(id, app, job.requests().get(appId), job.expected().get(appId));
            events.add(app.reason());
        }
        List<CompletableFuture<Void>> starting = new java.util.ArrayList<>();
        outcome.with(AppOutcome.Verdict.PLACED).forEach(placed -> {
            // an RL starts once the word counts it suspends are: on their workers, calls in that order
            List<CompletableFuture<Void>> suspending = placed.suspended().stream().map(this::suspend).toList();
            starting.add(launch(placed, CompletableFuture.allOf(suspending.toArray(CompletableFuture[]::new))));
        });
        growNotes.put(id, growNote);
        // its client hears of it once its components are in place (or could not be): a master started
        // again from the journal takes a placed application to be running, and deploys nothing again
        CompletableFuture.allOf(starting.toArray(CompletableFuture[]::new)).thenRun(() -> loop.post(() -> {
            JobReply reply = jobNow(id);
            journal.then(() -> arrival.reply().complete(reply));
        }));
    }

    /** Suspended SWCs resumed, then SWCs started from the queue, in the state's order. */
    private void again(FrameworkState.Started started) {
        started.resumed().forEach(this::resume);
        started.fromQueue().forEach(this::startFromQueue);
    }

    /**
     * An SWC suspended for an RL: every DeviceManager with a component of it pauses it, keeping its state.
     * Returns when they have been told (or failed to be).
     */
    private CompletableFuture<Void> suspend(koala.fluent.Suspended suspended) {
        String app = suspended.appId();
        events.add(app + " suspended (" + suspended.times() + " of " + suspended.maxTimes() + ") for an RL on "
                + suspended.workerId());
        return CompletableFuture.allOf(book.find(app).stream().flatMap(e -> e.workers().stream().distinct())
                .map(w -> tellDevice(w, app, true)).toArray(CompletableFuture[]::new));
    }

    /**
     * A suspended SWC runs again: where the state moved components, they move first ({@link Mover}),
     * then every DeviceManager of it resumes it. A move that fails fails the word count: its state is
     * where the failure left it, and counting on would give wrong counts. Returns when the move has come
     * back to the loop (at once when nothing moves).
     */
    private CompletableFuture<Void> resume(koala.fluent.Resumed resumed) {
        events.add(resumed.reason());
        java.util.Optional<MovePlan> plan;
        try {
            plan = moves.decided(book, resumed);
        } catch (IllegalStateException e) {
            book.find(resumed.appId()).ifPresent(entry -> fail(entry, e.getMessage()));
            return CompletableFuture.completedFuture(null);
        }
        List<String> to = resumed.to().stream().map(koala.fluent.Assignment::workerId).distinct().toList();
        if (plan.isEmpty()) {
            to.forEach(w -> tellDevice(w, resumed.appId(), false));
            return CompletableFuture.completedFuture(null);
        }
        return carry(plan.get(), false, () -> to.forEach(w -> tellDevice(w, resumed.appId(), false)));
    }

    /**
     * Carries out {@code plan} on the word count's lane, off the loop; back on the loop, once done (and
     * journalled so) {@code moved} runs, unless the word count is suspended again by then; a failure fails
     * the word count. Returns when the outcome has been taken on the loop.
     */
    private CompletableFuture<Void> carry(MovePlan plan, boolean again, Runnable moved) {
        String app = plan.app();
        carrying.add(app);
        CompletableFuture<Void> taken = new CompletableFuture<>();
        calls.move(plan, Map.copyOf(urls), again, (count, failure) -> carried(plan, again, count, failure, moved, taken),
                () -> {
                    carrying.remove(app);
                    taken.complete(null);
                });
        return taken;
    }

    /** What a move came to, on the loop: it counts only while it is still the move the word count waits for. */
    private void carried(MovePlan plan, boolean again, int count, koala.common.failure.Unavailable failure,
                         Runnable moved, CompletableFuture<Void> taken) {
        String app = plan.app();
        try {
            carrying.remove(app);
            if (!plan.equals(moves.unfinished().get(app))) {
                return; // it ended meanwhile (what ran was stopped), or a later move of it follows on its lane
            }
            moves.done(app);
            if (failure == null) {
                journal.append(new JournalEntry.Moved(now(), app));
                events.add(MasterEventKind.MOVED, app + ": moved " + count + (count == 1 ? " component" : " components")
                        + (again ? " (a move its predecessor left unfinished)" : "") + ": " + plan.describe(),
                        Map.of("app", app, "components", count));
                if (!suspended(app)) {
                    moved.run();
                }
                return;
            }
            for (String w : plan.before().distinct()) {
                if (!plan.after().workers().contains(w)) { // what it left behind there, frozen
                    tellStop(w, app);
                }
            }
            book.find(app).filter(entry -> entry.state() == AppBook.State.RUNNING).ifPresent(entry ->
                    fail(entry, failure.getMessage()));
        } finally {
            taken.complete(null);
        }
    }

    private boolean suspended(String app) {
        return state.running().stream().anyMatch(r -> r.app().id().equals(app) && r.suspended());
    }

    /**
     * Moves a predecessor decided and did not finish, once every worker they involve has reported to this
     * master (and so holds its key): done again from the start, which is safe ({@link Mover}); then the
     * word count resumes, unless the state has it suspended.
     */
    private void finishMoves() {
        for (MovePlan plan : moves.unfinished().values()) {
            Set<String> involved = new HashSet<>(plan.before().workers());
            involved.addAll(plan.after().workers());
            if (carrying.contains(plan.app()) || !heard.containsAll(involved) || !state.isRunning(plan.app())) {
                continue;
            }
            carry(plan, true, () -> plan.after().distinct().forEach(w -> tellDevice(w, plan.app(), false)));
        }
    }

    /**
     * Asked by the grid to give back {@code wanted} workers with none idle: workers whose every
     * application is a running word count yield them — their components move to free slots on the
     * other workers — fewest slots in use first, then by id, as the state allows. Returns those that
     * yielded, idle now, to be given back once the moves have come back.
     */
    private Provisioning.Yield yieldWorkers(int wanted) {
        List<String> yielded = new java.util.ArrayList<>();
        List<CompletableFuture<Void>> moving = new java.util.ArrayList<>();
        List<koala.fluent.FluentWorker> busy = state.workers().stream().filter(w -> !w.isIdle())
                .sorted(java.util.Comparator.comparingInt(koala.fluent.FluentWorker::usedSlots)
                        .thenComparing(koala.fluent.FluentWorker::id, koala.provisioning.NaturalOrder.IDS))
                .toList();
        for (koala.fluent.FluentWorker w : busy) {
            if (yielded.size() == wanted) {
                break;
            }
            Instant now = now();
            java.util.Optional<List<koala.fluent.Resumed>> moved = state.yieldWorker(w.id(), now);
            if (moved.isEmpty()) {
                continue;
            }
            journal.append(new JournalEntry.Yielded(now, w.id()));
            events.add(MasterEventKind.YIELDED, "worker " + w.id() + " yields "
                    + moved.get().stream().map(koala.fluent.Resumed::appId).toList() + " to be given back",
                    Map.of("node", w.id()));
            moved.get().forEach(r -> moving.add(resume(r)));
            yielded.add(w.id());
        }
        return new Provisioning.Yield(yielded, CompletableFuture.allOf(moving.toArray(CompletableFuture[]::new)));
    }

    private void tellStop(String worker, String app) {
        String url = urls.get(worker);
        if (url != null) {
            calls.stop(app, url, e -> events.add("could not stop " + app + " on " + worker + ": " + e.getMessage()));
        }
    }

    private CompletableFuture<Void> tellDevice(String worker, String app, boolean suspend) {
        String url = urls.get(worker);
        if (url == null) {
            return CompletableFuture.completedFuture(null);
        }
        return calls.suspend(app, url, suspend, e -> events.add("could not " + (suspend ? "suspend " : "resume ") + app
                + " on " + worker + ": " + e.getMessage()));
    }

    private void startFromQueue(AppOutcome started) {
        book.started(started);
        events.add(started.reason());
        launch(started, CompletableFuture.completedFuture(null)); // its job was answered when it was queued
    }

    /**
     * Its components on their DeviceManagers, on its lane once {@code after} (the suspensions it waits
     * for) is over, and its orchestrator through the runner: recorded when the runner answers, or handed
     * back at once if the application has ended by then. Returns when the components are in place, or
     * the start failed.
     */
    private CompletableFuture<Void> launch(AppOutcome placed, CompletableFuture<Void> after) {
        String app = placed.app().id();
        line.call(Runner::orchestrator, (place, e) -> {
            if (e != null) {
                events.add(app + " runs without an orchestrator: " + e.getMessage());
            } else if (book.find(app).filter(a -> a.state() == AppBook.State.RUNNING).isPresent()) {
                journal.append(new JournalEntry.Orchestrator(now(), app, place.node()));
                book.orchestrator(app, place.node());
            } else {
                orchestratorDone(app, place.node());
            }
        });
        AppBook.Entry entry = book.get(app);
        List<Components.Start> starts;
        try {
            starts = Components.of(app, entry.request(), placed.assignments(), urls);
        } catch (IllegalStateException e) {
            fail(entry, "cannot start its components: " + e.getMessage());
            return CompletableFuture.completedFuture(null);
        }
        return calls.deploy(app, starts, after, (start, e) -> book.find(app).filter(a -> a.state() == AppBook.State.RUNNING)
                .ifPresent(a -> fail(a, "cannot start " + start.deploy().role() + " on " + start.worker() + ": "
                        + e.getMessage())));
    }

    private void fail(AppBook.Entry entry, String why) {
        ended(entry, why);
        freed(book.get(entry.id()));
    }

    /** Stops what still runs of a failed application, and records its end; its slots are the caller's. */
    private void ended(AppBook.Entry entry, String why) {
        for (String worker : Set.copyOf(entry.workers())) {
            tellStop(worker, entry.id());
        }
        unconfirmed.remove(entry.id());
        moves.done(entry.id());
        journal.append(new JournalEntry.Ended(now(), entry.id(), AppBook.State.FAILED, why, Map.of()));
        book.ended(entry.id(), AppBook.State.FAILED, why, Map.of());
        events.add(MasterEventKind.APP_FAILED, entry.id() + " failed: " + why, Map.of("app", entry.id()));
    }

    private void freed(AppBook.Entry entry) {
        moves.done(entry.id());
        again(state.end(entry.id(), now()));
        orchestratorFreed(entry);
    }

    private void orchestratorFreed(AppBook.Entry entry) {
        if (entry.orchestrator() != null) {
            orchestratorDone(entry.id(), entry.orchestrator());
        }
    }

    private void orchestratorDone(String app, String node) {
        line.tell(r -> r.orchestratorDone(node), e -> events.add("orchestrator of " + app + " on " + node + ": "
                + e.getMessage()));
    }

    /**
     * A worker the runner no longer has: it leaves the registry first (journalled first, so a
     * replay loses it the same way), then what ran on it fails, and waiting word counts start on the
     * workers that remain — never on the one gone.
     */
    private void lost(String node) {
        if (state.workers().stream().noneMatch(w -> w.id().equals(node))) {
            return;
        }
        left(node);
        FrameworkState.Lost lost = state.lose(node, now());
        moves.lost(lost.failed().size());
        events.add(MasterEventKind.LEFT, "worker " + node + " left: its runner no longer has it", Map.of("node", node));
        for (Application app : lost.failed()) {
            book.find(app.id()).filter(e -> e.state() == AppBook.State.RUNNING).ifPresent(e -> {
                ended(e, "worker " + node + " was lost");
                orchestratorFreed(e);
            });
        }
        lost.resumed().forEach(this::resume);
        lost.started().forEach(this::startFromQueue);
    }

    /** A job's applications once it is placed; before that, no applications and why it waits. */
    public JobReply job(String id) {
        return loop.call(() -> jobNow(id));
    }

    private JobReply jobNow(String id) {
        List<AppReply> apps = book.ofJob(id).stream().map(AppBook.Entry::view).toList();
        if (!apps.isEmpty()) {
            return new JobReply(id, apps, growNotes.get(id));
        }
        if (pending != null && pending.arrival().job().job().id().equals(id)) {
            return new JobReply(id, List.of(), "waiting for its grow: " + pending.note());
        }
        int ahead = 0;
        for (Arrival a : arrivals) {
            if (a.job().job().id().equals(id)) {
                return new JobReply(id, List.of(), "waiting behind " + (ahead + (pending == null ? 0 : 1))
                        + " earlier job(s), first come first served");
            }
            ahead++;
        }
        throw new NotFound("job " + id);
    }

    public MasterStatus status() {
        return loop.call(() -> MasterView.of(provisioning.status().instance(), state, now(), book.all(), urls,
                events.recent(), moves));
    }

    public MetricsReport metrics() {
        return loop.call(() -> provisioning.metrics().report());
    }
}
