package koala.fluent.master;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import koala.fluent.FrameworkState;
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.FluentMessages.JobRequest;
import koala.fluent.wire.FluentMessages.MasterStatus;
import koala.fluent.wire.FluentMessages.MetricsReport;
import koala.fluent.wire.MasterEventKind;

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
 * <p>This class owns the loop and answers on it; the work is its parts', one concern each, sharing the
 * state, the books and the lines out ({@link MasterContext}): the line of jobs and their grows
 * ({@link JobLine}), an application's start, end and failure ({@link AppLifecycle}), word counts
 * suspended and resumed ({@link Suspending}) and moved between workers ({@link Moves}), and which
 * workers are the master's, with the releases and give-backs to the runner ({@link Membership}).
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
    private final Membership members;

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
        Suspending suspending = new Suspending(master, moves, apps);
        apps.resumingThrough(suspending);
        this.jobs = new JobLine(master, apps, suspending, growWait, r);
        this.members = new Membership(master, apps, suspending, jobs, r.gone());
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
            members.hello(hello);
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
        moves.finishUnfinished(members.heard());
        jobs.growWaited(master.now());
        members.giveBack();
        Instant now = master.now(); // a give-back may have moved word counts since, at later instants
        members.release(now);
        members.sample(now);
        master.provisioning().reportActivity(master.line(), master.state().workers());
        if (journal.sinceCompaction() >= COMPACT_AFTER && !members.offering()) {
            journal.compact(snapshot());
        }
    }

    /** Everything the journal needs to start again from now. */
    private JournalEntry.Snapshot snapshot() {
        List<JournalEntry.Arrived> waiting = jobs.waitingEntries();
        JournalEntry.GrowAsked grow = jobs.grantedGrow();
        return MasterRecovery.snapshot(master.now(), master.state(), master.book(), master.urls(), waiting, grow,
                jobs.jobs(), jobs.growNotes(), members.gone(), KEEP_ENDED, master.moveBook());
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
}
