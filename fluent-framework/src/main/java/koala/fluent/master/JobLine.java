package koala.fluent.master;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import koala.api.runner.RunnerMessages.GrowResult;
import koala.common.event.EventLine;
import koala.common.failure.NotFound;
import koala.fluent.AppOutcome;
import koala.fluent.PlacementOutcome;
import koala.fluent.ResizeRequest;
import koala.fluent.wire.FluentMessages.AppReply;
import koala.fluent.wire.FluentMessages.JobReply;
import koala.fluent.wire.MasterEventKind;

/**
 * The line clients' jobs wait in, first come, first served: a job is accepted ({@link JobIntake}),
 * journalled, and placed on the state when it reaches the head of the line. Under OnDemand a job that
 * lacks workers waits there while its runner grows exactly those, until the new DeviceManagers have
 * reported in (or the grow was refused, or {@code growWait} passed), so that its RLs find the idle
 * workers asked for them; the jobs behind it wait meanwhile. A placed RL starts once the word counts
 * it suspends are ({@link Suspending}), each application through {@link AppLifecycle}; the client
 * hears of its job once its components are in place.
 */
final class JobLine {
    /** A job in the line, and its client's reply, once it is placed. */
    private record Arrival(JobIntake.Accepted job, CompletableFuture<JobReply> reply) {
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

    private final MasterContext master;
    private final AppLifecycle apps;
    private final Suspending suspending;
    private final Duration growWait;
    private final Deque<Arrival> arrivals = new ArrayDeque<>();
    /** What each placed job's grow came to, for its later readers. */
    private final Map<String, String> growNotes;
    private PendingGrow pending;
    private int jobs;

    /**
     * The line as the predecessor left it ({@code recovered}): its waiting jobs (no client waits on them
     * here; their clients poll) and its pending grow, given its full wait again.
     */
    JobLine(MasterContext master, AppLifecycle apps, Suspending suspending, Duration growWait,
            MasterRecovery.Recovered recovered) {
        this.master = master;
        this.apps = apps;
        this.suspending = suspending;
        this.growWait = growWait;
        this.growNotes = new HashMap<>(recovered.growNotes());
        this.jobs = recovered.jobs();
        recovered.waiting().forEach(w -> arrivals.addLast(new Arrival(w.job(), new CompletableFuture<>())));
        if (recovered.pending() != null) {
            pending = new PendingGrow(new Arrival(recovered.pending().job().job(), new CompletableFuture<>()),
                    Set.copyOf(recovered.pending().nodes()), master.now().plus(growWait), recovered.pending().note());
        }
    }

    /** A checked job joins the line as the next job, {@code j<n>}, and is placed if it can be now. */
    FrameworkManager.Submitted arrived(String name, JobIntake.Checked checked) {
        String id = "j" + (jobs + 1);
        JobIntake.Accepted job = JobIntake.accept(id, checked, master.now());
        master.journal().append(new JournalEntry.Arrived(job.job().submittedAt(), id, name,
                List.copyOf(job.requests().keySet()), job.requests(), job.expected()));
        jobs++;
        Arrival arrival = new Arrival(job, new CompletableFuture<>());
        arrivals.addLast(arrival);
        master.events().add(MasterEventKind.JOB_ARRIVED, "job " + id + (name == null ? "" : " (" + name
                + ")") + " arrived: " + job.job().apps().size() + " applications",
                Map.of("job", id, "apps", job.job().apps().size()));
        takeArrivals();
        return new FrameworkManager.Submitted(id, arrival.reply());
    }

    /** Places jobs from the head of the line until one waits for its grow, or none is left. */
    void takeArrivals() {
        while (pending == null && !arrivals.isEmpty()) {
            Arrival next = arrivals.pollFirst();
            ResizeRequest up = master.state().growRequest(next.job().job());
            master.events().add(up.ask() || up.grow() == 0 ? MasterEventKind.NOTE : MasterEventKind.RESIZE_REPORTED,
                    next.job().job().id() + ": " + up.reason(), EventLine.fields("job", next.job().job().id()));
            if (!up.ask()) {
                place(next, up.reason());
                continue;
            }
            pending = new PendingGrow(next, null, null, "asking the runner to grow " + up.grow());
            master.provisioning().grow(master.line(), up.grow(), grow -> granted(next, up.grow(), grow));
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
            master.journal().append(new JournalEntry.GrowAsked(master.now(), arrival.job().job().id(),
                    List.copyOf(grow.nodes()), note));
            pending = new PendingGrow(arrival, Set.copyOf(grow.nodes()), master.now().plus(growWait), note);
            joinedForGrow(); // its workers may have said hello before the runner's answer came
        }
        takeArrivals();
    }

