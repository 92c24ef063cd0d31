package koala.fluent.master;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import koala.fluent.Assignment;
import koala.fluent.Resumed;
import koala.fluent.Suspended;

/**
 * Word counts suspended for RLs and resumed, as the state decides ({@link koala.fluent.Suspensions}): every
 * DeviceManager of the word count is told, and where the state resumes it on other workers its components
 * move there first ({@link Moves}). A word count whose move cannot even be planned is failed
 * ({@link AppLifecycle}).
 */
final class Suspending {
    private final MasterContext master;
    private final Moves moves;
    private final AppLifecycle apps;

    Suspending(MasterContext master, Moves moves, AppLifecycle apps) {
        this.master = master;
        this.moves = moves;
        this.apps = apps;
    }

    /**
     * An SWC suspended for an RL: every DeviceManager with a component of it pauses it, keeping its state.
     * Returns when they have been told (or failed to be).
     */
    CompletableFuture<Void> suspend(Suspended suspended) {
        String app = suspended.appId();
        master.events().add(app + " suspended (" + suspended.times() + " of " + suspended.maxTimes() + ") for an RL on "
                + suspended.workerId());
        return CompletableFuture.allOf(master.book().find(app).stream().flatMap(e -> e.workers().stream().distinct())
                .map(w -> master.suspend(w, app, true)).toArray(CompletableFuture[]::new));
    }

    /**
     * A suspended SWC runs again: where the state moved components, they move first ({@link Mover}),
     * then every DeviceManager of it resumes it. A move that fails fails the word count: its state is
     * where the failure left it, and counting on would give wrong counts. Returns when the move has come
     * back to the loop (at once when nothing moves).
     */
    CompletableFuture<Void> resume(Resumed resumed) {
        master.events().add(resumed.reason());
        Optional<MovePlan> plan;
        try {
            plan = master.moveBook().decided(master.book(), resumed);
        } catch (IllegalStateException e) {
            master.book().find(resumed.appId()).ifPresent(entry -> apps.fail(entry, e.getMessage()));
            return CompletableFuture.completedFuture(null);
        }
        List<String> to = resumed.to().stream().map(Assignment::workerId).distinct().toList();
        if (plan.isEmpty()) {
            to.forEach(w -> master.suspend(w, resumed.appId(), false));
            return CompletableFuture.completedFuture(null);
        }
        return moves.carry(plan.get(), false, () -> to.forEach(w -> master.suspend(w, resumed.appId(), false)));
    }
}
