package koala.api.scheduler;

import java.util.List;
import java.util.Map;

/**
 * More nodes for an allocation, each to run {@code executable} once its pilot starts.
 *
 * @param nodes  how many nodes are wanted; fewer may be granted when the grid has fewer idle
 * @param role   what they are for (master, orchestrator, worker), kept with the nodes
 * @param site   the one site to take them from, or null for any
 * @param reason why the owner grows, kept in the allocation's history; may be null
 * @param requestId the caller's name for this grow, so that a retry after a lost answer (or a runner
 *                  restarted while its grow was in flight) gets the nodes the first try was granted
 *                  instead of as many again; null for none
 * @param stdout where each node's command appends its standard output, on its node (the JDF's
 *               {@code stdout}, absolute, {@code ${VAR}} expanded there); null: into the pilot's
 * @param stderr the same for standard error; null: where the pilot's goes
 * @param cores     cores each node needs on its host (the role's JDF {@code cores}), 1 or more; null: not
 *                  asked, the node is one core
 * @param memoryMiB memory each node needs on its host in MiB (the role's JDF {@code memory}), 1 or more;
 *                  null: not asked (the site's default, if any)
 * @param gpus      GPUs each node needs on its host (the role's JDF {@code gpus}), 0 or more; null: not
 *                  asked, none
 */
public record GrowRequest(int nodes, String role, String executable, List<String> arguments,
                          Map<String, String> environment, String site, String reason, String requestId,
                          String stdout, String stderr, Integer cores, Long memoryMiB, Integer gpus) {
    public GrowRequest {
        arguments = arguments == null ? List.of() : List.copyOf(arguments);
        environment = environment == null ? Map.of() : Map.copyOf(environment);
        if (cores != null && cores < 1) {
            throw new IllegalArgumentException("cores per node must be 1 or more, not " + cores);
        }
        if (memoryMiB != null && memoryMiB < 1) {
            throw new IllegalArgumentException("memoryMiB per node must be 1 or more, not " + memoryMiB);
        }
        if (gpus != null && gpus < 0) {
            throw new IllegalArgumentException("gpus per node must be 0 or more, not " + gpus);
        }
    }

    /** A grow whose nodes ask for no resources beyond one core each. */
    public GrowRequest(int nodes, String role, String executable, List<String> arguments,
                       Map<String, String> environment, String site, String reason, String requestId,
                       String stdout, String stderr) {
        this(nodes, role, executable, arguments, environment, site, reason, requestId, stdout, stderr,
                null, null, null);
    }

    public GrowRequest(int nodes, String role, String executable, List<String> arguments,
                       Map<String, String> environment, String site, String reason, String requestId) {
        this(nodes, role, executable, arguments, environment, site, reason, requestId, null, null);
    }

    public GrowRequest(int nodes, String role, String executable, List<String> arguments,
                       Map<String, String> environment, String site) {
        this(nodes, role, executable, arguments, environment, site, null, null);
    }

    public GrowRequest(int nodes, String role, String executable, List<String> arguments,
                       Map<String, String> environment, String site, String reason) {
        this(nodes, role, executable, arguments, environment, site, reason, null);
    }

    /** The same request, named {@code id} if it has no name yet. */
    public GrowRequest named(String id) {
        return requestId != null ? this : withRequestId(id);
    }

    /** The same grow for {@code count} nodes. */
    public GrowRequest withNodes(int count) {
        return new GrowRequest(count, role, executable, arguments, environment, site, reason, requestId, stdout, stderr,
                cores, memoryMiB, gpus);
    }

    /** The same grow, named {@code id}. */
    public GrowRequest withRequestId(String id) {
        return new GrowRequest(nodes, role, executable, arguments, environment, site, reason, id, stdout, stderr,
                cores, memoryMiB, gpus);
    }

    /** The same grow, its nodes' output going to these files (null: the pilot's). */
    public GrowRequest withOutput(String out, String err) {
        return new GrowRequest(nodes, role, executable, arguments, environment, site, reason, requestId, out, err,
                cores, memoryMiB, gpus);
    }

    /** The same grow, each node asking for these (null: not asked). */
    public GrowRequest withResources(Integer coresEach, Long memoryMiBEach, Integer gpusEach) {
        return new GrowRequest(nodes, role, executable, arguments, environment, site, reason, requestId, stdout, stderr,
                coresEach, memoryMiBEach, gpusEach);
    }
}
