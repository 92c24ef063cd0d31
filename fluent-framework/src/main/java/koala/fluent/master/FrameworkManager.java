package koala.fluent.master;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import koala.common.failure.Gone;
import koala.common.failure.InvalidField;
import koala.fluent.Application;
import koala.fluent.FluentWorker;
import koala.fluent.FrameworkState;
import koala.fluent.ResizeRequest;
import koala.fluent.Resumed;
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.fluent.wire.FluentMessages.MasterStatus;
import koala.fluent.wire.FluentMessages.MetricsReport;
import koala.fluent.wire.MasterEventKind;
import koala.provisioning.NaturalOrder;

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
 *
 * <p>This class owns the loop and answers on it, and keeps which workers are the master's; its parts
 * share the state, the books and the lines out ({@link MasterContext}): the line of jobs and their
 * grows ({@link JobLine}), an application's start, end and failure ({@link AppLifecycle}), word counts
 * suspended and resumed ({@link Suspending}) and moved between workers ({@link Moves}).
 */
public final class FrameworkManager {
    /** A job taken in: its id, and its reply once it is placed. */
    public record Submitted(String job, CompletableFuture<JobReply> reply) {
    }

    /** Entries after which the journal is compacted into one snapshot. */
    static final int COMPACT_AFTER = 1000;
    /** Ended applications a snapshot keeps for {@code GET /jobs/{id}}, the latest. */
    static final int KEEP_ENDED = 1000;

