package koala.site;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import koala.api.site.PilotStatus;

/**
 * The pilots this agent submitted, in submission order, with the DRMAA session generation each
 * was submitted in. Finished pilots are kept for the scheduler to read, up to a bound.
 */
final class PilotBook {
    private record Entry(PilotStatus status, int generation, boolean killRequested) {
    }

    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private final int keepFinished;
    /** The number of entries, readable without the lock: {@code /health} shows it and must never wait. */
    private volatile int size;

    PilotBook(int keepFinished) {
        this.keepFinished = keepFinished;
    }

    synchronized void add(PilotStatus status, int generation) {
        entries.put(status.id(), new Entry(status, generation, false));
        forgetOldFinished();
        size = entries.size();
        notifyAll();
    }

    synchronized Optional<PilotStatus> get(String id) {
        return Optional.ofNullable(entries.get(id)).map(Entry::status);
    }

    synchronized int generationOf(String id) {
        Entry e = entries.get(id);
        return e == null ? -1 : e.generation();
    }

    synchronized boolean killRequested(String id) {
        Entry e = entries.get(id);
        return e != null && e.killRequested();
    }

    synchronized void requestKill(String id) {
        entries.computeIfPresent(id, (k, e) -> new Entry(e.status(), e.generation(), true));
    }

    /** Applies {@code change} to a pilot that has not finished yet; a finished pilot stays as it is. */
    synchronized PilotStatus update(String id, UnaryOperator<PilotStatus> change) {
        Entry e = entries.get(id);
        if (e == null || e.status().state().isFinal()) {
            return e == null ? null : e.status();
        }
        PilotStatus next = change.apply(e.status());
        entries.put(id, new Entry(next, e.generation(), e.killRequested()));
        notifyAll();
        return next;
    }

    synchronized List<PilotStatus> all() {
        return entries.values().stream().map(Entry::status).toList();
    }

    int size() {
        return size;
    }

    /** Unfinished pilots submitted in session {@code generation}. */
    synchronized int unfinishedIn(int generation) {
        return (int) entries.values().stream()
                .filter(e -> e.generation() == generation && !e.status().state().isFinal()).count();
    }

    /** Unfinished pilots of older sessions: they can only be polled, not waited on. */
    synchronized List<String> orphansBefore(int generation) {
        List<String> ids = new ArrayList<>();
        entries.values().stream().filter(e -> e.generation() < generation && !e.status().state().isFinal())
                .forEach(e -> ids.add(e.status().id()));
        return ids;
    }

    /** Blocks until any pilot changes or {@code millis} pass. */
    synchronized void awaitChange(long millis) throws InterruptedException {
        if (millis > 0) {
            wait(millis);
        }
    }

    private void forgetOldFinished() {
        long finished = entries.values().stream().filter(e -> e.status().state().isFinal()).count();
        Iterator<Entry> it = entries.values().iterator();
        while (finished > keepFinished && it.hasNext()) {
            if (it.next().status().state().isFinal()) {
                it.remove();
                finished--;
            }
        }
    }
}
