package koala.scheduler;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import koala.api.scheduler.NodeTask;
import koala.jdf.ComponentSpec;
import koala.jdf.JobDescription;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.claiming.NodeState;
import koala.scheduler.storage.JobRecord;

/**
 * What a node of a running rigid job runs: its component's executable, with the JDF's arguments,
 * directory, environment and output files, and told where every node of the job is:
 *
 * <pre>
 * KOALA_JOB_ID, KOALA_JOB_NAME   the job
 * KOALA_COMPONENT, KOALA_RANK    this node's component and its rank within the component
 * KOALA_SITE, KOALA_NODE_ID      where this node is and its id
 * KOALA_NODES                    every node of the job, "component:rank:site:host", space-separated
 * KOALA_NODE_CORES               the cores this node has: its component's {@code cores}, or its site's
 *                                node slots when the component asks for none
 * KOALA_NODE_MEMORY_MIB          the memory it asked for, in MiB (only when its component gives one)
 * KOALA_NODE_GPUS                how many GPUs it asked for
 * CUDA_VISIBLE_DEVICES           its own devices, on a host with GPUs: no other node has them
 * </pre>
 */
final class ComponentLaunch {
    private ComponentLaunch() {
    }

    /** @param slots per site, the SGE slots of one node: the ranks an MPI job runs on each of its nodes there */
    static NodeTask task(JobRecord job, JobDescription description, NodeClaim node, List<NodeClaim> all,
                         java.util.function.ToIntFunction<String> slots) {
        ComponentSpec c = description.components().get(node.component());
        Map<String, String> env = environment(job, c, node, all);
        env.put("KOALA_NODE_CORES", Integer.toString(cores(description, node, slots)));
        List<String> mpiHosts = description.mpi() ? mpiHosts(description, all, slots) : null;
        return new NodeTask("RUN", c.executable(), c.arguments(), env, c.directory(), c.stdout(), c.stderr(),
                c.maxWallTime() == null ? null : c.maxWallTime().toSeconds(), mpiHosts,
                description.mpi() ? mpiApps(description, all, slots) : null);
    }

    /**
     * Each component's program and its ranks, in rank order, when the components run different
     * programs (MPMD); null when every rank runs the first component's (mpirun's plain command line).
     */
    static List<NodeTask.MpiApp> mpiApps(JobDescription description, List<NodeClaim> all,
                                        java.util.function.ToIntFunction<String> slots) {
        List<ComponentSpec> components = description.components();
        boolean same = components.stream().allMatch(c -> java.util.Objects.equals(c.executable(),
                components.get(0).executable()) && java.util.Objects.equals(c.arguments(), components.get(0).arguments()));
        if (same) {
            return null;
        }
        List<NodeTask.MpiApp> apps = new java.util.ArrayList<>();
        for (int i = 0; i < components.size(); i++) {
            int component = i;
            int ranks = all.stream().filter(n -> n.state() != NodeState.RELEASED && n.component() == component)
                    .mapToInt(n -> cores(description, n, slots)).sum();
            if (ranks > 0) {
                apps.add(new NodeTask.MpiApp(ranks, components.get(i).executable(), components.get(i).arguments()));
            }
        }
        return apps;
    }

    /**
     * What a node of an MPI job other than the first runs: one of Open MPI's daemons, as its first
     * node's launch agent asked, through a shell as {@code ssh} would, with its component's environment.
     */
    static NodeTask daemon(JobRecord job, JobDescription description, NodeClaim node, List<NodeClaim> all,
                           List<String> command) {
        ComponentSpec c = description.components().get(node.component());
        return new NodeTask("RUN", "/bin/sh", List.of("-c", String.join(" ", command)),
                environment(job, c, node, all), null, c.stdout(), c.stderr(), null);
    }

    /** The node that runs {@code mpirun}: the first of the first component. */
    static NodeClaim head(List<NodeClaim> all) {
        return all.stream().filter(n -> n.state() != NodeState.RELEASED)
                .min(java.util.Comparator.comparingInt(NodeClaim::component).thenComparingInt(NodeClaim::rank))
                .orElseThrow();
    }

    /**
     * The job's hosts in rank order: components in order, ranks within each, each node's host as many times
     * as the node has cores (the host file's {@code slots=}, so the ranks there).
     */
    static List<String> mpiHosts(JobDescription description, List<NodeClaim> all,
                                 java.util.function.ToIntFunction<String> slots) {
        return all.stream().filter(n -> n.state() != NodeState.RELEASED)
                .sorted(java.util.Comparator.comparingInt(NodeClaim::component).thenComparingInt(NodeClaim::rank))
                .flatMap(n -> java.util.Collections.nCopies(cores(description, n, slots), n.host()).stream()).toList();
    }

    /**
     * The cores of a node, so the ranks an MPI job runs on it: its component's {@code cores} when the
     * component asks for resources, else its site's node slots (a whole host where the admin made a
     * node one, one slot by default).
     */
    static int cores(JobDescription description, NodeClaim node, java.util.function.ToIntFunction<String> slots) {
        koala.placement.Resources perNode = NodeNeeds.perNode(description, node);
        return perNode.equals(koala.placement.Resources.NODE) ? slots.applyAsInt(node.site()) : perNode.cores();
    }

    private static Map<String, String> environment(JobRecord job, ComponentSpec c, NodeClaim node, List<NodeClaim> all) {
        Map<String, String> env = new HashMap<>(c.environment());
        env.put("KOALA_JOB_ID", Long.toString(job.id()));
        env.put("KOALA_JOB_NAME", job.name());
        env.put("KOALA_COMPONENT", Integer.toString(node.component()));
        env.put("KOALA_RANK", Integer.toString(node.rank()));
        env.put("KOALA_SITE", node.site());
        env.put("KOALA_NODE_ID", node.id());
        if (c.resources().memoryGiven()) {
            env.put("KOALA_NODE_MEMORY_MIB", Long.toString(c.resources().memoryMiB()));
        }
        env.put("KOALA_NODE_GPUS", Integer.toString(c.resources().gpus()));
        if (node.gpus() != null) {
            env.put("CUDA_VISIBLE_DEVICES", node.gpus().stream().map(String::valueOf).collect(Collectors.joining(",")));
        }
        env.put("KOALA_NODES", all.stream().filter(n -> n.state() != NodeState.RELEASED)
                .map(n -> n.component() + ":" + n.rank() + ":" + n.site() + ":" + n.host())
                .collect(Collectors.joining(" ")));
        return env;
    }
}
