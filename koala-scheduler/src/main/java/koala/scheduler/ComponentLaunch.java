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
        List<String> mpiHosts = description.mpi() ? mpiHosts(all, slots) : null;
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
                    .mapToInt(n -> slots.applyAsInt(n.site())).sum();
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
     * as its site's nodes have slots (the host file's {@code slots=}, so the ranks there).
     */
    static List<String> mpiHosts(List<NodeClaim> all, java.util.function.ToIntFunction<String> slots) {
        return all.stream().filter(n -> n.state() != NodeState.RELEASED)
                .sorted(java.util.Comparator.comparingInt(NodeClaim::component).thenComparingInt(NodeClaim::rank))
                .flatMap(n -> java.util.Collections.nCopies(slots.applyAsInt(n.site()), n.host()).stream()).toList();
    }

    private static Map<String, String> environment(JobRecord job, ComponentSpec c, NodeClaim node, List<NodeClaim> all) {
        Map<String, String> env = new HashMap<>(c.environment());
        env.put("KOALA_JOB_ID", Long.toString(job.id()));
        env.put("KOALA_JOB_NAME", job.name());
        env.put("KOALA_COMPONENT", Integer.toString(node.component()));
        env.put("KOALA_RANK", Integer.toString(node.rank()));
        env.put("KOALA_SITE", node.site());
        env.put("KOALA_NODE_ID", node.id());
        env.put("KOALA_NODES", all.stream().filter(n -> n.state() != NodeState.RELEASED)
                .map(n -> n.component() + ":" + n.rank() + ":" + n.site() + ":" + n.host())
                .collect(Collectors.joining(" ")));
        return env;
    }
}
