package koala.placement;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The placement policies by short name, as a JDF ({@code placement = close-to-files}) or the grid
 * configuration names them. Policies hold no state, so one instance of each serves every job.
 */
public final class PlacementPolicies {
    /** The policy for a job that names none: Worst-Fit. */
    public static final String DEFAULT = WorstFit.NAME;
    /**
     * The policy for a flexible job that names none: Flexible Cluster Minimization. A flexible job
     * that names another policy gets it, and that policy places the job whole, without splitting it.
     */
    public static final String DEFAULT_FLEXIBLE = FlexibleClusterMinimization.NAME;

    private static final List<PlacementPolicy> ALL = List.of(new WorstFit(), new CloseToFiles(),
            new ClusterMinimization(), new FlexibleClusterMinimization());
    private static final Map<String, PlacementPolicy> BY_NAME =
            ALL.stream().collect(Collectors.toUnmodifiableMap(PlacementPolicy::name, Function.identity()));

    private PlacementPolicies() {
    }

    /**
     * Every short name, in a fixed order: worst-fit, close-to-files, cluster-minimization,
     * flexible-cluster-minimization.
     */
    public static List<String> names() {
        return ALL.stream().map(PlacementPolicy::name).toList();
    }

    /**
     * The policy of that short name, case and surrounding blanks ignored.
     *
     * @throws IllegalArgumentException for an unknown name, listing the known ones
     */
    public static PlacementPolicy byName(String name) {
        PlacementPolicy policy = name == null ? null : BY_NAME.get(name.strip().toLowerCase(Locale.ROOT));
        if (policy == null) {
            throw new IllegalArgumentException("unknown placement policy '" + name + "'; known: "
                    + String.join(", ", names()));
        }
        return policy;
    }
}