    /** The job waiting for its grow is placed once every worker granted for it has joined. */
    void joinedForGrow() {
        if (pending != null && pending.granted() && master.urls().keySet().containsAll(pending.nodes())) {
            PendingGrow done = pending;
            pending = null;
            place(done.arrival(), done.note() + "; the new workers joined");
            takeArrivals();
        }
    }

    /** Past its deadline ({@code now}), the job waiting for its grow is placed with the workers there. */
    void growWaited(Instant now) {
        if (pending != null && pending.granted() && !now.isBefore(pending.deadline())) {
            PendingGrow late = pending;
            pending = null;
            Set<String> missing = new HashSet<>(late.nodes());
            missing.removeAll(master.urls().keySet());
            place(late.arrival(), late.note() + "; " + missing + " not in after " + growWait.toSeconds()
                    + " s, placed with the workers there");
            takeArrivals();
        }
    }

    /** Whether a job waits for its grow: the idle workers are the ones it counted on. */
    boolean waitingForGrow() {
        return pending != null;
    }

    private void place(Arrival arrival, String growNote) {
        JobIntake.Accepted job = arrival.job();
        String id = job.job().id();
        master.journal().append(new JournalEntry.Placed(master.now(), id, growNote));
        PlacementOutcome outcome = master.state().submit(job.job(), master.now());
        for (AppOutcome app : outcome.apps()) {
            String appId = app.app().id();
            master.book().submitted(id, app, job.requests().get(appId), job.expected().get(appId));
            master.events().add(app.reason());
        }
        List<CompletableFuture<Void>> starting = new ArrayList<>();
        outcome.with(AppOutcome.Verdict.PLACED).forEach(placed -> {
            // an RL starts once the word counts it suspends are: on their workers, calls in that order
            List<CompletableFuture<Void>> suspended = placed.suspended().stream().map(suspending::suspend).toList();
            starting.add(apps.launch(placed, CompletableFuture.allOf(suspended.toArray(CompletableFuture[]::new))));
        });
        growNotes.put(id, growNote);
        // its client hears of it once its components are in place (or could not be): a master started
        // again from the journal takes a placed application to be running, and deploys nothing again
        CompletableFuture.allOf(starting.toArray(CompletableFuture[]::new)).thenRun(() -> master.loop().post(() -> {
            JobReply reply = job(id);
            master.journal().then(() -> arrival.reply().complete(reply));
        }));
    }

    /** A job's applications once it is placed; before that, no applications and why it waits. */
    JobReply job(String id) {
        List<AppReply> apps = master.book().ofJob(id).stream().map(AppBook.Entry::view).toList();
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

    /** Jobs taken in so far. */
    int jobs() {
        return jobs;
    }

    /** Jobs not placed yet, the one waiting for its grow among them. */
    int waiting() {
        return arrivals.size() + (pending == null ? 0 : 1);
    }

    Map<String, String> growNotes() {
        return growNotes;
    }

    /** The jobs not placed yet, for a snapshot, in the line's order: the one waiting for its grow first. */
    List<JournalEntry.Arrived> waitingEntries() {
        List<JournalEntry.Arrived> waiting = new ArrayList<>();
        if (pending != null) {
            waiting.add(arrived(pending.arrival()));
        }
        arrivals.forEach(a -> waiting.add(arrived(a)));
        return waiting;
    }

    /**
     * The granted grow a job waits for, for a snapshot; null when none is, or the runner has not answered:
     * that job waits, and a master started again asks anew.
     */
    JournalEntry.GrowAsked grantedGrow() {
        return pending == null || !pending.granted() ? null : new JournalEntry.GrowAsked(master.now(),
                pending.arrival().job().job().id(), List.copyOf(pending.nodes()), pending.note());
    }

    private static JournalEntry.Arrived arrived(Arrival a) {
        JobIntake.Accepted job = a.job();
        return new JournalEntry.Arrived(job.job().submittedAt(), job.job().id(), null,
                List.copyOf(job.requests().keySet()), job.requests(), job.expected());
    }
}
