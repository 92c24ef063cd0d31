package koala.jdf;

import java.util.List;

/**
 * One placement constraint of a component, as the JDF writes it
 * ({@code (constraints = "anti-affinity component=1 site" "cardinality 0..2 role=worker host soft")}):
 * the component is the subject; the constraint bounds how many nodes carrying the {@code target} tags
 * share each group of kind {@code group} (host, site, network, or a kind the grid declares, such as
 * {@code rack}) with the component's nodes.
 *
 * <ul>
 *   <li>{@value #AFFINITY}: at least one target in the group;</li>
 *   <li>{@value #ANTI_AFFINITY}: none;</li>
 *   <li>{@value #CARDINALITY}: between {@code min} and {@code max} ({@link Integer#MAX_VALUE} for {@code *}),
 *       the component's own nodes counted when they carry the target tags.</li>
 * </ul>
 *
 * @param target the tags a target carries, every one of them; a target that names no {@code job=} or
 *               {@code owner=} tag means this job's (or framework instance's) own nodes
 * @param hard   never broken (the job waits) when true; broken only when nothing else fits when false
 * @param text   the constraint as written, for messages and views
 */
public record ConstraintSpec(String kind, List<String> target, String group, int min, int max, boolean hard,
                             String text, SourcePosition position) {
    public static final String AFFINITY = "affinity";
    public static final String ANTI_AFFINITY = "anti-affinity";
    public static final String CARDINALITY = "cardinality";
    /** The kinds of node group KOALA itself knows; a grid declares others per site ({@code site.S.groups.K.G}). */
    public static final List<String> BUILT_IN_GROUPS = List.of("host", "site", "network");
    /**
     * Tag keys KOALA gives every node of a job itself ({@code instance=ID} besides {@code job=ID} on a
     * framework instance's nodes); a JDF's {@code tags} may not use them.
     */
    public static final List<String> KOALA_TAG_KEYS = List.of("job", "owner", "role", "component", "instance");

    public ConstraintSpec {
        target = List.copyOf(target);
    }

    /**
     * Whether the target names another job, instance or owner's nodes ({@code job=ID}, {@code instance=ID},
     * {@code owner=NAME}) rather than this job's.
     */
    public boolean global() {
        return target.stream().anyMatch(t -> t.startsWith("job=") || t.startsWith("instance=")
                || t.startsWith("owner="));
    }

    /**
     * One constraint as a JDF writes it in a {@code constraints} value ({@code "anti-affinity role=orchestrator
     * site"}), read by the JDF's own reader, any group kind well formed taken (the grid is not known here).
     *
     * @throws IllegalArgumentException what is wrong with it, as the JDF's reader says (without a place in a file)
     */
    public static ConstraintSpec parse(String text) {
        Problems problems = new Problems("-");
        java.util.Optional<ConstraintSpec> read = new ConstraintReader(problems, null)
                .read(new Rsl.Literal(text == null ? "" : text, new SourcePosition("-", 1, 1)));
        if (read.isEmpty()) {
            throw new IllegalArgumentException(problems.sorted().stream().map(e -> e.message()
                    .replaceFirst("^constraints: ", "")).collect(java.util.stream.Collectors.joining("; ")));
        }
        return read.get();
    }

    /** What is wrong with {@code tag} as a JDF's {@code tags} value (spaces, ',', a key of KOALA's); empty if nothing. */
    public static java.util.Optional<String> tagProblem(String tag) {
        try {
            Values.tag(tag == null ? "" : tag);
            return java.util.Optional.empty();
        } catch (RuntimeException e) {
            return java.util.Optional.of("'" + tag + "' " + e.getMessage());
        }
    }

    /** Whether it asks for targets near the subject (affinity, or cardinality with min above 0). */
    public boolean lowerBound() {
        return min > 0;
    }
}
