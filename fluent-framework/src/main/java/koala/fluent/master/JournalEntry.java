package koala.fluent.master;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.fluent.FrameworkState;
import koala.fluent.wire.FluentMessages.AppRequest;

/**
 * One line of the master's journal: an event that changed its state, written before the master
 * acts on it (before it answers the client, deploys a component or welcomes a worker), so that a
 * master started again replays exactly what its predecessor had promised. Entries are facts, not
 * decisions: replaying them through the same pure code ({@link MasterRecovery}) makes the same
 * decisions again. A {@link Snapshot} stands for every entry before it.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = JournalEntry.Arrived.class, name = "arrived"),
    @JsonSubTypes.Type(value = JournalEntry.GrowAsked.class, name = "grow"),
    @JsonSubTypes.Type(value = JournalEntry.Placed.class, name = "placed"),
    @JsonSubTypes.Type(value = JournalEntry.Joined.class, name = "joined"),
    @JsonSubTypes.Type(value = JournalEntry.Orchestrator.class, name = "orchestrator"),
    @JsonSubTypes.Type(value = JournalEntry.Ended.class, name = "ended"),
    @JsonSubTypes.Type(value = JournalEntry.Left.class, name = "left"),
    @JsonSubTypes.Type(value = JournalEntry.Yielded.class, name = "yielded"),
    @JsonSubTypes.Type(value = JournalEntry.Moved.class, name = "moved"),
    @JsonSubTypes.Type(value = JournalEntry.Snapshot.class, name = "snapshot")
})
sealed interface JournalEntry {
    Instant at();

    /** A client's job was taken in as {@code job}, its requests completed, the SWCs' expected counts made. */
    record Arrived(Instant at, String job, String name, List<String> apps, Map<String, AppRequest> requests,
                   Map<String, JobIntake.Expected> expected) implements JournalEntry {
    }

    /** The job at the head asked its runner for workers and waits for these nodes to join. */
    record GrowAsked(Instant at, String job, List<String> nodes, String note) implements JournalEntry {
    }

    /** The job at the head was placed (each application started, queued or rejected as the state decides). */
    record Placed(Instant at, String job, String growNote) implements JournalEntry {
    }

    /** A DeviceManager joined: worker {@code node} of {@code slots} slots, at {@code url}. */
    record Joined(Instant at, String node, String url, int slots) implements JournalEntry {
    }

    /** The runner put {@code app}'s orchestrator on {@code node}. */
    record Orchestrator(Instant at, String app, String node) implements JournalEntry {
    }

    /** A running application ended: FINISHED or FAILED, why, and what it gave. */
    record Ended(Instant at, String app, AppBook.State state, String reason, Map<String, Object> result)
            implements JournalEntry {
    }

    /** Worker {@code node} left (released, or lost once what ran on it had failed); its hellos are refused from now on. */
    record Left(Instant at, String node) implements JournalEntry {
    }

    /**
     * Worker {@code node}, taken back by the grid, yields its word counts: the state moves their
     * components to other workers ({@link FrameworkState#yieldWorker}), the same again when replayed.
     */
    record Yielded(Instant at, String node) implements JournalEntry {
    }

    /**
     * The move of {@code app}'s components that the state decided (when it resumed it on other workers,
     * or when a worker yielded) is carried out on the DeviceManagers. A move decided and not marked so
     * was cut short: the next master finishes it ({@link Mover}, again).
     */
    record Moved(Instant at, String app) implements JournalEntry {
    }

    /** A move decided and not carried out yet: the word count's components before and after, by slot. */
    record PendingMove(String app, List<String> before, List<String> after) {
    }

    /**
     * The whole state at {@code at}: what a compacted journal starts with.
     *
     * @param waiting jobs taken in but not placed yet, in arrival order (the first may wait for {@code pending})
     * @param book    the applications, by id in submission order; ended ones only as many as the master keeps
     * @param moving  moves decided and not carried out yet (null in an older journal: none)
     * @param moves   the counts of moved components and of applications lost with their worker (null: none)
     */
    record Snapshot(Instant at, FrameworkState.Snapshot state, List<AppBook.Entry> book, Map<String, String> urls,
                    List<Arrived> waiting, GrowAsked pending, int jobs, Map<String, String> growNotes,
                    List<String> gone, List<PendingMove> moving, Map<String, Integer> moves) implements JournalEntry {
        Snapshot(Instant at, FrameworkState.Snapshot state, List<AppBook.Entry> book, Map<String, String> urls,
                 List<Arrived> waiting, GrowAsked pending, int jobs, Map<String, String> growNotes, List<String> gone) {
            this(at, state, book, urls, waiting, pending, jobs, growNotes, gone, List.of(), Map.of());
        }
    }
}
