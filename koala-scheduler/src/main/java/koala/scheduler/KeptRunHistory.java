package koala.scheduler;

import java.time.Duration;
import java.time.Instant;
import koala.common.json.Json;
import koala.estimate.RunHistory;
import koala.scheduler.storage.Store;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * What jobs ran, the history the start estimates guess runtimes from, as the store keeps it: JSON under
 * {@code start.runHistory}, written on the loop at most every {@link #EVERY} while it changes, so that a
 * scheduler started again, or a standby that takes over, estimates from it rather than from wall times
 * alone. At most that long of it is lost with a crash.
 */
final class KeptRunHistory {
    /** How often a changed history is written at most: it grows by a line per job name, and is rewritten whole. */
    static final Duration EVERY = Duration.ofSeconds(30);
    private static final String KEY = "start.runHistory";
    private static final Logger LOG = LogManager.getLogger(KeptRunHistory.class);

    private final Store store;
    private RunHistory written;
    private Instant next = Instant.EPOCH;

    KeptRunHistory(Store store) {
        this.store = store;
    }

    /** The history as the scheduler before this one left it; empty if none, or unreadable. */
    RunHistory read() {
        RunHistory kept = store.state(KEY).map(json -> {
            try {
                return Json.mapper().readValue(json, RunHistory.class);
            } catch (java.io.IOException e) {
                LOG.warn("the start estimates' kept run history is unreadable, starting afresh: {}", e.getMessage());
                return RunHistory.empty();
            }
        }).orElse(RunHistory.empty());
        written = kept;
        return kept;
    }

    /** Writes {@code now}'s history when it changed since the last write and {@link #EVERY} has passed (on the loop). */
    void keep(RunHistory history, Instant now) {
        // a value replaced at each change: the same object is the same history, without comparing it whole
        if (history == written || now.isBefore(next)) {
            return;
        }
        store.saveState(KEY, Json.write(history));
        written = history;
        next = now.plus(EVERY);
    }
}
