package koala.fluent.master;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import koala.common.event.EventLine;
import koala.common.failure.Conflict;
import koala.common.failure.NotFound;
import koala.fluent.AppOutcome;
import koala.fluent.Assignment;
import koala.fluent.FrameworkState;
import koala.fluent.wire.FluentMessages.AppDone;
import koala.fluent.wire.FluentMessages.DeviceHello;
import koala.fluent.wire.MasterEventKind;

/**
 * A placed application's life, from its start to its end: its components deployed on their
 * DeviceManagers and its orchestrator asked of the runner, its last component's report checked
 * ({@link Checks}) and recorded, or its failure, which stops what still runs of it. An end frees its
 * slots, and what the state does with them — suspended word counts resumed ({@link Suspending}),
 * queued ones started — is carried out here, in the state's order. Applications that were running
 * when this master took over from its journal are confirmed by their workers' first hellos.
 */
final class AppLifecycle {
    private final MasterContext master;
    /**
     * Applications running when this master took over from the journal, and the workers of each
     * that have not said hello to it yet: one that none of its workers runs any more is failed.
     */
    private final Map<String, Set<String>> unconfirmed = new LinkedHashMap<>();
    /** Set once by the master's wiring: a resume may fail a word count here, and an end may resume others. */
    private Suspending suspending;

    AppLifecycle(MasterContext master) {
        this.master = master;
        master.state().running().forEach(app -> unconfirmed.put(app.app().id(), new HashSet<>(
                app.where().stream().map(Assignment::workerId).toList())));
        // a move cut short is finished once its workers report in; until then its new workers need not run it
        master.moveBook().unfinished().keySet().forEach(unconfirmed::remove);
    }

    void resumingThrough(Suspending suspending) {
        this.suspending = suspending;
    }

    /** {@code app}'s last component is done (or failed): checked and recorded, its slots and orchestrator freed. */
    void done(String app, AppDone done) {
        AppBook.Entry entry = master.book().find(app).orElseThrow(() -> new NotFound("application " + app));
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
            master.journal().append(new JournalEntry.Ended(master.now(), app, end, check, result));
            master.book().ended(app, end, check, result);
            master.events().add(MasterEventKind.APP_FINISHED, app + " finished on " + done.node() + ": " + check,
                    EventLine.fields("app", app, "node", done.node()));
            freed(entry);
        }
        master.provisioning().reportActivity(master.line(), master.state().workers());
    }

    /**
     * A known worker's first hello to this master after a restart, with the applications it still runs
     * or has not reported yet: an application recovered from the journal that none of its workers runs
     * any more failed while the master was away.
     */
    void confirm(DeviceHello hello) {
        for (String app : List.copyOf(unconfirmed.keySet())) {
            Set<String> waiting = unconfirmed.get(app);
            if (!waiting.remove(hello.node())) {
                continue;
            }
            if (hello.running().contains(app)) {
                unconfirmed.remove(app);
                master.events().add(app + " still runs on " + hello.node() + ", which reported to this master");
            } else if (waiting.isEmpty()) {
                unconfirmed.remove(app);
                master.book().find(app).filter(e -> e.state() == AppBook.State.RUNNING).ifPresent(e ->
                        fail(e, "none of its workers runs it any more after the master's restart"));
            }
        }
    }

    /** Suspended SWCs resumed, then SWCs started from the queue, in the state's order. */
    void again(FrameworkState.Started started) {
        started.resumed().forEach(suspending::resume);
        started.fromQueue().forEach(this::startFromQueue);
    }

    void startFromQueue(AppOutcome started) {
        master.book().started(started);
        master.events().add(started.reason());
        launch(started, CompletableFuture.completedFuture(null)); // its job was answered when it was queued
    }

    /**
     * Its components on their DeviceManagers, on its lane once {@code after} (the suspensions it waits
     * for) is over, and its orchestrator through the runner: recorded when the runner answers, or handed
     * back at once if the application has ended by then. Returns when the components are in place, or
     * the start failed.
     */
    CompletableFuture<Void> launch(AppOutcome placed, CompletableFuture<Void> after) {
        String app = placed.app().id();
        AppBook book = master.book();
        master.line().call(Runner::orchestrator, (place, e) -> {
            if (e != null) {
                master.events().add(app + " runs without an orchestrator: " + e.getMessage());
            } else if (book.find(app).filter(a -> a.state() == AppBook.State.RUNNING).isPresent()) {
                master.journal().append(new JournalEntry.Orchestrator(master.now(), app, place.node()));
                book.orchestrator(app, place.node());
            } else {
                orchestratorDone(app, place.node());
            }
        });
        AppBook.Entry entry = book.get(app);
        List<Components.Start> starts;
        try {
            starts = Components.of(app, entry.request(), placed.assignments(), master.urls());
        } catch (IllegalStateException e) {
            fail(entry, "cannot start its components: " + e.getMessage());
            return CompletableFuture.completedFuture(null);
        }
        return master.calls().deploy(app, starts, after, (start, e) -> book.find(app)
                .filter(a -> a.state() == AppBook.State.RUNNING)
                .ifPresent(a -> fail(a, "cannot start " + start.deploy().role() + " on " + start.worker() + ": "
                        + e.getMessage())));
    }

    /** {@code entry} failed for {@code why}: what still runs of it is stopped, and its slots freed. */
    void fail(AppBook.Entry entry, String why) {
        ended(entry, why);
        freed(master.book().get(entry.id()));
    }

    /** Stops what still runs of a failed application, and records its end; its slots are the caller's. */
    void ended(AppBook.Entry entry, String why) {
        for (String worker : Set.copyOf(entry.workers())) {
            master.stop(worker, entry.id());
        }
        unconfirmed.remove(entry.id());
        master.moveBook().done(entry.id());
        master.journal().append(new JournalEntry.Ended(master.now(), entry.id(), AppBook.State.FAILED, why, Map.of()));
        master.book().ended(entry.id(), AppBook.State.FAILED, why, Map.of());
        master.events().add(MasterEventKind.APP_FAILED, entry.id() + " failed: " + why, Map.of("app", entry.id()));
    }

    private void freed(AppBook.Entry entry) {
        master.moveBook().done(entry.id());
        again(master.state().end(entry.id(), master.now()));
        orchestratorFreed(entry);
    }

    void orchestratorFreed(AppBook.Entry entry) {
        if (entry.orchestrator() != null) {
            orchestratorDone(entry.id(), entry.orchestrator());
        }
    }

    private void orchestratorDone(String app, String node) {
        master.line().tell(r -> r.orchestratorDone(node), e -> master.events().add("orchestrator of " + app + " on "
                + node + ": " + e.getMessage()));
    }
}
