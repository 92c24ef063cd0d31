package koala.fluent.master;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import koala.common.failure.Unavailable;
import koala.fluent.wire.MasterEventKind;

/**
 * Moves of suspended word counts between workers, as the state decides them ({@link MoveBook}):
 * each carried out on the word count's lane, off the loop ({@link Mover}), and its outcome taken back
 * on the loop, where it counts only while it is still the move the word count waits for. A move that
 * fails fails the word count ({@link AppLifecycle}). Moves a predecessor left unfinished are done again
 * once their workers have reported to this master.
 */
final class Moves {
    private final MasterContext master;
    private final AppLifecycle apps;
    /** Word counts whose move is at their DeviceManagers: not begun again until it comes back. */
    private final Set<String> carrying = new HashSet<>();

    Moves(MasterContext master, AppLifecycle apps) {
        this.master = master;
        this.apps = apps;
    }

    /**
     * Carries out {@code plan} on the word count's lane, off the loop; back on the loop, once done (and
     * journalled so) {@code moved} runs, unless the word count is suspended again by then; a failure fails
     * the word count. Returns when the outcome has been taken on the loop.
     */
    CompletableFuture<Void> carry(MovePlan plan, boolean again, Runnable moved) {
        String app = plan.app();
        carrying.add(app);
        CompletableFuture<Void> taken = new CompletableFuture<>();
        master.calls().move(plan, Map.copyOf(master.urls()), again,
                (count, failure) -> carried(plan, again, count, failure, moved, taken),
                () -> {
                    carrying.remove(app);
                    taken.complete(null);
                });
        return taken;
    }

    /** What a move came to, on the loop: it counts only while it is still the move the word count waits for. */
    private void carried(MovePlan plan, boolean again, int count, Unavailable failure, Runnable moved,
                         CompletableFuture<Void> taken) {
        String app = plan.app();
        try {
            carrying.remove(app);
            if (!plan.equals(master.moveBook().unfinished().get(app))) {
                return; // it ended meanwhile (what ran was stopped), or a later move of it follows on its lane
            }
            master.moveBook().done(app);
            if (failure == null) {
                master.journal().append(new JournalEntry.Moved(master.now(), app));
                master.events().add(MasterEventKind.MOVED, app + ": moved " + count
                        + (count == 1 ? " component" : " components")
                        + (again ? " (a move its predecessor left unfinished)" : "") + ": " + plan.describe(),
                        Map.of("app", app, "components", count));
                if (!suspended(app)) {
                    moved.run();
                }
                return;
            }
            for (String w : plan.before().distinct()) {
                if (!plan.after().workers().contains(w)) { // what it left behind there, frozen
                    master.stop(w, app);
                }
            }
            master.book().find(app).filter(entry -> entry.state() == AppBook.State.RUNNING).ifPresent(entry ->
                    apps.fail(entry, failure.getMessage()));
        } finally {
            taken.complete(null);
        }
    }

    private boolean suspended(String app) {
        return master.state().running().stream().anyMatch(r -> r.app().id().equals(app) && r.suspended());
    }

    /**
     * Moves a predecessor decided and did not finish, once every worker they involve has reported to this
     * master ({@code heard}: they hold its key): done again from the start, which is safe ({@link Mover});
     * then the word count resumes, unless the state has it suspended.
     */
    void finishUnfinished(Set<String> heard) {
        for (MovePlan plan : master.moveBook().unfinished().values()) {
            Set<String> involved = new HashSet<>(plan.before().workers());
            involved.addAll(plan.after().workers());
            if (carrying.contains(plan.app()) || !heard.containsAll(involved)
                    || !master.state().isRunning(plan.app())) {
                continue;
            }
            carry(plan, true, () -> plan.after().distinct().forEach(w -> master.suspend(w, plan.app(), false)));
        }
    }
}
