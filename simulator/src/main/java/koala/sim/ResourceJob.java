package koala.sim;

import java.time.Duration;
import java.util.List;
import koala.placement.Resources;

/**
 * A rigid job that asks for resources: one or more components (several: a co-allocated job, all of
 * whose components start together), each of {@code nodes} nodes of {@code perNode} resources, for
 * {@code runtime}. The job says nothing of sites: which site a component is pinned to, if any, is
 * the placement's business ({@link ResourceQueue}).
 *
 * @param id      its position in the workload, from 1
 * @param arrival when it is submitted, from the start of the run
 * @param kind    its class in the mix ("small", "memory", "gpu", "mpi"), for the reports
 */
public record ResourceJob(int id, Duration arrival, Duration runtime, String kind, List<Part> parts) {
    /** One component: {@code nodes} nodes of {@code perNode} each. */
    public record Part(int nodes, Resources perNode) {
        public Part {
            if (nodes < 1 || perNode.cores() < 1) {
                throw new IllegalArgumentException("a component has at least 1 node of at least 1 core, got " + nodes
                        + " of " + perNode);
            }
        }
    }

    public ResourceJob {
        parts = List.copyOf(parts);
        if (parts.isEmpty() || arrival.isNegative() || runtime.isNegative() || runtime.isZero()) {
            throw new IllegalArgumentException("job " + id + ": needs at least one component, an arrival at or after 0 "
                    + "and a positive runtime");
        }
    }

    /** Job {@code id} arriving {@code arrivalSeconds} after the start, running {@code runtimeSeconds}. */
    public static ResourceJob of(int id, double arrivalSeconds, double runtimeSeconds, String kind, List<Part> parts) {
        return new ResourceJob(id, ParallelJob.millis(arrivalSeconds), ParallelJob.millis(runtimeSeconds), kind, parts);
    }

    /** What all its nodes ask for together. */
    public Resources total() {
        Resources sum = Resources.NONE;
        for (Part p : parts) {
            sum = sum.plus(p.perNode().times(p.nodes()));
        }
        return sum;
    }

    /** Its nodes, over all components. */
    public int nodes() {
        return parts.stream().mapToInt(Part::nodes).sum();
    }
}
