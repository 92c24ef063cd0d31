package koala.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import koala.placement.ComponentNeed;
import koala.placement.FlexibleClusterMinimization;
import koala.placement.JobNeed;
import koala.placement.PlacementPolicies;
import koala.placement.PlacementPolicy;

/**
 * How a rigid job of {@code s} nodes asks the scheduler's placement code for its nodes, held to one
 * cluster or free to be co-allocated.
 *
 * <ul>
 *   <li>Held to one cluster: one component of {@code s} nodes, not flexible. Every policy then
 *       sends it to the cluster with the most idle nodes that has room (ties: name), and says
 *       {@code NEVER_FITS} when {@code s} exceeds every cluster.</li>
 *   <li>Co-allocated, {@code componentSize == 0}: a flexible job of {@code s} nodes, which
 *       {@link FlexibleClusterMinimization} splits over the fewest clusters, emptiest first. Only
 *       that policy splits a flexible job, so only it may have no component size.</li>
 *   <li>Co-allocated, {@code componentSize = c > 0}: {@code ceil(s / c)} components of {@code c}
 *       nodes (the last one smaller when {@code c} does not divide {@code s}), placed by the policy,
 *       e.g. Worst-Fit (each component to the emptiest cluster) or Cluster Minimization (as few
 *       clusters as it can).</li>
 * </ul>
 *
 * @param policy        the placement policy, as the scheduler's
 * @param componentSize 0 for a flexible job, else the nodes of each component
 */
public record JobSplit(PlacementPolicy policy, int componentSize) {
    /** The default: flexible jobs split by Flexible Cluster Minimization. */
    public static final JobSplit FLEXIBLE = new JobSplit(PlacementPolicies.byName(FlexibleClusterMinimization.NAME), 0);

    public JobSplit {
        if (componentSize < 0) {
            throw new IllegalArgumentException("a component size is at least 1 node, or 0 for a flexible job");
        }
        if (componentSize == 0 && !policy.name().equals(FlexibleClusterMinimization.NAME)) {
            throw new IllegalArgumentException(policy.name() + " places a flexible job whole, so it would never "
                    + "co-allocate one: give it a component size (" + policy.name() + ":4), or use "
                    + FlexibleClusterMinimization.NAME);
        }
    }

    /**
     * {@code "flexible-cluster-minimization"} (flexible jobs), or {@code "POLICY:C"}: components of
     * {@code C} nodes placed by {@code POLICY}, e.g. {@code "worst-fit:4"}.
     */
    public static JobSplit parse(String spec) {
        String[] p = spec.strip().toLowerCase(Locale.ROOT).split(":", -1);
        if (p.length > 2) {
            throw new IllegalArgumentException("'" + spec + "': give POLICY or POLICY:COMPONENT_SIZE");
        }
        int size;
        try {
            size = p.length == 2 ? Integer.parseInt(p[1].strip()) : 0;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + spec + "': the component size is a number of nodes");
        }
        if (p.length == 2 && size < 1) {
            throw new IllegalArgumentException("'" + spec + "': a component has at least 1 node");
        }
        return new JobSplit(PlacementPolicies.byName(p[0]), size);
    }

    /** The short form {@link #parse} reads: "flexible-cluster-minimization", "worst-fit:4". */
    public String spec() {
        return componentSize == 0 ? policy.name() : policy.name() + ":" + componentSize;
    }

    /** The job as one component of all its nodes, for one cluster. */
    public JobNeed oneCluster(ParallelJob job) {
        return new JobNeed("j" + job.id(), List.of(new ComponentNeed(0, job.size(), null, List.of())), false);
    }

    /** The job as placement may co-allocate it. */
    public JobNeed coallocated(ParallelJob job) {
        if (componentSize == 0) {
            return new JobNeed("j" + job.id(), List.of(new ComponentNeed(0, job.size(), null, List.of())), true);
        }
        List<ComponentNeed> components = new ArrayList<>();
        for (int left = job.size(), i = 0; left > 0; left -= componentSize, i++) {
            components.add(new ComponentNeed(i, Math.min(componentSize, left), null, List.of()));
        }
        return new JobNeed("j" + job.id(), components, false);
    }
}
