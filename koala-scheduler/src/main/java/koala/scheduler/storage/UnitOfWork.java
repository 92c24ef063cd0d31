package koala.scheduler.storage;

import java.util.function.Supplier;

/**
 * Writes that go to disk together. {@link #inTransaction} runs work as one unit: when it returns,
 * every write the work made is durable, and when it throws, none of them is. A call made inside
 * another's work (on the same thread) joins it: its writes commit, or are undone, with the outer
 * work's, and a failure it throws undoes nothing by itself (the outer work may catch it and go on).
 *
 * <p>Work that is not in a unit is a unit of its own: a single write outside one is durable when it
 * returns. {@link #afterCommit} holds back what must not leave the process (a pilot's submission to
 * SGE, say) before the state that caused it is on disk.
 */
public interface UnitOfWork {
    /**
     * Runs {@code work} as one unit and returns what it returned, once its writes are on disk; if it
     * throws, its writes are undone and the failure is thrown on. A {@link StoreException} when the
     * commit itself fails (the writes are undone then too).
     */
    <T> T inTransaction(Supplier<T> work);

    /** As {@link #inTransaction(Supplier)}, for work that returns nothing. */
    default void inTransaction(Runnable work) {
        inTransaction(() -> {
            work.run();
            return null;
        });
    }

    /**
     * Runs {@code action} once the unit the calling thread is in has committed (at once when it is in
     * none); an action of a unit that is undone never runs.
     */
    void afterCommit(Runnable action);

    /** No store: work runs as it is and actions at once (tests of code that keeps nothing). */
    UnitOfWork NONE = new UnitOfWork() {
        @Override
        public <T> T inTransaction(Supplier<T> work) {
            return work.get();
        }

        @Override
        public void afterCommit(Runnable action) {
            action.run();
        }
    };
}
