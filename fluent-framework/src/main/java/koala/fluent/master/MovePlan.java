package koala.fluent.master;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import koala.fluent.Assignment;
import koala.fluent.Resumed;

/**
 * Which components of a suspended word count move where, as the state decided it ({@link Resumed}):
 * the components on the workers it {@code moved} from go, in slot order, to the slots it took on
 * other workers, in assignment order. An assignment is a destination unless it is a worker the word
 * count held before and did not leave (those took their slots back in place). Pure: the live master
 * and a master replaying its journal make the same plan from the same decision.
 *
 * @param before where its components were
 * @param after  where they are once moved
 */
record MovePlan(String app, Layout before, Layout after) {
    /** One component moving: its slot, from which worker to which. */
    record Step(int slot, String from, String to) {
    }

    static MovePlan of(String app, Layout before, Resumed resumed) {
        List<String> targets = new ArrayList<>();
        for (Assignment a : resumed.to()) {
            boolean inPlace = before.workers().contains(a.workerId()) && !resumed.moved().contains(a.workerId());
            for (int i = 0; !inPlace && i < a.slots(); i++) {
                targets.add(a.workerId());
            }
        }
        List<String> after = new ArrayList<>(before.workers());
        int next = 0;
        for (int slot = 0; slot < after.size(); slot++) {
            if (resumed.moved().contains(before.workers().get(slot))) {
                if (next == targets.size()) {
                    throw new IllegalStateException(app + ": more components on " + resumed.moved()
                            + " than slots taken " + resumed.to());
                }
                after.set(slot, targets.get(next++));
            }
        }
        if (next != targets.size()) {
            throw new IllegalStateException(app + ": " + targets.size() + " slots taken " + resumed.to() + " for "
                    + next + " components on " + resumed.moved());
        }
        return new MovePlan(app, before, new Layout(after));
    }

    /** The components that move, in slot order. */
    List<Step> steps() {
        List<Step> steps = new ArrayList<>();
        for (int slot = 0; slot < before.workers().size(); slot++) {
            if (!before.workers().get(slot).equals(after.workers().get(slot))) {
                steps.add(new Step(slot, before.workers().get(slot), after.workers().get(slot)));
            }
        }
        return steps;
    }

    /** The workers components leave, in slot order. */
    Set<String> sources() {
        Set<String> from = new LinkedHashSet<>();
        steps().forEach(s -> from.add(s.from()));
        return from;
    }

    /** "mapper 0, reader from w1 to w2 (2)", as events say it. */
    String describe() {
        StringBuilder text = new StringBuilder();
        for (Step s : steps()) {
            text.append(text.length() == 0 ? "" : ", ").append(before.name(s.slot())).append(' ').append(s.from())
                    .append(" → ").append(s.to());
        }
        return text.toString();
    }
}
