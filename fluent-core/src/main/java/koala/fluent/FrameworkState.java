package koala.fluent;

import koala.provisioning.Texts;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The FrameworkManager's state as a state machine of events, each given its instant: a worker
 * joins or leaves, a job is submitted, an application finishes. No I/O, no threads, no clock: the
 * framework master feeds it real events at real time, the simulator virtual ones at virtual time,
 * and both get the same outcomes. Events must come in time order.
 *
 * <p>A submitted job is placed by {@link ApplicationPlacement} behind the SWCs already waiting.
 * Whenever slots are freed or a worker joins, the queue is started first come, first served: the
 * head starts when it fits, and nothing overtakes a head that does not. Each running application
 * has its Orchestrator; where orchestrators run is the provisioning module's concern.
 *
 * <p>Under OnDemand the master asks {@link #growRequest(FluentJob)} when a job arrives, lets its runner
 * grow, and submits the job once the new workers have joined or the grow was refused, so that an
 * RL finds the idle worker asked for it. Joining workers start waiting SWCs first: FCFS holds
 * across jobs too.
 */
public final class FrameworkState {

    /**
     * An application running on {@code where} since {@code startedAt}, under its job's orchestrator;
     * an SWC suspended {@code suspensions} times so far, {@code pausedFor} in all before the present
     * suspension, which began at {@code pausedAt} (null while it runs). A suspended SWC's
     * {@code where} still lists the worker its suspended components wait on.
     */
    public record RunningApp(String jobId, Application app, List<Assignment> where, Instant startedAt, int suspensions,
            Duration pausedFor, Instant pausedAt) {
        public RunningApp(String jobId, Application app, List<Assignment> where, Instant startedAt) {
            this(jobId, app, where, startedAt, 0, Duration.ZERO, null);
        }

        public RunningApp {
            where = List.copyOf(where);
            pausedFor = pausedFor == null ? Duration.ZERO : pausedFor;
        }

        /** Whether it is suspended now. */
        public boolean suspended() {
            return pausedAt != null;
        }

        /** When it ends if it runs on: its start, its duration and the time it was suspended; while suspended, unknown. */
        public Instant endsAt() {
            if (suspended()) {
                throw new IllegalStateException(app.id() + " is suspended: it ends once resumed");
            }
            return startedAt.plus(app.duration()).plus(pausedFor);
        }

        RunningApp pause(Instant now) {
            return new RunningApp(jobId, app, where, startedAt, suspensions + 1, pausedFor, now);
        }

        RunningApp resume(Instant now, List<Assignment> at) {
            return new RunningApp(jobId, app, at, startedAt, suspensions, pausedFor.plus(Duration.between(pausedAt, now)),
                    null);
        }
    }

    /**
     * What an event started again: suspended SWCs resumed (in place or moved), then waiting SWCs
     * started from the queue, in that order (suspended work goes before the queue: no starvation).
     */
    public record Started(List<Resumed> resumed, List<AppOutcome> fromQueue) {
        public Started {
            resumed = List.copyOf(resumed);
            fromQueue = List.copyOf(fromQueue);
        }
    }

    /** An SWC waiting in the queue since {@code queuedAt}. */
    public record Waiting(String jobId, Application app, Instant queuedAt) {
    }

    /**
     * Everything the state machine holds at {@link #last}, as values: what a master writes to its
     * journal to start again from, instead of every event since its first start.
     */
    public record Snapshot(Instant last, List<FluentWorker> workers, List<Waiting> queue, List<RunningApp> running,
                           Map<String, WorkerTime> time, int accepted, int queued, int rejected, int startedFromQueue,
                           int finished, int suspended, int resumed, int moved, int yielded) {
        public Snapshot(Instant last, List<FluentWorker> workers, List<Waiting> queue, List<RunningApp> running,
                        Map<String, WorkerTime> time, int accepted, int queued, int rejected, int startedFromQueue,
                        int finished) {
            this(last, workers, queue, running, time, accepted, queued, rejected, startedFromQueue, finished, 0, 0, 0, 0);
        }

        public Snapshot {
            Objects.requireNonNull(last, "last");
            workers = List.copyOf(workers);
            queue = List.copyOf(queue);
            running = List.copyOf(running);
            time = Map.copyOf(time);
        }
    }

    private FrameworkSettings settings;
    private final Deque<Waiting> queue = new ArrayDeque<>();
    private final Map<String, RunningApp> running = new LinkedHashMap<>();
    private final Map<String, WorkerTime> time = new LinkedHashMap<>();
    private List<FluentWorker> workers = List.of();
    private Instant last;
    private int accepted;
    private int queued;
    private int rejected;
    private int startedFromQueue;
    private int finished;
    private int suspended;
    private int resumed;
    private int moved;
    private int yielded;

    /** A master with no workers yet, at {@code start}. */
    public FrameworkState(FrameworkSettings settings, Instant start) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.last = Objects.requireNonNull(start, "start");
    }

    /**
     * The state a {@link #snapshot()} was taken of, under {@code settings}: the same workers, queue
     * (head first), running applications and counters, and the same outcomes for the same events
     * from then on.
     */
    public static FrameworkState restore(FrameworkSettings settings, Snapshot snapshot) {
        FrameworkState state = new FrameworkState(settings, snapshot.last());
        state.workers = snapshot.workers();
        ApplicationPlacement.requireDistinctIds(state.workers);
        state.queue.addAll(snapshot.queue());
        snapshot.running().forEach(r -> state.running.put(r.app().id(), r));
        state.time.putAll(snapshot.time());
        state.workers.forEach(w -> state.time.putIfAbsent(w.id(), WorkerTime.NONE));
        state.accepted = snapshot.accepted();
        state.queued = snapshot.queued();
        state.rejected = snapshot.rejected();
        state.startedFromQueue = snapshot.startedFromQueue();
        state.finished = snapshot.finished();
        state.suspended = snapshot.suspended();
        state.resumed = snapshot.resumed();
        state.moved = snapshot.moved();
        state.yielded = snapshot.yielded();
        return state;
    }

    /** This state as a value, to {@link #restore} it from. */
    public Snapshot snapshot() {
        return new Snapshot(last, workers, List.copyOf(queue), List.copyOf(running.values()), time, accepted, queued,
                rejected, startedFromQueue, finished, suspended, resumed, moved, yielded);
    }

    /** Whether {@code appId} runs now. */
    public boolean isRunning(String appId) {
        return running.containsKey(appId);
    }

    /** A worker of {@link FrameworkSettings#slotsPerWorker()} slots joins, idle; waiting SWCs may start on it. */
    public List<AppOutcome> addWorker(String id, Instant now) {
        return addWorker(id, settings.slotsPerWorker(), now);
    }

    /**
     * A worker of {@code slots} slots joins, idle; returns the waiting SWCs that started, in queue
     * order. Only without suspension: {@link #join} says what resumed too.
     */
    public List<AppOutcome> addWorker(String id, int slots, Instant now) {
        return onlyFromQueue(join(id, slots, now));
    }

    /** A worker of {@code slots} slots joins, idle: suspended SWCs may move to it, then waiting ones start. */
    public Started join(String id, int slots, Instant now) {
        if (worker(id).isPresent()) {
            throw new IllegalArgumentException("worker " + id + " is already in the framework");
        }
        advance(now);
        List<FluentWorker> after = new ArrayList<>(workers);
        after.add(FluentWorker.idle(id, slots, now));
        workers = List.copyOf(after);
        time.putIfAbsent(id, WorkerTime.NONE);
        return startAgain(now);
    }

    /**
     * An idle worker leaves, e.g. once a release was granted. A busy one is refused: the master
     * only gives back idle workers, and what a lost node means for its applications is not modelled.
     */
    public void removeWorker(String id, Instant now) {
        FluentWorker w = worker(id).orElseThrow(() -> new IllegalArgumentException("no worker " + id));
        if (!w.isIdle()) {
            List<String> apps = w.running().stream().map(FluentWorker.Running::appId).toList();
            throw new IllegalStateException(id + " runs " + Texts.list(apps) + "; only an idle worker is removed");
        }
        advance(now);
        workers = workers.stream().filter(x -> !x.id().equals(id)).toList();
    }

    /**
     * What losing a worker did: the applications that ran on it failed (their slots on other
     * workers are free again), and the waiting SWCs that then started, in queue order.
     */
    public record Lost(List<Application> failed, List<AppOutcome> started, List<Resumed> resumed) {
        public Lost(List<Application> failed, List<AppOutcome> started) {
            this(failed, started, List.of());
        }

        public Lost {
            failed = List.copyOf(failed);
            started = List.copyOf(started);
            resumed = List.copyOf(resumed);
        }
    }

    /**
     * A worker is gone, busy or not — its node was ended (taken back by KOALA, or lost): it leaves
     * first, then every application with a component on it fails and frees its slots elsewhere,
     * then waiting SWCs start FCFS on the workers that remain (never on the one gone).
     */
    public Lost lose(String id, Instant now) {
        FluentWorker gone = worker(id).orElseThrow(() -> new IllegalArgumentException("no worker " + id));
        advance(now);
        workers = workers.stream().filter(x -> !x.id().equals(id)).toList();
        List<Application> failed = new ArrayList<>();
        List<FluentWorker.Running> there = new ArrayList<>(gone.running());
        there.addAll(gone.suspended());
        for (FluentWorker.Running r : there) {
            RunningApp app = running.remove(r.appId());
            List<String> hosts = app.where().stream().map(Assignment::workerId).toList();
            workers = workers.stream().map(w -> hosts.contains(w.id()) ? w.stop(r.appId(), now) : w).toList();
            failed.add(app.app());
        }
        Started again = startAgain(now);
        return new Lost(failed, again.fromQueue(), again.resumed());
    }

    /**
     * A worker is taken back and its every application is a running SWC (batch work that can
     * yield): with suspension and moves allowed, each SWC's components there are suspended and
     * moved to free slots on the other workers (their state carried), and the worker leaves idle.
     * Returns the moves; empty, changing nothing, when the worker runs anything else, when
     * suspension or moves are off, or when the other workers lack the slots — then it is lost with
     * what runs on it ({@link #lose}). A yield does not count against an SWC's k: no RL caused it.
     */
    public Optional<List<Resumed>> yieldWorker(String id, Instant now) {
        FluentWorker w = worker(id).orElseThrow(() -> new IllegalArgumentException("no worker " + id));
        boolean batchOnly = !w.running().isEmpty() && w.suspended().isEmpty() && w.running().stream()
                .allMatch(r -> !running.get(r.appId()).app().isRl() && !running.get(r.appId()).suspended());
        if (!batchOnly || settings.maxSuspensions() == 0 || !settings.moveSuspended()) {
            return Optional.empty();
        }
        List<FluentWorker> trial = workers.stream().filter(x -> !x.id().equals(id)).toList();
        Map<String, List<Assignment>> moves = new LinkedHashMap<>();
        for (FluentWorker.Running r : w.running()) {
            List<String> holding = running.get(r.appId()).where().stream().map(Assignment::workerId).toList();
            Optional<List<Assignment>> to = ApplicationPlacement.fitSlots(
                    trial.stream().filter(x -> !holding.contains(x.id())).toList(), r.slots());
            if (to.isEmpty()) {
                return Optional.empty();
            }
            trial = ApplicationPlacement.apply(trial, r.appId(), to.get());
            moves.put(r.appId(), to.get());
        }
        advance(now);
        workers = trial;
        List<Resumed> done = new ArrayList<>();
        moves.forEach((app, to) -> {
            RunningApp r = running.get(app);
            List<Assignment> where = new ArrayList<>(r.where().stream().filter(a -> !a.workerId().equals(id)).toList());
            where.addAll(to);
            running.put(app, new RunningApp(r.jobId(), r.app(), where, r.startedAt(), r.suspensions(), r.pausedFor(),
                    null));
            done.add(new Resumed(app, to, List.of(id), Duration.ZERO, app + " moved from " + id + " to "
                    + to.stream().map(Assignment::toString).collect(java.util.stream.Collectors.joining(", "))
                    + ": " + id + " taken back"));
        });
        yielded++;
        return Optional.of(done);
    }

    /** Places {@code job}: each application starts, queues or is rejected, as the outcome says. */
    public PlacementOutcome submit(FluentJob job, Instant now) {
        job.apps().forEach(a -> requireNotLive(a.id()));
        advance(now);
        PlacementOutcome outcome = ApplicationPlacement.place(workers, job, queue.size(), suspendable());
        workers = outcome.workers();
        for (AppOutcome app : outcome.apps()) {
            switch (app.verdict()) {
                case PLACED -> {
                    running.put(app.app().id(), new RunningApp(job.id(), app.app(), app.assignments(), now));
                    app.suspended().forEach(x -> running.put(x.appId(), running.get(x.appId()).pause(now)));
                    suspended += app.suspended().size();
                    accepted++;
                }
                case QUEUED -> {
                    queue.addLast(new Waiting(job.id(), app.app(), now));
                    queued++;
                }
                case REJECTED -> rejected++;
            }
        }
        return outcome;
    }

    /**
     * {@code appId} finished: its slots are freed, then waiting SWCs start FCFS; returns those, in
     * order. Only without suspension: {@link #end} says what resumed too.
     */
    public List<AppOutcome> finish(String appId, Instant now) {
        return onlyFromQueue(end(appId, now));
    }

    /**
     * {@code appId} finished: its slots are freed; SWCs suspended for it (or for others) resume or
     * move as the freed slots allow, in the order they were suspended; then waiting SWCs start FCFS.
     */
    public Started end(String appId, Instant now) {
        if (!running.containsKey(appId)) {
            throw new IllegalArgumentException("no running application " + appId);
        }
        advance(now);
        RunningApp done = running.remove(appId);
        List<String> hosts = done.where().stream().map(Assignment::workerId).toList();
        workers = workers.stream().map(w -> hosts.contains(w.id()) ? w.stop(appId, now) : w).toList();
        finished++;
        return startAgain(now);
    }

    /** The grow the master asks for {@code job} under OnDemand, or reports under Static and Proactive. */
    public ResizeRequest growRequest(FluentJob job) {
        return ResizeRequest.grow(settings.provisioning(),
                WorkerDemand.lacking(workers, job, settings.slotsPerWorker(), suspendable()));
    }

    /** The suspended SWCs, in the order they were suspended. */
    public List<RunningApp> suspendedApps() {
        return running.values().stream().filter(RunningApp::suspended)
                .sorted(java.util.Comparator.comparing(RunningApp::pausedAt)).toList();
    }

    /** What an RL may suspend now: the running SWCs not suspended, with their counts, under the settings' k. */
    Suspendable suspendable() {
        if (settings.maxSuspensions() == 0) {
            return Suspendable.NONE;
        }
        Map<String, Integer> times = new java.util.HashMap<>();
        Map<String, Integer> size = new java.util.HashMap<>();
        for (RunningApp r : running.values()) {
            if (!r.app().isRl() && !r.suspended()) {
                times.put(r.app().id(), r.suspensions());
                size.put(r.app().id(), r.app().components());
            }
        }
        return new Suspendable(settings.maxSuspensions(), times, size);
    }

    /** The release of workers idle at least t_idle at {@code now}, asked under OnDemand, else reported. */
    public ResizeRequest releaseRequest(Instant now) {
        requireNotBefore(now);
        List<WorkerDemand.IdleWorker> idle = WorkerDemand.idleWorkers(workers, settings.tIdle(), now);
        return ResizeRequest.release(settings.provisioning(), idle, Texts.seconds(settings.tIdle()));
    }

    /** The counters and each worker's busy and idle time up to {@code now}. */
    public Metrics metrics(Instant now) {
        requireNotBefore(now);
        Map<String, WorkerTime> upToNow = new LinkedHashMap<>(time);
        Duration elapsed = Duration.between(last, now);
        workers.forEach(w -> upToNow.put(w.id(), upToNow.get(w.id()).plus(!w.isIdle(), elapsed)));
        return new Metrics(accepted, queued, rejected, startedFromQueue, finished, queue.size(), running.size(), upToNow,
                suspended, resumed, moved, (int) running.values().stream().filter(RunningApp::suspended).count(), yielded);
    }

    public List<FluentWorker> workers() {
        return workers;
    }

    /** The waiting SWCs, head first. */
    public List<Application> queue() {
        return queue.stream().map(Waiting::app).toList();
    }

    /** The running applications, in the order they started. */
    public List<RunningApp> running() {
        return List.copyOf(running.values());
    }

    public FrameworkSettings settings() {
        return settings;
    }

    /**
     * New settings from now on, e.g. when an admin changed t_idle: later requests follow them;
     * workers keep their slots.
     */
    public void retune(FrameworkSettings changed) {
        this.settings = Objects.requireNonNull(changed, "settings");
    }

    private static List<AppOutcome> onlyFromQueue(Started started) {
        if (!started.resumed().isEmpty()) {
            throw new IllegalStateException("SWCs resumed (" + started.resumed().get(0).reason()
                    + "): with suspension the caller takes Started");
        }
        return started.fromQueue();
    }

    /** Suspended SWCs first, in the order suspended, then the queue. */
    private Started startAgain(Instant now) {
        List<Resumed> again = new ArrayList<>();
        for (RunningApp paused : suspendedApps()) {
            resume(paused, now).ifPresent(again::add);
        }
        return new Started(again, startQueued(now));
    }

    /**
     * {@code paused} runs again when all its suspended components can, at once: those on a worker
     * with their slots free again take them back; when moves are allowed, the others move to free
     * slots on workers not holding any of it, packed as an SWC is placed. Otherwise it stays
     * suspended and nothing changes.
     */
    private Optional<Resumed> resume(RunningApp paused, Instant now) {
        String appId = paused.app().id();
        List<FluentWorker> trial = workers;
        List<Assignment> to = new ArrayList<>();
        List<String> left = new ArrayList<>();
        for (FluentWorker home : workers.stream().filter(w -> w.holdsSuspended(appId)).toList()) {
            int slots = home.suspended().stream().filter(r -> r.appId().equals(appId)).findFirst().orElseThrow().slots();
            FluentWorker now0 = trial.stream().filter(w -> w.id().equals(home.id())).findFirst().orElseThrow();
            if (now0.freeSlots() >= slots) {
                trial = trial.stream().map(w -> w == now0 ? w.resume(appId) : w).toList();
                to.add(new Assignment(home.id(), slots));
                continue;
            }
            List<FluentWorker> others = trial.stream().filter(w -> !w.runs(appId) && !w.holdsSuspended(appId)).toList();
            Optional<List<Assignment>> elsewhere = settings.moveSuspended()
                    ? ApplicationPlacement.fitSlots(others, slots) : Optional.empty();
            if (elsewhere.isEmpty()) {
                return Optional.empty();
            }
            trial = trial.stream().map(w -> w == now0 ? w.stop(appId, now) : w).toList();
            trial = ApplicationPlacement.apply(trial, appId, elsewhere.get());
            to.addAll(elsewhere.get());
            left.add(home.id());
        }
        workers = trial;
        running.put(appId, paused.resume(now, to));
        resumed++;
        moved += left.isEmpty() ? 0 : 1;
        Duration pausedFor = Duration.between(paused.pausedAt(), now);
        return Optional.of(new Resumed(appId, to, left, pausedFor, appId + " resumed after " + Texts.seconds(pausedFor)
                + " suspended: " + to.stream().map(Assignment::toString).collect(java.util.stream.Collectors.joining(", "))
                + (left.isEmpty() ? "" : " moved from " + Texts.list(left))));
    }

    private List<AppOutcome> startQueued(Instant now) {
        List<AppOutcome> started = new ArrayList<>();
        while (!queue.isEmpty()) {
            Waiting head = queue.peekFirst();
            Optional<List<Assignment>> fit = ApplicationPlacement.fit(workers, head.app());
            if (fit.isEmpty()) {
                break;
            }
            queue.removeFirst();
            Application app = head.app();
            workers = ApplicationPlacement.apply(workers, app.id(), fit.get());
            running.put(app.id(), new RunningApp(head.jobId(), app, fit.get(), now));
            startedFromQueue++;
            started.add(AppOutcome.placed(app, fit.get(), app.id() + " started from the queue: "
                    + ApplicationPlacement.describe(app, fit.get()) + ", waited "
                    + Texts.seconds(Duration.between(head.queuedAt(), now))));
        }
        return started;
    }

    /** Moves the clock to {@code now}, adding the time since the last event to each worker's busy or idle time. */
    private void advance(Instant now) {
        requireNotBefore(now);
        Duration elapsed = Duration.between(last, now);
        workers.forEach(w -> time.put(w.id(), time.get(w.id()).plus(!w.isIdle(), elapsed)));
        last = now;
    }

    private void requireNotBefore(Instant now) {
        Objects.requireNonNull(now, "now");
        if (now.isBefore(last)) {
            throw new IllegalArgumentException("time went back from " + last + " to " + now);
        }
    }

    private void requireNotLive(String appId) {
        if (running.containsKey(appId) || queue.stream().anyMatch(w -> w.app().id().equals(appId))) {
            throw new IllegalArgumentException("application " + appId + " is already running or queued");
        }
    }

    private Optional<FluentWorker> worker(String id) {
        return workers.stream().filter(w -> w.id().equals(id)).findFirst();
    }
}
