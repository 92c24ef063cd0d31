package koala.fluent.master;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import koala.fluent.AppOutcome;
import koala.fluent.FrameworkSettings;
import koala.fluent.FrameworkState;
import koala.fluent.PlacementOutcome;

/**
 * The master's state rebuilt from its journal, as pure code: no I/O, no clock. Each entry is fed
 * to the same {@link FrameworkState} the live master runs, at the instant it was written, so a job
 * placed again lands on the same workers, a worker joining again starts the same queued word
 * counts, and the queue keeps its order. What the live master did beside the state machine (an
 * orchestrator asked for, a component that would not start) has entries of its own.
 */
final class MasterRecovery {
    /** A job taken in and not placed yet. */
    record Waiting(JournalEntry.Arrived arrived, JobIntake.Accepted job) {
    }

    /**
     * What a master starts from.
     *
     * @param waiting jobs taken in and not placed, in arrival order (not the one in {@code pending})
     * @param pending the job waiting for its grow's workers, or null
     * @param gone    workers that left: their DeviceManagers' hellos are refused
     */
    record Recovered(FrameworkState state, AppBook book, Map<String, String> urls, List<Waiting> waiting,
                     Pending pending, int jobs, Map<String, String> growNotes, Set<String> gone, int entries,
                     MoveBook moves) {
    }

    /** The job at the head that waits for the workers its grow brought. */
    record Pending(Waiting job, List<String> nodes, String note) {
    }

    private FrameworkState state;
    private AppBook book = new AppBook();
    private final Map<String, String> urls = new LinkedHashMap<>();
    private final Map<String, Waiting> waiting = new LinkedHashMap<>();
    private Pending pending;
    private int jobs;
    private final Map<String, String> growNotes = new HashMap<>();
    private final Set<String> gone = new LinkedHashSet<>();
    private final MoveBook moves = new MoveBook();

    private MasterRecovery(FrameworkSettings settings, java.time.Instant start) {
        this.state = new FrameworkState(settings, start);
    }

    /** A master with nothing behind it, at {@code start}. */
    static Recovered empty(FrameworkSettings settings, java.time.Instant start) {
        return new MasterRecovery(settings, start).result(0);
    }

    /** The state {@code entries} leave, in their order, under {@code settings}; an empty journal leaves a new master. */
    static Recovered replay(List<JournalEntry> entries, FrameworkSettings settings, java.time.Instant start) {
        java.time.Instant first = entries.isEmpty() ? start : entries.get(0).at();
        MasterRecovery r = new MasterRecovery(settings, first.isBefore(start) ? first : start);
        entries.forEach(e -> r.apply(e, settings));
        return r.result(entries.size());
    }

    private void apply(JournalEntry entry, FrameworkSettings settings) {
        if (entry instanceof JournalEntry.Snapshot s) {
            restore(s, settings);
        } else if (entry instanceof JournalEntry.Arrived a) {
            waiting.put(a.job(), new Waiting(a, acceptedOf(a)));
            jobs++;
        } else if (entry instanceof JournalEntry.GrowAsked g) {
            pending = new Pending(take(g.job()), g.nodes(), g.note());
        } else if (entry instanceof JournalEntry.Placed p) {
            placed(p);
        } else if (entry instanceof JournalEntry.Joined j) {
            urls.put(j.node(), j.url());
            again(state.join(j.node(), j.slots(), j.at()));
        } else if (entry instanceof JournalEntry.Orchestrator o) {
            book.orchestrator(o.app(), o.node());
        } else if (entry instanceof JournalEntry.Ended e) {
            book.ended(e.app(), e.state(), e.reason(), e.result());
            moves.done(e.app());
            if (state.isRunning(e.app())) {
                again(state.end(e.app(), e.at()));
            }
        } else if (entry instanceof JournalEntry.Left l) {
            left(l);
        } else if (entry instanceof JournalEntry.Yielded y) {
            state.yieldWorker(y.node(), y.at()).orElseThrow(() -> new IllegalStateException(
                    "the journal has " + y.node() + " yield, and the state does not let it")).forEach(this::resumed);
        } else if (entry instanceof JournalEntry.Moved m) {
            moves.done(m.app());
        } else {
            throw new IllegalStateException("unknown journal entry " + entry);
        }
    }

    /** A worker left; one still busy was lost with what ran on it (the live master fails those first). */
    private void left(JournalEntry.Left l) {
        boolean idle = state.workers().stream().anyMatch(w -> w.id().equals(l.node()) && w.isIdle());
        if (idle) {
            state.removeWorker(l.node(), l.at());
        } else if (state.workers().stream().anyMatch(w -> w.id().equals(l.node()))) {
            FrameworkState.Lost lost = state.lose(l.node(), l.at());
            moves.lost(lost.failed().size());
            lost.failed().forEach(app -> moves.done(app.id()));
            lost.resumed().forEach(this::resumed);
            lost.started().forEach(book::started);
        }
        urls.remove(l.node());
        gone.add(l.node());
    }

