package koala.fluent.master;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The master's journal, written off its loop and forced in batches (group commit): the loop hands
 * over entries and what must wait for them ({@link #then}: an answer to a caller, a call to a
 * DeviceManager or to the runner), and the journal's thread writes what it was given, forces the file
 * once for all of it, and only then lets those effects go, in the order they were handed over. So what
 * the master promised is on disk before anyone hears of it, as when every append was forced at once,
 * while the loop goes on taking jobs and reports during a slow force, and a burst of them costs one
 * force, not one each.
 *
 * <p>On a direct line ({@code Runnable::run}) every entry is written and forced when handed over and
 * every effect runs at once: for worked examples. If the journal cannot be written the master keeps
 * no more promises: the effects waiting and every later one are dropped (their callers time out), and
 * the failure is logged.
 */
final class JournalLine {
    private static final Logger LOG = LogManager.getLogger(JournalLine.class);

    private enum Kind { WRITE, COMPACT, EFFECT }

    /** What the loop handed over: an entry to write, a snapshot to compact into, or an effect to let go. */
    private record Item(Kind kind, JournalEntry entry, Runnable effect) {
    }

    private final Journal journal;
    private final Executor writer;
    private final ConcurrentLinkedQueue<Item> handed = new ConcurrentLinkedQueue<>();
    /** Entries handed over since the last compaction: counted on the loop. */
    private int since;
    /** Set, on the writer, once a write failed. */
    private volatile RuntimeException broken;

    private JournalLine(Journal journal, Executor writer) {
        this.journal = journal;
        this.writer = writer;
    }

    /** Writes on {@code writer}: one thread (in order), or {@code Runnable::run} for worked examples. */
    static JournalLine on(Journal journal, Executor writer) {
        return new JournalLine(journal, writer);
    }

    /** A daemon thread of the journal's own, for {@link #on}. */
    static ExecutorService thread() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "master-journal");
            t.setDaemon(true);
            return t;
        });
    }

    /** Writes {@code entry}; it is on disk before any effect handed over after it goes. */
    void append(JournalEntry entry) {
        since++;
        hand(new Item(Kind.WRITE, entry, null));
    }

    /** Replaces everything written before with {@code snapshot}, taken on the loop now. */
    void compact(JournalEntry.Snapshot snapshot) {
        since = 0;
        hand(new Item(Kind.COMPACT, snapshot, null));
    }

    /** Entries handed over since the last compaction. */
    int sinceCompaction() {
        return since;
    }

    /** Runs {@code effect} once every entry handed over so far is on disk. */
    void then(Runnable effect) {
        hand(new Item(Kind.EFFECT, null, effect));
    }

    private void hand(Item item) {
        handed.add(item);
        writer.execute(this::drain);
    }

    /** On the writer: everything handed over so far, one force for the batch, then its effects. */
    private void drain() {
        List<Runnable> effects = new ArrayList<>();
        boolean dirty = false;
        for (Item item = handed.poll(); item != null; item = handed.poll()) {
            if (broken != null) {
                continue;
            }
            try {
                dirty = switch (item.kind()) {
                    case WRITE -> {
                        journal.write(item.entry());
                        yield true;
                    }
                    case COMPACT -> {
                        journal.compact((JournalEntry.Snapshot) item.entry()); // forced; it holds what was written before
                        yield false;
                    }
                    case EFFECT -> {
                        effects.add(item.effect());
                        yield dirty;
                    }
                };
            } catch (RuntimeException e) {
                broken = e;
                LOG.error("the master's journal cannot be written: it keeps no more promises", e);
            }
        }
        try {
            if (dirty && broken == null) {
                journal.force();
            }
        } catch (RuntimeException e) {
            broken = e;
            LOG.error("the master's journal cannot be written: it keeps no more promises", e);
        }
        if (broken == null) {
            effects.forEach(Runnable::run);
        }
    }
}
