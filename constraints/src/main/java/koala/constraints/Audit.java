package koala.constraints;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks a whole cluster state against every constraint in force, from scratch and apart from the
 * placer's own bookkeeping: for each constraint and each group holding a subject, whether the group's
 * targets are within bounds for every subject there. A lower bound is not counted as broken when no
 * target other than the subject runs anywhere (the first of its kind, or a target that has ended: KOALA
 * does not move running containers to mend it).
 */
public final class Audit {
    private Audit() {
    }

    /** A constraint broken in one group of the state. */
    public record Finding(Constraint constraint, String group, String text) {
    }

    public static List<Finding> check(ClusterState state) {
        List<Finding> found = new ArrayList<>();
        Set<Constraint> seen = new LinkedHashSet<>(state.constraints());
        for (Constraint k : seen) {
            found.addAll(check(state, k));
        }
        return found;
    }

    static List<Finding> check(ClusterState state, Constraint k) {
        Map<String, List<Container>> subjects = new TreeMap<>();
        Map<String, Integer> targets = new HashMap<>();
        int allTargets = 0;
        Set<Container> relevant = new LinkedHashSet<>(state.tagged(k.subject().first()));
        relevant.addAll(state.tagged(k.target().first()));
        for (Container c : relevant) {
            String g = state.nodes().get(state.indexOf(c.node())).groupOf(k.group());
            if (c.tags().carries(k.subject())) {
                subjects.computeIfAbsent(g, x -> new ArrayList<>()).add(c);
            }
            if (c.tags().carries(k.target())) {
                targets.merge(g, 1, Integer::sum);
                allTargets++;
            }
        }
        List<Finding> found = new ArrayList<>();
        for (Map.Entry<String, List<Container>> e : subjects.entrySet()) {
            int t = targets.getOrDefault(e.getKey(), 0);
            for (Container s : e.getValue()) {
                int self = s.tags().carries(k.target()) ? 1 : 0;
                int counted = k.kind() == Constraint.Kind.CARDINALITY ? t : t - self;
                boolean over = counted > k.max();
                boolean under = counted < k.min() && allTargets - self > 0;
                if (over || under) {
                    found.add(new Finding(k, e.getKey(), k.describe() + ": " + Rules.where(k, e.getKey()) + " holds "
                            + Rules.count(t, k.target()) + " beside " + s.id()));
                    break;
                }
            }
        }
        return found;
    }
}
