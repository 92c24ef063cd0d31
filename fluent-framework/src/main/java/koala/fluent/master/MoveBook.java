package koala.fluent.master;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.fluent.Resumed;

/**
 * The moves of suspended word counts the master's state has decided and the DeviceManagers have not
 * all carried out yet, and what moving and losing work came to: components moved, applications lost
 * with a worker ended under them. Kept the same way by the live master and by its journal's replay
 * ({@link MasterRecovery}), so that a master started again knows which moves to finish.
 */
final class MoveBook {
    private final Map<String, MovePlan> unfinished = new LinkedHashMap<>();
    private int movedComponents;
    private int lostWithWorker;

    /**
     * The state resumed {@code resumed}: when it moved components, the plan, now unfinished, with the
     * book's layout updated to where they go. Empty when all resumed in place.
     */
    Optional<MovePlan> decided(AppBook book, Resumed resumed) {
        if (resumed.moved().isEmpty()) {
            return Optional.empty();
        }
        AppBook.Entry entry = book.get(resumed.appId());
        Layout before = entry.layout().orElseThrow(() -> new IllegalStateException(resumed.appId()
                + ": where its components are was not kept (an older master started it)"));
        MovePlan plan = MovePlan.of(resumed.appId(), before, resumed);
        book.moved(resumed.appId(), plan.after());
        unfinished.put(resumed.appId(), plan);
        movedComponents += plan.steps().size();
        return Optional.of(plan);
    }

    /** {@code app}'s move is carried out, or it ended: nothing is left to finish. */
    void done(String app) {
        unfinished.remove(app);
    }

    /** {@code apps} applications failed because a worker under them was ended. */
    void lost(int apps) {
        lostWithWorker += apps;
    }

    Map<String, MovePlan> unfinished() {
        return Map.copyOf(unfinished);
    }

    int movedComponents() {
        return movedComponents;
    }

    int lostWithWorker() {
        return lostWithWorker;
    }

    List<JournalEntry.PendingMove> pending() {
        return unfinished.values().stream().map(p -> new JournalEntry.PendingMove(p.app(), p.before().workers(),
                p.after().workers())).toList();
    }

    Map<String, Integer> counts() {
        return Map.of("moved", movedComponents, "lostWithWorker", lostWithWorker);
    }

    /** As a snapshot kept it (an older one has neither). */
    void restore(List<JournalEntry.PendingMove> moving, Map<String, Integer> counts) {
        unfinished.clear();
        if (moving != null) {
            moving.forEach(m -> unfinished.put(m.app(), new MovePlan(m.app(), new Layout(m.before()),
                    new Layout(m.after()))));
        }
        movedComponents = counts == null ? 0 : counts.getOrDefault("moved", 0);
        lostWithWorker = counts == null ? 0 : counts.getOrDefault("lostWithWorker", 0);
    }
}
