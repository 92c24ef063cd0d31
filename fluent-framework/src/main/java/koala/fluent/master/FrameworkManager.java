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
import koala.common.event.EventLine;
import koala.common.failure.Conflict;
import koala.common.failure.InvalidField;
import koala.common.failure.NotFound;
import koala.common.http.ApiException;
import koala.common.runner.RunnerMessages.GrowResult;
import koala.fluent.AppOutcome;
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

/**
 * The framework's master, the FrameworkManager: the registry of DeviceManagers, the jobs clients
 * submit and the applications' lifecycle, on the reference framework's {@link FrameworkState}.
 * Jobs are taken first come, first served. Under OnDemand a job that lacks workers waits while
 * its runner grows exactly those, until the new DeviceManagers have reported in (or the grow was
 * refused, or {@code growWait} passed), so that its RLs find the idle workers asked for them;
 * workers idle at least t_idle are given back. Under Static and Proactive the same requests are
 * only logged. Each running application gets its orchestrator through the runner. The master
 * tells the runner which workers are busy, so that the runner's t_idle timers are the master's.
 * All state is guarded by this object's lock; time comes from the injected clock.
 */
public final class FrameworkManager {
    private record Arrival(JobIntake.Accepted job, CompletableFuture<JobReply> reply) {
    }

    /** A job taken in: its id, and its reply once it is placed. */
    public record Submitted(String job, CompletableFuture<JobReply> reply) {
    }

    private record PendingGrow(Arrival arrival, Set<String> nodes, Instant deadline, String note) {
    }

    private final InstantSource clock;
    private final Runner runner;
    private final Devices devices;
    private final Duration growWait;
    private final FrameworkState state;
    private final AppBook book = new AppBook();
    private final Map<String, String> urls = new LinkedHashMap<>();
    private final Deque<Arrival> arrivals = new ArrayDeque<>();
    /** What each placed job's grow came to, for its later readers. */
    private final Map<String, String> growNotes = new java.util.HashMap<>();
    private final MasterEvents events;
    private final Provisioning provisioning;
    private PendingGrow pending;
    private int jobs;

    FrameworkManager(InstantSource clock, Runner runner, Devices devices, MasterEvents events,
                     Provisioning provisioning, Duration growWait) {
        this.clock = clock;
        this.runner = runner;
        this.devices = devices;
        this.events = events;
        this.provisioning = provisioning;
        this.growWait = growWait;
        this.state = new FrameworkState(provisioning.settings(), clock.instant());
    }

    /** A client's job: checked, then placed in arrival order; the reply completes once it is placed. */
    public synchronized Submitted submit(JobRequest request) {
        String id = "j" + (jobs + 1);
        JobIntake.Accepted job = JobIntake.check(id, request, clock.instant());
        jobs++;
        Arrival arrival = new Arrival(job, new CompletableFuture<>());
        arrivals.addLast(arrival);
        events.add(MasterEventKind.JOB_ARRIVED, "job " + id + (request.name() == null ? "" : " (" + request.name()
                + ")") + " arrived: " + job.job().apps().size() + " applications",
                Map.of("job", id, "apps", job.job().apps().size()));
        takeArrivals();
        return new Submitted(id, arrival.reply());
    }

    /** A DeviceManager reports in: its worker joins, and may start waiting SWCs or complete a pending grow. */
    public synchronized void device(DeviceHello hello) {
        if (hello.node() == null || hello.url() == null) {
            throw new InvalidField(hello.node() == null ? "node" : "url", "missing");
        }
        if (hello.slots() != null && hello.slots() < 1) {
            throw new InvalidField("slots", hello.slots() + ": a worker has at least 1 slot");
        }
        if (urls.put(hello.node(), hello.url()) != null) {
            events.add(MasterEventKind.REJOINED, "worker " + hello.node() + " reported in again at " + hello.url(),
                    Map.of("node", hello.node(), "url", hello.url()));
            return;
        }
        int slots = hello.slots() == null ? state.settings().slotsPerWorker() : hello.slots();
        List<AppOutcome> started = state.addWorker(hello.node(), slots, clock.instant());
        events.add(MasterEventKind.JOINED, "worker " + hello.node() + " joined (" + slots + " slots) at " + hello.url(),
                Map.of("node", hello.node(), "slots", slots, "url", hello.url()));
        started.forEach(this::startFromQueue);
        if (pending != null && urls.keySet().containsAll(pending.nodes())) {
            PendingGrow done = pending;
            pending = null;
            place(done.arrival(), done.note() + "; the new workers joined");
            takeArrivals();
        }
        provisioning.reportActivity(state.workers());
    }

    /** An application's last component is done (or failed): its slots and orchestrator are freed. */
    public synchronized void done(String app, AppDone done) {
        AppBook.Entry entry = book.find(app).orElseThrow(() -> new NotFound("application " + app));
        if (entry.state() != AppBook.State.RUNNING) {
            throw new Conflict(app + " is " + entry.state() + ", not running", "app");
        }
        if (done.error() != null) {
            fail(entry, done.error());
        } else {
            String check = Checks.describe(entry, done.result());
            book.ended(app, check.startsWith("MISMATCH") ? AppBook.State.FAILED : AppBook.State.FINISHED,
                    check, Checks.withCheck(entry, done.result()));
            events.add(MasterEventKind.APP_FINISHED, app + " finished on " + done.node() + ": " + check,
                    EventLine.fields("app", app, "node", done.node()));
            freed(entry);
        }
        provisioning.reportActivity(state.workers());
    }

