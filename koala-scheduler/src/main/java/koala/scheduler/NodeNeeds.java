package koala.scheduler;

import java.util.ArrayList;
import java.util.List;
import koala.jdf.ComponentSpec;
import koala.jdf.JobDescription;
import koala.jdf.JobKind;
import koala.jdf.NodeResources;
import koala.placement.ComponentNeed;
import koala.placement.JobNeed;
import koala.placement.Resources;
import koala.scheduler.claiming.NodeClaim;

/**
 * What a job's nodes ask of their hosts, in placement's terms: each component's {@code cores},
 * {@code memory} and {@code gpus} per node. A job that asks for nothing beyond a core per node is
 * placed on idle nodes as before resources were known, its hosts left to SGE; one that asks for
 * more is placed host by host, where its nodes fit.
 */
final class NodeNeeds {
    private NodeNeeds() {
    }

    /**
     * What each node of the component takes of its host, as placement counts it and its pilot claims it
     * ({@link PilotClaim#memoryMiB}): its cores and GPUs, and, when it asks for memory, that with the
     * launcher's share beside the program.
     */
    static Resources perNode(ComponentSpec c) {
        return taken(c.resources());
    }

    /** What a node asking {@code r} takes of its host ({@link #perNode(ComponentSpec)}). */
    static Resources taken(NodeResources r) {
        Resources asked = perNode(r);
        return asked.memoryMiB() == 0 ? asked : new Resources(asked.cores(),
                new PilotClaim(asked, null, 0).memoryMiB(), asked.gpus());
    }

    /** What the node asks for: its component's, or one core where the description has no such component. */
    static Resources perNode(JobDescription description, NodeClaim node) {
        List<ComponentSpec> components = description == null ? List.of() : description.components();
        return node.component() < components.size() ? perNode(components.get(node.component())) : Resources.NODE;
    }

    /** What each node of a grow asks for: the runner's figures for its role, one core where it gave none. */
    static NodeResources of(koala.api.scheduler.GrowRequest request) {
        return new NodeResources(request.cores() == null ? 1 : request.cores(),
                request.memoryMiB() == null ? NodeResources.MEMORY_NOT_GIVEN : request.memoryMiB(),
                request.gpus() == null ? 0 : request.gpus());
    }

    /**
     * How many of the grid's nodes a node of {@code perNode} takes, for sharing the grid between framework
     * instances (Dominant Resource Fairness): a grid node is one core with the grid's memory per core and
     * its share of the GPUs, and a node takes as many as its largest share of {@code total} asks for. On
     * a grid of 176 cores, 704G and 8 GPUs, a node of 1 core and 4G takes 1; of 4 cores, 4; of 1 core
     * and 16G, 4; of 1 core and a GPU, 22 (a GPU is an eighth of the grid's, as 22 cores are). A dimension
     * the grid has none of (or does not know) is not counted.
     */
    static int gridNodes(Resources perNode, Resources total) {
        int nodes = Math.max(1, perNode.cores());
        if (total.cores() > 0) {
            nodes = Math.max(nodes, share(perNode.memoryMiB(), total.memoryMiB(), total.cores()));
            nodes = Math.max(nodes, share(perNode.gpus(), total.gpus(), total.cores()));
        }
        return nodes;
    }

    /** {@code asked} of {@code total} as a share of {@code cores}, rounded up; 0 when the grid has none. */
    private static int share(long asked, long total, int cores) {
        return total <= 0 || asked <= 0 ? 0 : (int) Math.min(Integer.MAX_VALUE, (asked * cores + total - 1) / total);
    }

    /** What the JDF asks per node, as it asks it. */
    static Resources perNode(NodeResources r) {
        return new Resources(r.cores(), r.memoryMiB(), r.gpus());
    }

    /** Whether some component asks for more than one core per node: then placement must see the hosts. */
    static boolean byResources(JobDescription description) {
        return description != null && description.components().stream().anyMatch(c -> !perNode(c).equals(Resources.NODE));
    }

    /** The job as placement sees it: every component whole. */
    static JobNeed of(long id, JobDescription description) {
        List<ComponentNeed> needs = new ArrayList<>();
        for (ComponentSpec c : description.components()) {
            needs.add(component(c, c.count()));
        }
        return new JobNeed(Long.toString(id), needs, description.kind() == JobKind.FLEXIBLE);
    }

    /** {@code nodes} nodes of the component, as placement sees them. */
    static ComponentNeed component(ComponentSpec c, int nodes) {
        return new ComponentNeed(c.index(), nodes, c.cluster(), c.inputFiles(), perNode(c));
    }
}
