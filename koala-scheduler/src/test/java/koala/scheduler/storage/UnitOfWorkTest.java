package koala.scheduler.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import koala.api.scheduler.TransitionView;
import koala.scheduler.state.JobState;
import org.junit.jupiter.api.Test;

/**
 * {@link Store#inTransaction}, worked through what the scheduler's loop keeps for a submit: job 7
 * queued (its state), the SUBMITTED transition (its history) and the answer to alice's request
 * {@code r-7} (what a retry of it is told).
 */
class UnitOfWorkTest {
    /** A new, empty store: H2 in memory here, PostgreSQL in {@link PostgresUnitOfWorkTest}. */
    SqlStore open() {
        return H2Store.inMemory();
    }

    static final Instant T = Instant.parse("2026-11-25T10:00:00Z");

    static JobRecord job(long id) {
        return new JobRecord(id, "j" + id, "j.jdf", "&(count = 1)(executable = /bin/true)", "NON_FIXED", JobState.QUEUED,
                "worst-fit", "high", 0, 0, "waiting for the first placement round", T, "alice");
    }

    /** The three writes of a submit of job {@code id}. */
    static void submit(Store store, long id) {
        store.saveJob(job(id), T);
        store.recordTransition(id, new TransitionView(T, "", "QUEUED", "SUBMITTED", "from j.jdf by alice"));
        store.saveAnswer("alice", "r-" + id, null, Long.toString(id), T);
    }

    static boolean kept(Store store, long id) {
        boolean job = store.job(id).isPresent();
        boolean history = !store.history(id).isEmpty();
        boolean answer = store.answer("alice", "r-" + id).isPresent();
        assertThat(history).as("job %d's history is kept exactly when the job is", id).isEqualTo(job);
        assertThat(answer).as("the answer about job %d is kept exactly when the job is", id).isEqualTo(job);
        return job;
    }

    @Test
    void aUnitsWritesAreKeptTogether() {
        try (SqlStore store = open()) {
            long returned = store.inTransaction(() -> {
                submit(store, 7);
                return 7L;
            });
            assertThat(returned).isEqualTo(7);
            assertThat(kept(store, 7)).isTrue();
            assertThat(store.history(7)).extracting(TransitionView::event).containsExactly("SUBMITTED");
        }
    }

    /** The unit fails after its three writes: none of them is kept, and the failure reaches the caller as it was. */
    @Test
    void aUnitThatThrowsLeavesNothing() {
        try (SqlStore store = open()) {
            IllegalStateException failure = new IllegalStateException("the placement policy broke");
            assertThatThrownBy(() -> store.inTransaction(() -> {
                submit(store, 7);
                assertThat(kept(store, 7)).as("seen inside the unit").isTrue();
                throw failure;
            })).isSameAs(failure);
            assertThat(kept(store, 7)).isFalse();
            store.inTransaction(() -> submit(store, 8));
            assertThat(kept(store, 8)).as("the next unit commits as usual").isTrue();
        }
    }

    /**
     * A unit inside a unit joins it: job 7's writes, made in the inner one, are undone when the outer
     * one fails after the inner one returned.
     */
    @Test
    void aNestedUnitIsUndoneWithTheOuterOne() {
        try (SqlStore store = open()) {
            assertThatThrownBy(() -> store.inTransaction(() -> {
                store.inTransaction(() -> submit(store, 7));
                submit(store, 8);
                throw new IllegalStateException("after the inner unit");
            })).hasMessage("after the inner unit");
            assertThat(kept(store, 7)).isFalse();
            assertThat(kept(store, 8)).isFalse();
        }
    }

    /**
     * The inner unit fails and the outer one catches its failure and goes on: the inner unit's writes
     * are the outer one's, kept with them (a joined unit undoes nothing by itself).
     */
    @Test
    void aNestedUnitsFailureCaughtByTheOuterOneUndoesNothingByItself() {
        try (SqlStore store = open()) {
            store.inTransaction(() -> {
                try {
                    store.inTransaction(() -> {
                        submit(store, 7);
                        throw new IllegalStateException("inner");
                    });
                } catch (IllegalStateException expected) {
                    // the outer work goes on
                }
                submit(store, 8);
            });
            assertThat(kept(store, 7)).isTrue();
            assertThat(kept(store, 8)).isTrue();
        }
    }

    @Test
    void actionsAfterACommitRunOnceItIsDoneAndNeverForAUnitUndone() {
        try (SqlStore store = open()) {
            List<String> seen = new ArrayList<>();
            store.inTransaction(() -> {
                submit(store, 7);
                store.afterCommit(() -> seen.add("pilot of job 7 submitted, job 7 kept: " + kept(store, 7)));
                seen.add("unit of job 7 ends");
            });
            assertThatThrownBy(() -> store.inTransaction(() -> {
                submit(store, 8);
                store.afterCommit(() -> seen.add("pilot of job 8 submitted"));
                throw new IllegalStateException("undone");
            }));
            store.afterCommit(() -> seen.add("outside a unit: at once"));
            assertThat(seen).containsExactly("unit of job 7 ends", "pilot of job 7 submitted, job 7 kept: true",
                    "outside a unit: at once");
        }
    }

    /** A write made outside any unit is a unit of its own, kept when the call returns (as every write was before units). */
    @Test
    void aWriteOutsideAUnitIsKeptAtOnce() {
        try (SqlStore store = open()) {
            submit(store, 7);
            assertThat(kept(store, 7)).isTrue();
            assertThat(store.stats().units()).as("one commit per write").isGreaterThanOrEqualTo(3);
            long before = store.stats().units();
            store.inTransaction(() -> submit(store, 8));
            assertThat(store.stats().units() - before).as("one commit for the unit's three writes").isEqualTo(1);
        }
    }
}
