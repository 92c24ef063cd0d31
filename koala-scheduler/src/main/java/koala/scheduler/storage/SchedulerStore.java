package koala.scheduler.storage;

import java.util.Optional;

/** What the scheduler keeps of itself beside its jobs: its mark on its pilots, and named values. */
public interface SchedulerStore {
    /**
     * This scheduler's mark in its pilots' SGE job names, kept with its state: a scheduler treats as
     * its own (adopts, or kills as orphans) only pilots with its mark, so that several schedulers
     * — a test one beside a production one — can share a cell and its account.
     */
    String pilotTag();

    /** A value the scheduler keeps beside its jobs under {@code name} (the grid arbiter's book, as JSON). */
    Optional<String> state(String name);

    void saveState(String name, String value);
}
