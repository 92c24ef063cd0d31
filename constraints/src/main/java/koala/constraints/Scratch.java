package koala.constraints;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * One decision's working copy: the {@link ClusterState} as given, plus the containers the decision
 * has placed tentatively, and for each constraint it has looked at, how many of its targets and
 * subjects each group holds ({@link Counts}), kept up to date as tentative containers are added.
 */
final class Scratch {
    private final ClusterState state;
    private final int[] taken;
    private final int[] takenOnSite;
    private final List<Container> tentative = new ArrayList<>();
    private final Map<Constraint, Counts> counts = new IdentityHashMap<>();

    Scratch(ClusterState state) {
        this.state = state;
        this.taken = new int[state.nodes().size()];
        this.takenOnSite = new int[state.sites().size()];
    }

    ClusterState state() {
        return state;
    }

    int free(int node) {
        return state.free(node) - taken[node];
    }

    int siteFree(int site) {
        return state.siteFree(site) - takenOnSite[site];
    }

    /** The sites' positions, the most free slots first, then by name. */
    int[] sitesByFree() {
        int n = state.sites().size();
        long[] keys = new long[n];
        for (int s = 0; s < n; s++) {
            keys[s] = ((long) (Integer.MAX_VALUE - siteFree(s)) << 32) | s;
        }
        java.util.Arrays.sort(keys);
        int[] order = new int[n];
        for (int s = 0; s < n; s++) {
            order[s] = (int) keys[s];
        }
        return order;
    }

    boolean anyTentative() {
        return !tentative.isEmpty();
    }

    /** Places a container tentatively on the node at position {@code node}. */
    void place(Container c, int node) {
        taken[node]++;
        takenOnSite[state.siteOf(node)]++;
        tentative.add(c);
        for (Map.Entry<Constraint, Counts> e : counts.entrySet()) {
            e.getValue().add(e.getKey(), c, state.nodes().get(node));
        }
    }

    /** Targets and subjects of {@code k} per group, over the running and the tentative containers. */
    Counts counts(Constraint k) {
        Counts c = counts.get(k);
        if (c == null) {
            c = new Counts();
            // every carrier of a set has each of its tags: walk those of its rarest tag ("job=7", not "role=worker")
            String targetTag = rarest(k.target());
            for (Container x : state.tagged(targetTag)) {
                c.add(k, x, nodeOf(x));
            }
            for (Container x : state.tagged(rarest(k.subject()))) {
                if (!x.tags().values().contains(targetTag)) {
                    c.add(k, x, nodeOf(x));
                }
            }
            for (Container x : tentative) {
                c.add(k, x, nodeOf(x));
            }
            counts.put(k, c);
        }
        return c;
    }

    private String rarest(Tags tags) {
        String best = tags.first();
        int fewest = state.tagged(best).size();
        for (String t : tags.values()) {
            int n = state.tagged(t).size();
            if (n < fewest) {
                best = t;
                fewest = n;
            }
        }
        return best;
    }

    private Node nodeOf(Container c) {
        return state.nodes().get(state.indexOf(c.node()));
    }

    /** For one constraint: per group value, {targets, subjects}; and the targets in all. */
    static final class Counts {
        private static final int[] NONE = {0, 0};
        private final Map<String, int[]> byGroup = new HashMap<>();
        private int targets;

        void add(Constraint k, Container c, Node node) {
            boolean target = c.tags().carries(k.target());
            boolean subject = c.tags().carries(k.subject());
            if (!target && !subject) {
                return;
            }
            int[] at = byGroup.computeIfAbsent(node.groupOf(k.group()), g -> new int[2]);
            if (target) {
                at[0]++;
                targets++;
            }
            if (subject) {
                at[1]++;
            }
        }

        /** {targets, subjects} in the group (do not modify). */
        int[] at(String group) {
            return byGroup.getOrDefault(group, NONE);
        }

        int targets() {
            return targets;
        }
    }
}
