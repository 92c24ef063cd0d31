package koala.scheduler;

import java.time.Duration;
import java.util.List;
import koala.api.site.PilotNeeds;
import koala.jdf.ComponentSpec;
import koala.jdf.JobDescription;
import koala.placement.Resources;
import koala.scheduler.claiming.NodeClaim;

/**
 * What a node's pilot claims of its host beyond its site's own request ({@code node.nativeSpec}): the
 * cores, memory and GPUs its component asks per node, and its wall time, so that the site's resource
 * manager books them on the host and stops a pilot that outgrows them. This is KOALA's arithmetic; each
 * manager's adapter says the {@link PilotNeeds} it comes to in its own words.
 *
 * <ul>
 * <li>cores: the node's, all on one host;</li>
 * <li>memory: the node's and the launcher's {@link #LAUNCHER_MIB} beside it, at least {@link #LEAST_MIB}
 *     in all: the manager counts the pilot's processes together against the claim and stops the pilot
 *     when they use more. A node that asks for no memory on a site that books it (where a pilot that
 *     claims none is given none) claims its site's default, {@code memoryPerCore} per core, the launcher's
 *     share within it: so as many such pilots fit on a host as it has cores, as placement counts them
 *     (with the launcher's share beside, one fewer fitted, and the node placed on the last core never
 *     started);</li>
 * <li>GPUs: the node's;</li>
 * <li>wall time: {@link #WALL_TIME_GRACE} after the component's {@code maxWallTime}, so that the launcher
 *     stops the program first and says why, and the manager's limit is the backstop.</li>
 * </ul>
 *
 * @param perNode       what the node asks of its host ({@link Resources#NODE} when nothing beyond a core)
 * @param maxWallTime   its component's {@code maxWallTime}, or null
 * @param memoryPerCore what a node that asks no memory claims per core on its site, in MiB: 0 where the
 *                      site does not book memory (then it claims none)
 */
record PilotClaim(Resources perNode, Duration maxWallTime, long memoryPerCore) {
    /** A node that asks nothing beyond its site's request. */
    static final PilotClaim NODE = new PilotClaim(Resources.NODE, null, 0);
    /**
     * What the node launcher's JVM uses at most beside the program (its heap of 64 MB and the rest, 38-42
     * MB measured live): the manager counts the pilot's processes together against the claim.
     */
    static final long LAUNCHER_MIB = 128;
    /** The least a pilot claims: the launcher's JVM needs about 407 MiB of address space to start. */
    static final long LEAST_MIB = 512;

    /** How long after its {@code maxWallTime} the manager lets a pilot run: the launcher stops the program first. */
    static final Duration WALL_TIME_GRACE = Duration.ofSeconds(60);

    PilotClaim(Resources perNode, Duration maxWallTime) {
        this(perNode, maxWallTime, 0);
    }

    /** What {@code node} of a job described by {@code description} claims. */
    static PilotClaim of(JobDescription description, NodeClaim node, long memoryPerCore) {
        List<ComponentSpec> components = description == null ? List.of() : description.components();
        if (node.component() >= components.size()) {
            return new PilotClaim(Resources.NODE, null, memoryPerCore);
        }
        ComponentSpec c = components.get(node.component());
        return new PilotClaim(NodeNeeds.perNode(c.resources()), c.maxWallTime(), memoryPerCore);
    }

    /** What the pilot claims of memory in all, in MiB; 0 for none. */
    long memoryMiB() {
        if (perNode.memoryMiB() > 0) {
            return Math.max(perNode.memoryMiB() + LAUNCHER_MIB, LEAST_MIB);
        }
        long share = memoryPerCore * perNode.cores();
        return share == 0 ? 0 : Math.max(share, LEAST_MIB);
    }

    /**
     * What the pilot claims, on {@code host} (null: any) and charged to {@code account} as well (null:
     * nobody else).
     */
    PilotNeeds needs(String host, String account) {
        return new PilotNeeds(Math.max(1, perNode.cores()), memoryMiB(), perNode.gpus(),
                maxWallTime == null ? null : maxWallTime.plus(WALL_TIME_GRACE), host, account);
    }
}