    /** Every second: a pending grow's deadline, releases of idle workers, and each sample period the metrics. */
    public synchronized void tick() {
        Instant now = clock.instant();
        if (pending != null && !now.isBefore(pending.deadline())) {
            PendingGrow late = pending;
            pending = null;
            Set<String> missing = new HashSet<>(late.nodes());
            missing.removeAll(urls.keySet());
            place(late.arrival(), late.note() + "; " + missing + " not in after " + growWait.toSeconds()
                    + " s, placed with the workers there");
            takeArrivals();
        }
        if (pending == null) {
            // while a job waits for its grow, the idle workers are the ones it counted on: none goes
            provisioning.release(state, now).forEach(node -> {
                state.removeWorker(node, now);
                urls.remove(node);
            });
        }
        provisioning.sample(state, now, urls.keySet()).forEach(this::lost);
        provisioning.reportActivity(state.workers());
    }

    private void takeArrivals() {
        while (pending == null && !arrivals.isEmpty()) {
            Arrival next = arrivals.pollFirst();
            ResizeRequest up = state.growRequest(next.job().job());
            events.add(next.job().job().id() + ": " + up.reason());
            if (!up.ask()) {
                place(next, up.reason());
                continue;
            }
            GrowResult grow = provisioning.grow(up.grow());
            String note = "asked to grow " + up.grow() + ", granted " + grow.granted()
                    + (grow.reason() == null ? "" : " (" + grow.reason() + ")");
            if (grow.granted() == 0) {
                place(next, note);
            } else {
                pending = new PendingGrow(next, Set.copyOf(grow.nodes()), clock.instant().plus(growWait), note);
            }
        }
    }

    private void place(Arrival arrival, String growNote) {
        JobIntake.Accepted job = arrival.job();
        String id = job.job().id();
        PlacementOutcome outcome = state.submit(job.job(), clock.instant());
        for (AppOutcome app : outcome.apps()) {
            String appId = app.app().id();
            book.submitted(id, app, job.requests().get(appId), job.expected().get(appId));
            events.add(app.reason());
        }
        outcome.with(AppOutcome.Verdict.PLACED).forEach(this::launch);
        growNotes.put(id, growNote);
        arrival.reply().complete(job(id));
    }

    private void startFromQueue(AppOutcome started) {
        book.started(started);
        events.add(started.reason());
        launch(started);
    }

    /** Its orchestrator through the runner, then its components on their DeviceManagers. */
    private void launch(AppOutcome placed) {
        String app = placed.app().id();
        try {
            book.orchestrator(app, runner.orchestrator().node());
        } catch (ApiException e) {
            events.add(app + " runs without an orchestrator: " + e.getMessage());
        }
        AppBook.Entry entry = book.get(app);
        Components.Start current = null;
        try {
            for (Components.Start start : Components.of(app, entry.request(), placed.assignments(), urls)) {
                current = start;
                devices.deploy(start.url(), start.deploy());
            }
        } catch (ApiException | IllegalStateException e) {
            fail(entry, "cannot start " + (current == null ? "its components" : current.deploy().role() + " on "
                    + current.worker()) + ": " + e.getMessage());
        }
    }

    private void fail(AppBook.Entry entry, String why) {
        for (String worker : Set.copyOf(entry.workers())) {
            String url = urls.get(worker);
            try {
                if (url != null) {
                    devices.stop(url, entry.id());
                }
            } catch (ApiException e) {
                events.add("could not stop " + entry.id() + " on " + worker + ": " + e.getMessage());
            }
        }
        book.ended(entry.id(), AppBook.State.FAILED, why, Map.of());
        events.add(MasterEventKind.APP_FAILED, entry.id() + " failed: " + why, Map.of("app", entry.id()));
        freed(book.get(entry.id()));
    }

    private void freed(AppBook.Entry entry) {
        state.finish(entry.id(), clock.instant()).forEach(this::startFromQueue);
        if (entry.orchestrator() != null) {
            try {
                runner.orchestratorDone(entry.orchestrator());
            } catch (ApiException e) {
                events.add("orchestrator of " + entry.id() + " on " + entry.orchestrator() + ": " + e.getMessage());
            }
        }
    }

    /** A worker the runner no longer has: what ran on it failed, and it leaves the registry. */
    private void lost(String node) {
        state.workers().stream().filter(w -> w.id().equals(node)).findFirst().ifPresent(w -> {
            w.running().forEach(r -> book.find(r.appId()).filter(e -> e.state() == AppBook.State.RUNNING)
                    .ifPresent(e -> fail(e, "worker " + node + " was lost")));
            state.removeWorker(node, clock.instant());
            urls.remove(node);
            events.add(MasterEventKind.LEFT, "worker " + node + " left: its runner no longer has it",
                    Map.of("node", node));
        });
    }

    /** A job's applications once it is placed; before that, no applications and why it waits. */
    public synchronized JobReply job(String id) {
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

    public synchronized MasterStatus status() {
        return MasterView.of(provisioning.status().instance(), state, clock.instant(), book.all(), urls,
                events.recent());
    }

    public synchronized MetricsReport metrics() {
        return provisioning.metrics().report();
    }
}
