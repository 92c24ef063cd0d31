package koala.scheduler;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import koala.common.api.NodeTask;
import koala.common.jdf.ComponentSpec;
import koala.common.jdf.JobDescription;
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

    static NodeTask task(JobRecord job, JobDescription description, NodeClaim node, List<NodeClaim> all) {
        ComponentSpec c = description.components().get(node.component());
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
        return new NodeTask("RUN", c.executable(), c.arguments(), env, c.directory(), c.stdout(), c.stderr(),
                c.maxWallTime() == null ? null : c.maxWallTime().toSeconds());
    }
}
