package koala.scheduler;

import java.time.Duration;
import java.time.Instant;
import koala.common.json.Json;
import koala.scheduler.storage.Store;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A history the start estimates learn from, as the store keeps it: JSON under its key, written on the loop at
 * most every {@link #EVERY} while it changes, so that a scheduler started again, or a standby that takes over,
 * estimates from it rather than afresh. At most that long of it is lost with a crash. Two are kept: what jobs ran
 * ({@code start.runHistory}, the runtimes guessed from it) and how right the estimates were
 * ({@code start.calibration}).
 *
 * @param <T> the history, a value replaced at each change
 */
final class KeptHistory<T> {
    /** How often a changed history is written at most: it is rewritten whole. */
    static final Duration EVERY = Duration.ofSeconds(30);
    private static final Logger LOG = LogManager.getLogger(KeptHistory.class);

    private final Store store;
    private final String key;
    private final Class<T> type;
    private final T empty;
    private T written;
    private Instant next = Instant.EPOCH;

    KeptHistory(Store store, String key, Class<T> type, T empty) {
        this.store = store;
        this.key = key;
        this.type = type;
        this.empty = empty;
    }

    /** The history as the scheduler before this one left it; empty if none, or unreadable. */
    T read() {
        T kept = store.state(key).map(json -> {
            try {
                return Json.mapper().readValue(json, type);
            } catch (java.io.IOException e) {
                LOG.warn("the start estimates' kept {} is unreadable, starting afresh: {}", key, e.getMessage());
                return empty;
            }
        }).orElse(empty);
        written = kept;
        return kept;
    }

    /** Writes {@code now}'s history when it changed since the last write and {@link #EVERY} has passed (on the loop). */
    void keep(T history, Instant now) {
        // a value replaced at each change: the same object is the same history, without comparing it whole
        if (history == written || now.isBefore(next)) {
            return;
        }
        store.saveState(key, Json.write(history));
        written = history;
        next = now.plus(EVERY);
    }
}
