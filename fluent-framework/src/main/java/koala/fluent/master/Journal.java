package koala.fluent.master;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the master writes what it must not forget ({@link JournalEntry}): every entry is durable
 * once {@link #append} returns (or {@link #force}, after {@link #write}s), so the master lets nothing
 * out before what led to it is durable ({@link JournalLine}). {@link #compact}
 * replaces everything written with one snapshot, so that the journal stays small.
 */
interface Journal extends AutoCloseable {
    /** The entries written so far, oldest first (a snapshot first once compacted). */
    List<JournalEntry> read();

    /** Writes {@code entry}; it is on disk when this returns. */
    default void append(JournalEntry entry) {
        write(entry);
        force();
    }

    /** Writes {@code entry}; it is on disk once {@link #force} has returned. */
    void write(JournalEntry entry);

    /** Everything written so far is on disk when this returns. */
    void force();

    /** Replaces every entry with {@code snapshot}, atomically: a crash leaves the old entries or the snapshot. */
    void compact(JournalEntry.Snapshot snapshot);

    /** Entries appended since the last compaction. */
    int sinceCompaction();

    @Override
    void close();

    /** A journal in memory: for a master without a log directory (it cannot be restarted), and for tests. */
    static Journal memory() {
        return new Journal() {
            private final List<JournalEntry> entries = new ArrayList<>();
            private int since;

            @Override
            public synchronized List<JournalEntry> read() {
                return List.copyOf(entries);
            }

            @Override
            public synchronized void write(JournalEntry entry) {
                entries.add(entry);
                since++;
            }

            @Override
            public void force() {
            }

            @Override
            public synchronized void compact(JournalEntry.Snapshot snapshot) {
                entries.clear();
                entries.add(snapshot);
                since = 0;
            }

            @Override
            public synchronized int sinceCompaction() {
                return since;
            }

            @Override
            public void close() {
            }
        };
    }
}
