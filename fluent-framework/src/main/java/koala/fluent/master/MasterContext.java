package koala.fluent.master;

import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import koala.fluent.FrameworkState;

/**
 * What every part of the master works on, all of it on the master's loop: the state and the books of
 * applications and moves, the workers' DeviceManager addresses, the clock, and the lines out (the
 * journal, the DeviceManagers, the runner, the events). The parts ({@link JobLine}, {@link AppLifecycle},
 * {@link Suspending}, {@link Moves}, {@link Membership}) share these rather than keep copies, so that
 * what one part changes the next one reads at once, as when they were one class.
 *
 * @param floor the latest instant in the journal: a new node's clock behind the old one's does not turn
 *              time back
 * @param urls  each worker's DeviceManager address, for as long as the worker is the master's
 */
record MasterContext(InstantSource clock, Instant floor, FrameworkState state, AppBook book,
                     Map<String, String> urls, MoveBook moveBook, MasterEvents events, JournalLine journal,
                     DeviceCalls calls, RunnerLine line, MasterLoop loop, Provisioning provisioning) {

    /** The clock, never before the journal's latest entry. */
    Instant now() {
        Instant now = clock.instant();
        return now.isBefore(floor) ? floor : now;
    }

    /** Ends what {@code app} still runs on {@code worker}; a worker no longer known is not called. */
    void stop(String worker, String app) {
        String url = urls.get(worker);
        if (url != null) {
            calls.stop(app, url, e -> events.add("could not stop " + app + " on " + worker + ": " + e.getMessage()));
        }
    }

    /**
     * Suspends (or resumes) {@code app} on {@code worker}. Returns when the DeviceManager has been told (or
     * failed to be), at once for a worker no longer known.
     */
    CompletableFuture<Void> suspend(String worker, String app, boolean suspend) {
        String url = urls.get(worker);
        if (url == null) {
            return CompletableFuture.completedFuture(null);
        }
        return calls.suspend(app, url, suspend, e -> events.add("could not " + (suspend ? "suspend " : "resume ") + app
                + " on " + worker + ": " + e.getMessage()));
    }
}
