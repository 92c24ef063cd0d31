package koala.scheduler.accounting;

import koala.jdf.NodeResources;

/**
 * What one node is charged for each second it is granted, as Slurm's TRES: cores, memory and GPUs.
 *
 * <p>A node is charged what its component asked for ({@code cores}, {@code memory}, {@code gpus}; a
 * framework's node what its role's component in the framework JDF asked for). A node that asked for
 * nothing ({@link NodeResources#DEFAULT}: one core, no memory, no GPU, which is also what
 * {@code (cores = 1)} alone says) is charged as a node was before jobs asked for resources: a whole
 * node of its site, {@code site.S.node.cores} cores, and no memory and no GPU, since it claimed
 * none.
 *
 * @param cores     cores; null when the node asked for nothing and its site's cores are not known
 * @param memoryMiB memory asked for, in MiB; 0 when none was
 * @param gpus      GPUs asked for
 */
public record NodeCharge(Integer cores, long memoryMiB, int gpus) {
    /** MiB in a GB as the JDF writes it ({@code 1G} is 1024 MiB), and as GB-seconds count it. */
    public static final double MIB_PER_GB = 1024;

    /**
     * @param asked          what the node's component asked for
     * @param siteNodeCores  the cores of a node of the node's site; null when the site is not configured
     */
    public static NodeCharge of(NodeResources asked, Integer siteNodeCores) {
        if (asked.equals(NodeResources.DEFAULT)) {
            return new NodeCharge(siteNodeCores, 0, 0);
        }
        return new NodeCharge(asked.cores(), asked.memoryMiB(), asked.gpus());
    }

    public double memoryGb() {
        return memoryMiB / MIB_PER_GB;
    }
}