    /** What an event started again: moves of resumed word counts decided as the live master decided them, then the queue. */
    private void again(FrameworkState.Started started) {
        started.resumed().forEach(this::resumed);
        started.fromQueue().forEach(book::started);
    }

    private void resumed(koala.fluent.Resumed resumed) {
        try {
            moves.decided(book, resumed);
        } catch (IllegalStateException e) {
            // no layout kept: the live master failed it, and its Ended entry follows
        }
    }

    private void placed(JournalEntry.Placed p) {
        Waiting job = take(p.job());
        PlacementOutcome outcome = state.submit(job.job().job(), p.at());
        for (AppOutcome app : outcome.apps()) {
            String id = app.app().id();
            book.submitted(p.job(), app, job.job().requests().get(id), job.job().expected().get(id));
        }
        growNotes.put(p.job(), p.growNote());
    }

    /** The job {@code id}, out of the pending grow or the waiting jobs. */
    private Waiting take(String id) {
        if (pending != null && pending.job().arrived().job().equals(id)) {
            Waiting job = pending.job();
            pending = null;
            return job;
        }
        Waiting job = waiting.remove(id);
        if (job == null) {
            throw new IllegalStateException("the journal places job " + id + " before it arrived");
        }
        return job;
    }

    private void restore(JournalEntry.Snapshot s, FrameworkSettings settings) {
        state = FrameworkState.restore(settings, s.state());
        book = new AppBook();
        s.book().forEach(book::restore);
        urls.clear();
        urls.putAll(s.urls());
        waiting.clear();
        s.waiting().forEach(a -> waiting.put(a.job(), new Waiting(a,
                JobIntake.accepted(a.job(), a.apps(), a.requests(), a.expected(), a.at()))));
        pending = s.pending() == null ? null : new Pending(new Waiting(arrivedOf(s, s.pending().job()),
                acceptedOf(arrivedOf(s, s.pending().job()))), s.pending().nodes(), s.pending().note());
        if (pending != null) {
            waiting.remove(pending.job().arrived().job());
        }
        jobs = s.jobs();
        growNotes.clear();
        growNotes.putAll(s.growNotes());
        gone.clear();
        gone.addAll(s.gone());
        moves.restore(s.moving(), s.moves());
    }

    /** As below, with no move unfinished and nothing moved or lost. */
    static JournalEntry.Snapshot snapshot(java.time.Instant at, FrameworkState state, AppBook book,
                                          Map<String, String> urls, List<JournalEntry.Arrived> waiting,
                                          JournalEntry.GrowAsked pending, int jobs, Map<String, String> growNotes,
                                          Set<String> gone, int keepEnded) {
        return snapshot(at, state, book, urls, waiting, pending, jobs, growNotes, gone, keepEnded, new MoveBook());
    }

    /**
     * The snapshot a master writes in place of its journal: its state as it is, and of the ended
     * applications only the latest {@code keepEnded} (with their jobs' grow notes), so that the
     * journal of a long-running instance stays bounded.
     */
    static JournalEntry.Snapshot snapshot(java.time.Instant at, FrameworkState state, AppBook book,
                                          Map<String, String> urls, List<JournalEntry.Arrived> waiting,
                                          JournalEntry.GrowAsked pending, int jobs, Map<String, String> growNotes,
                                          Set<String> gone, int keepEnded, MoveBook moves) {
        List<AppBook.Entry> all = book.all();
        long drop = Math.max(0, all.stream().filter(AppBook.Entry::ended).count() - keepEnded);
        List<AppBook.Entry> kept = new java.util.ArrayList<>();
        for (AppBook.Entry e : all) {
            if (e.ended() && drop > 0) {
                drop--;
            } else {
                kept.add(e);
            }
        }
        Set<String> keptJobs = new java.util.HashSet<>();
        kept.forEach(e -> keptJobs.add(e.job()));
        Map<String, String> notes = new HashMap<>();
        growNotes.forEach((job, note) -> {
            if (keptJobs.contains(job) && note != null) {
                notes.put(job, note);
            }
        });
        return new JournalEntry.Snapshot(at, state.snapshot(), kept, urls, waiting, pending, jobs, notes,
                List.copyOf(gone), moves.pending(), moves.counts());
    }

    /** A snapshot's pending job is the first of its waiting list, kept there so that its arrival is written once. */
    private static JournalEntry.Arrived arrivedOf(JournalEntry.Snapshot s, String job) {
        return s.waiting().stream().filter(a -> a.job().equals(job)).findFirst().orElseThrow(() ->
                new IllegalStateException("snapshot: pending job " + job + " is not among the waiting"));
    }

    private static JobIntake.Accepted acceptedOf(JournalEntry.Arrived a) {
        return JobIntake.accepted(a.job(), a.apps(), a.requests(), a.expected(), a.at());
    }

    private Recovered result(int entries) {
        return new Recovered(state, book, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(urls)),
                List.copyOf(waiting.values()), pending, jobs, Map.copyOf(growNotes),
                Set.copyOf(gone), entries, moves);
    }
}