    private final MasterContext master;
    private final MasterLoop loop;
    private final JournalLine journal;
    private final AppLifecycle apps;
    private final Moves moves;
    private final JobLine jobs;
    private final Suspending suspending;
    /** Workers that left: a late hello of theirs must not bring them back. */
    private final Set<String> gone;
    /** Workers whose DeviceManager has said hello to this master: they hold its key, a move may call them. */
    private final Set<String> heard = new HashSet<>();
    /** Whether a release or a give-back is at the runner: its workers are out of the placement meanwhile. */
    private boolean releasing;
    private boolean givingBack;

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
        DeviceCalls calls = new DeviceCalls(devices, DeviceLanes.on(threads.deviceCalls()), this.journal, loop);
        RunnerLine line = RunnerLine.on(runner, threads.runnerCalls(), this.journal::then, loop);
        List<JournalEntry> written = journal.read();
        MasterRecovery.Recovered r = MasterRecovery.replay(written, provisioning.settings(), clock.instant());
        FrameworkState state = r.state();
        Instant floor = written.isEmpty() ? clock.instant() : written.get(written.size() - 1).at();
        this.master = new MasterContext(clock, floor, state, r.book(), new LinkedHashMap<>(r.urls()), r.moves(),
                events, this.journal, calls, line, loop, provisioning);
        // the parts, each on the ones before it; the one loop back (an end frees slots and resumes word
        // counts, whose resume or move may fail one) is closed by resumingThrough
        this.apps = new AppLifecycle(master);
        this.moves = new Moves(master, apps);
        this.suspending = new Suspending(master, moves, apps);
        apps.resumingThrough(suspending);
        this.jobs = new JobLine(master, apps, suspending, growWait, r);
        this.gone = new HashSet<>(r.gone());
        if (r.entries() > 0) {
            events.add("recovered from the journal (" + r.entries() + " entries): " + master.urls().size()
                    + " workers, " + state.running().size() + " applications running, " + state.queue().size()
                    + " queued, " + jobs.waiting() + " jobs waiting; " + jobs.jobs() + " jobs so far");
        }
        journal.compact(snapshot()); // before the loop takes anything: what the predecessor wrote is one entry
    }

    /** Ticks every {@code period} on the loop: what {@link MasterMain} runs; worked examples call {@link #tick}. */
    void ticking(Duration period) {
        loop.every(period, this::ticked);
    }

    /** Says {@code text} among the master's events, from its loop (the events are the loop's, as its state is). */
    void note(MasterEventKind kind, String text, Map<String, ?> fields) {
        loop.post(() -> master.events().add(kind, text, fields));
    }

    /**
     * A client's job: checked (its files read on the caller's thread), then placed in arrival order on
     * the loop; the reply completes once it is placed.
     */
    public Submitted submit(JobRequest request) {
        JobIntake.Checked checked = JobIntake.check(request);
        return loop.call(() -> jobs.arrived(request.name(), checked));
    }

    /** A DeviceManager reports in: its worker joins, and may start waiting SWCs or complete a pending grow. */
    public void device(DeviceHello hello) {
        loop.call(() -> {
            hello(hello);
            return null;
        });
    }

    /** An application's last component is done (or failed): its slots and orchestrator are freed. */
    public void done(String app, AppDone done) {
        loop.call(() -> {
            apps.done(app, done);
            return null;
        });
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
        jobs.takeArrivals(); // jobs a restarted master found waiting in its journal
        moves.finishUnfinished(heard);
        jobs.growWaited(master.now());
        giveBack();
        Instant now = master.now(); // a give-back may have moved word counts since, at later instants
        release(now);
        sample(now);
        master.provisioning().reportActivity(master.line(), master.state().workers());
        if (journal.sinceCompaction() >= COMPACT_AFTER && !offering()) {
            journal.compact(snapshot());
        }
    }

    /** Everything the journal needs to start again from now. */
    private JournalEntry.Snapshot snapshot() {
        List<JournalEntry.Arrived> waiting = jobs.waitingEntries();
        JournalEntry.GrowAsked grow = jobs.grantedGrow();
        return MasterRecovery.snapshot(master.now(), master.state(), master.book(), master.urls(), waiting, grow,
                jobs.jobs(), jobs.growNotes(), gone, KEEP_ENDED, master.moveBook());
    }

    /** A job's applications once it is placed; before that, no applications and why it waits. */
    public JobReply job(String id) {
        return loop.call(() -> jobs.job(id));
    }

    public MasterStatus status() {
        return loop.call(() -> MasterView.of(master.provisioning().status().instance(), master.state(), master.now(),
                master.book().all(), master.urls(), master.events().recent(), master.moveBook()));
    }

    public MetricsReport metrics() {
        return loop.call(() -> master.provisioning().metrics().report());
    }

    /** A DeviceManager reports in: its worker joins, and may start waiting SWCs or complete a pending grow. */
    private void hello(DeviceHello hello) {
        if (hello.node() == null || hello.url() == null) {
            throw new InvalidField(hello.node() == null ? "node" : "url", "missing");
        }
        if (hello.slots() != null && hello.slots() < 1) {
            throw new InvalidField("slots", hello.slots() + ": a worker has at least 1 slot");
        }
        if (gone.contains(hello.node())) {
            throw new Gone("worker " + hello.node() + " has left the instance", "node");
        }
        heard.add(hello.node());
        if (master.urls().containsKey(hello.node())) {
            again(hello);
            return;
        }
        FrameworkState state = master.state();
        int slots = hello.slots() == null ? state.settings().slotsPerWorker() : hello.slots();
        master.journal().append(new JournalEntry.Joined(master.now(), hello.node(), hello.url(), slots));
        master.urls().put(hello.node(), hello.url());
        FrameworkState.Started started = state.join(hello.node(), slots, master.now());
        master.events().add(MasterEventKind.JOINED, "worker " + hello.node() + " joined (" + slots + " slots) at "
                + hello.url(), Map.of("node", hello.node(), "slots", slots, "url", hello.url()));
        apps.again(started);
        jobs.joinedForGrow();
        master.provisioning().reportActivity(master.line(), state.workers());
    }

    /**
     * A known worker's hello: a DeviceManager's regular one (quiet), or its first to this master
     * after a restart, with the applications it still runs or has not reported yet.
     */
    private void again(DeviceHello hello) {
        if (!hello.url().equals(master.urls().put(hello.node(), hello.url()))) {
            master.events().add(MasterEventKind.REJOINED, "worker " + hello.node() + " reported in again at "
                    + hello.url(), Map.of("node", hello.node(), "url", hello.url()));
        }
        if (hello.running() == null) {
            return;
        }
        apps.confirm(hello);
    }

    /**
     * What the grid's arbitration asks back, once no give-back is at the runner: the workers chosen
     * ({@link Provisioning#giveBack}) leave the placement at once, and those the runner does not take
     * come back.
     */
    private void giveBack() {
        if (!givingBack) {
            givingBack = true;
            Map<String, Integer> slots = new LinkedHashMap<>();
            master.provisioning().giveBack(master.line(), master.state(), this::yieldWorkers,
                    idle -> slots.putAll(leave(idle)), (offered, taken) -> {
                        givingBack = false;
                        settle(offered, taken, slots);
                    });
        }
    }

    /** Workers idle long enough released at {@code now}, once no release is at the runner. */
    private void release(Instant now) {
        if (!jobs.waitingForGrow() && !releasing) {
            // while a job waits for its grow, the idle workers are the ones it counted on: none goes
            ResizeRequest down = master.provisioning().releaseAsk(master.state(), now);
            if (down != null) {
                Map<String, Integer> slots = leave(down.release());
                releasing = true;
                master.provisioning().release(master.line(), down, released -> {
                    releasing = false;
                    settle(down.release(), released, slots);
                });
            }
        }
    }

    /** Each sample period, the runner's status: workers it no longer has are lost. */
    private void sample(Instant now) {
        master.provisioning().sample(master.line(), master.state(), now, master::now,
                () -> Set.copyOf(master.urls().keySet()), lost -> lost.forEach(this::lost));
    }

    /** Whether a release or a give-back is at the runner (a snapshot waits: its workers are in neither place). */
    private boolean offering() {
        return releasing || givingBack;
    }

    /**
     * Asked by the grid to give back {@code wanted} workers with none idle: workers whose every
     * application is a running word count yield them — their components move to free slots on the
     * other workers — fewest slots in use first, then by id, as the state allows. Returns those that
     * yielded, idle now, to be given back once the moves have come back.
     */
    private Provisioning.Yield yieldWorkers(int wanted) {
        List<String> yielded = new ArrayList<>();
        List<CompletableFuture<Void>> moving = new ArrayList<>();
        List<FluentWorker> busy = master.state().workers().stream().filter(w -> !w.isIdle())
                .sorted(Comparator.comparingInt(FluentWorker::usedSlots)
                        .thenComparing(FluentWorker::id, NaturalOrder.IDS))
                .toList();
        for (FluentWorker w : busy) {
            if (yielded.size() == wanted) {
                break;
            }
            Instant now = master.now();
            Optional<List<Resumed>> moved = master.state().yieldWorker(w.id(), now);
            if (moved.isEmpty()) {
                continue;
            }
            master.journal().append(new JournalEntry.Yielded(now, w.id()));
            master.events().add(MasterEventKind.YIELDED, "worker " + w.id() + " yields "
                    + moved.get().stream().map(Resumed::appId).toList() + " to be given back",
                    Map.of("node", w.id()));
            moved.get().forEach(r -> moving.add(suspending.resume(r)));
            yielded.add(w.id());
        }
        return new Provisioning.Yield(yielded, CompletableFuture.allOf(moving.toArray(CompletableFuture[]::new)));
    }

    /**
     * Idle workers about to be offered to the runner leave the placement now, so that no application
     * is placed on a node the runner is giving back; returns each one's slots, to take back those it keeps.
     */
    private Map<String, Integer> leave(List<String> nodes) {
        Map<String, Integer> slots = new LinkedHashMap<>();
        Instant now = master.now();
        for (String node : nodes) {
            master.state().workers().stream().filter(w -> w.id().equals(node)).findFirst().ifPresent(w -> {
                slots.put(node, w.slots());
                master.state().removeWorker(node, now);
            });
        }
        return slots;
    }

    /** The runner answered an offer of {@code offered}: those it {@code took} are gone, the others are workers again. */
    private void settle(List<String> offered, List<String> took, Map<String, Integer> slots) {
        Instant now = master.now();
        for (String node : offered) {
            if (took.contains(node)) {
                left(node);
            } else if (slots.containsKey(node) && master.urls().containsKey(node)) {
                apps.again(master.state().join(node, slots.get(node), now));
            }
        }
        jobs.joinedForGrow();
    }

    private void left(String node) {
        master.journal().append(new JournalEntry.Left(master.now(), node));
        master.urls().remove(node);
        gone.add(node);
    }

    /**
     * A worker the runner no longer has: it leaves the registry first (journalled first, so a
     * replay loses it the same way), then what ran on it fails, and waiting word counts start on the
     * workers that remain — never on the one gone.
     */
    private void lost(String node) {
        if (master.state().workers().stream().noneMatch(w -> w.id().equals(node))) {
            return;
        }
        left(node);
        FrameworkState.Lost lost = master.state().lose(node, master.now());
        master.moveBook().lost(lost.failed().size());
        master.events().add(MasterEventKind.LEFT, "worker " + node + " left: its runner no longer has it",
                Map.of("node", node));
        for (Application app : lost.failed()) {
            master.book().find(app.id()).filter(e -> e.state() == AppBook.State.RUNNING).ifPresent(e -> {
                apps.ended(e, "worker " + node + " was lost");
                apps.orchestratorFreed(e);
            });
        }
        lost.resumed().forEach(suspending::resume);
        lost.started().forEach(apps::startFromQueue);
    }
}
