package koala.constraints;

/**
 * Whether placing one container on one node keeps one constraint, given what the node's group holds
 * already; the words of every break are here, in one place.
 *
 * <p>A container carrying the <b>subject</b> tags checks its own group: for an anti-affinity, no other
 * target there; for an affinity, at least one; for a cardinality, the targets there, itself counted if
 * it carries the target tags, within {@code min..max}. A lower bound (affinity, {@code min > 0}) is met
 * by the first of its kind: when the container carries the target tags itself and no other container
 * carrying them runs anywhere, there is nothing to be near yet.
 *
 * <p>A container carrying the <b>target</b> tags must not push a group that holds subjects past an
 * upper bound: a target beside a subject of an anti-affinity, or one target too many for a
 * cardinality. (Adding a container never breaks a lower bound, so lower bounds are checked for the
 * container being placed only, when it is placed.)
 */
final class Rules {
    private Rules() {
    }

    /**
     * Whether placing a container that carries the subject tags ({@code subject}) and/or the target
     * tags ({@code target}) on {@code node} keeps {@code k}. No words: the placer asks this of every node.
     */
    static boolean keeps(Constraint k, Scratch.Counts counts, boolean subject, boolean target, Node node) {
        int[] at = counts.at(node.groupOf(k.group()));
        boolean first = target && counts.targets() == 0;
        if (subject) {
            int others = at[0];
            boolean kept = switch (k.kind()) {
                case AFFINITY -> others > 0 || first;
                case ANTI_AFFINITY -> others == 0;
                case CARDINALITY -> {
                    int n = others + (target ? 1 : 0);
                    yield n <= k.max() && (n >= k.min() || first);
                }
            };
            if (!kept) {
                return false;
            }
        }
        if (target && at[1] > 0) {
            return switch (k.kind()) {
                case AFFINITY -> true;
                case ANTI_AFFINITY -> false;
                case CARDINALITY -> at[0] + 1 <= k.max();
            };
        }
        return true;
    }

    /** Null when placing a container with {@code tags} on {@code node} keeps {@code k}; else why not. */
    static String broken(Constraint k, Scratch.Counts counts, Tags tags, Node node) {
        if (keeps(k, counts, tags.carries(k.subject()), tags.carries(k.target()), node)) {
            return null;
        }
        String why = explain(k, counts, tags, node);
        return why != null ? why : node.name() + " breaks it";
    }

    /** The words for a break ({@link #keeps} and this are checked against each other by a test). */
    static String explain(Constraint k, Scratch.Counts counts, Tags tags, Node node) {
        String group = node.groupOf(k.group());
        int[] at = counts.at(group);
        boolean subject = tags.carries(k.subject());
        boolean target = tags.carries(k.target());
        boolean first = target && counts.targets() == 0;
        if (subject) {
            String why = asSubject(k, at[0], target, first, where(k, group), counts.targets() == 0);
            if (why != null) {
                return why;
            }
        }
        if (target && at[1] > 0) {
            return asTarget(k, at, where(k, group));
        }
        return null;
    }

    private static String asSubject(Constraint k, int others, boolean target, boolean first, String where,
            boolean none) {
        return switch (k.kind()) {
            case AFFINITY -> others > 0 || first ? null : nothingNear(k, none ? null : where, false);
            case ANTI_AFFINITY -> others == 0 ? null : where + " already holds " + count(others, k.target());
            case CARDINALITY -> {
                int n = others + (target ? 1 : 0);
                if (n > k.max()) {
                    yield where + " would hold " + count(n, k.target()) + ", at most " + k.max();
                }
                yield n >= k.min() || first ? null : nothingNear(k, none ? null : where, true) + " (" + n + " with it, at least "
                        + k.min() + ")";
            }
        };
    }

    private static String asTarget(Constraint k, int[] at, String where) {
        return switch (k.kind()) {
            case AFFINITY -> null;
            case ANTI_AFFINITY -> where + " holds " + count(at[1], k.subject()) + ", which keeps "
                    + k.target() + " out of its " + k.group();
            case CARDINALITY -> at[0] + 1 <= k.max() ? null : where + " holds " + count(at[1], k.subject())
                    + " and would hold " + count(at[0] + 1, k.target()) + ", at most " + k.max();
        };
    }

    /** {@code where} is null when no target runs anywhere. */
    private static String nothingNear(Constraint k, String where, boolean enough) {
        if (where == null) {
            return "no container tagged " + k.target() + " runs anywhere";
        }
        return (enough ? where + " holds too few containers tagged " : where + " holds no container tagged ")
                + k.target();
    }

    static String where(Constraint k, String group) {
        return k.group().equals(Group.HOST) ? "node " + group : k.group() + " " + group;
    }

    static String count(int n, Tags tags) {
        return n + (n == 1 ? " container tagged " : " containers tagged ") + tags;
    }
}
