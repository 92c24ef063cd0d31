package koala.constraints;

import java.util.Objects;

/**
 * A placement constraint in Medea's terms (Garefalakis et al., EuroSys 2018): for every group of
 * kind {@link #group} (every host, site, rack...) that holds a container carrying the
 * {@link #subject} tags, the containers carrying the {@link #target} tags in that group must number
 * within bounds.
 * <ul>
 *   <li>{@link Affinity}: at least one target beside the subject (the workers of B on the site of A's
 *       master);</li>
 *   <li>{@link AntiAffinity}: no target beside the subject (A's master and orchestrator on different
 *       sites);</li>
 *   <li>{@link Cardinality}: between {@code min} and {@code max} targets, <em>the subject counted when it
 *       carries the target tags itself</em> (at most 2 workers of A per host is
 *       {@code Cardinality({A, worker}, {A, worker}, host, 0, 2)}).</li>
 * </ul>
 * A <b>hard</b> constraint is never broken: a request that would break it waits. A <b>soft</b> one is
 * broken only when no node keeps it, and each break is counted. Medea names one target tag; a tag
 * set generalizes it ({@code {instance=A, role=worker}} is "A's workers"), a one-tag set is Medea's.
 */
public sealed interface Constraint permits Constraint.Affinity, Constraint.AntiAffinity, Constraint.Cardinality {

    /** Which of the three, for exhaustive switches (Java 17 has no pattern switch over sealed types). */
    enum Kind { AFFINITY, ANTI_AFFINITY, CARDINALITY }

    Kind kind();

    Tags subject();

    Tags target();

    Group group();

    boolean hard();

    /** Fewest targets in a subject's group that keep the constraint (for Cardinality, the subject counted). */
    int min();

    /** Most targets in a subject's group that keep the constraint ({@link Integer#MAX_VALUE}: no bound). */
    int max();

    /** "hard anti-affinity of {A, master} to {A, orchestrator} over site", as reasons and tables print it. */
    default String describe() {
        String what = switch (kind()) {
            case AFFINITY -> "affinity of " + subject() + " to " + target() + " over " + group();
            case ANTI_AFFINITY -> "anti-affinity of " + subject() + " to " + target() + " over " + group();
            case CARDINALITY -> "cardinality " + min() + ".." + (max() == Integer.MAX_VALUE ? "*" : max()) + " of "
                    + target() + " per " + group() + " of " + subject();
        };
        return (hard() ? "hard " : "soft ") + what;
    }

    /** At least one container carrying {@code target} in the group of every container carrying {@code subject}. */
    record Affinity(Tags subject, Tags target, Group group, boolean hard) implements Constraint {
        public Affinity {
            check(subject, target, group);
        }

        @Override
        public Kind kind() {
            return Kind.AFFINITY;
        }

        @Override
        public int min() {
            return 1;
        }

        @Override
        public int max() {
            return Integer.MAX_VALUE;
        }
    }

    /** No other container carrying {@code target} in the group of any container carrying {@code subject}. */
    record AntiAffinity(Tags subject, Tags target, Group group, boolean hard) implements Constraint {
        public AntiAffinity {
            check(subject, target, group);
        }

        @Override
        public Kind kind() {
            return Kind.ANTI_AFFINITY;
        }

        @Override
        public int min() {
            return 0;
        }

        @Override
        public int max() {
            return 0;
        }
    }

    /** Between {@code min} and {@code max} containers carrying {@code target} (the subject counted) per group. */
    record Cardinality(Tags subject, Tags target, Group group, int min, int max, boolean hard) implements Constraint {
        public Cardinality {
            check(subject, target, group);
            if (min < 0 || max < min) {
                throw new IllegalArgumentException("cardinality bounds are 0 <= min <= max, got " + min + ".." + max);
            }
        }

        @Override
        public Kind kind() {
            return Kind.CARDINALITY;
        }
    }

    private static void check(Tags subject, Tags target, Group group) {
        Objects.requireNonNull(group, "group");
        if (subject.isEmpty() || target.isEmpty()) {
            throw new IllegalArgumentException("a constraint names at least one subject tag and one target tag");
        }
    }
}
