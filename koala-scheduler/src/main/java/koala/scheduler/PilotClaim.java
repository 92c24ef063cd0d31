package koala.scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import koala.jdf.ComponentSpec;
import koala.jdf.JobDescription;
import koala.placement.Resources;
import koala.scheduler.claiming.NodeClaim;

/**
 * What a node's pilot asks of SGE beyond its site's own request ({@code node.nativeSpec}): the cores,
 * memory and GPUs its component asks per node, and its wall time, so that SGE books them on the host
 * (its consumables) and stops a pilot that outgrows them.
 *
 * <ul>
 * <li>cores: {@code -pe smp N}, the cell's parallel environment whose slots all come from one host
 *     ({@code $pe_slots});</li>
 * <li>memory: {@code -l h_vmem=H}, per slot as SGE books it: the node's memory and the launcher's
 *     {@link #LAUNCHER_MIB} over its cores, at least {@link #LEAST_MIB} in all. SGE limits each process
 *     of the pilot to {@code H} times its slots and stops the pilot when its processes together use
 *     more. A node that asks for no memory on a site that books it ({@code h_vmem} consumable, where a
 *     pilot that claims none is given none) claims its site's default, {@code memoryPerCore} per core;</li>
 * <li>GPUs: {@code -l gpu=N}, the consumable GPU hosts declare (booked per job);</li>
 * <li>wall time: {@code -l h_rt=S}, {@link #WALL_TIME_GRACE} after the component's {@code maxWallTime},
 *     so that the launcher stops the program first and says why, and SGE's limit is the backstop.</li>
 * </ul>
 *
 * @param perNode       what the node asks of its host ({@link Resources#NODE} when nothing beyond a core)
 * @param maxWallTime   its component's {@code maxWallTime}, or null
 * @param memoryPerCore what a node that asks no memory claims per core on its site, in MiB: 0 where the
 *                      site does not book memory (then it claims none)
 */
record PilotClaim(Resources perNode, Duration maxWallTime, long memoryPerCore) {
    /** A node that asks nothing of SGE beyond its site's request. */
    static final PilotClaim NODE = new PilotClaim(Resources.NODE, null, 0);
    /**
     * What the node launcher's JVM uses at most beside the program (its heap of 64 MB and the rest, 38-42
     * MB measured live): SGE counts the pilot's processes together against the claim.
     */
    static final long LAUNCHER_MIB = 128;
    /** The least a pilot claims: the launcher's JVM needs about 407 MiB of address space to start. */
    static final long LEAST_MIB = 512;

    PilotClaim(Resources perNode, Duration maxWallTime) {
        this(perNode, maxWallTime, 0);
    }
    /** The cell's parallel environment of slots on one host. */
    static final String SMP = "smp";
    static final Duration WALL_TIME_GRACE = Duration.ofSeconds(60);

    /** What {@code node} of a job described by {@code description} asks of SGE. */
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
        long asked = perNode.memoryMiB() > 0 ? perNode.memoryMiB() : memoryPerCore * perNode.cores();
        return asked == 0 ? 0 : Math.max(asked + LAUNCHER_MIB, LEAST_MIB);
    }

    /** {@code siteSpec} followed by this claim's requests; null when both are empty. */
    String nativeSpec(String siteSpec) {
        List<String> words = new ArrayList<>();
        if (siteSpec != null && !siteSpec.isBlank()) {
            words.add(siteSpec.strip());
        }
        if (perNode.cores() > 1) {
            words.add("-pe " + SMP + " " + perNode.cores());
        }
        List<String> resources = new ArrayList<>();
        long memory = memoryMiB();
        if (memory > 0) {
            resources.add("h_vmem=" + (memory + perNode.cores() - 1) / perNode.cores() + "M");
        }
        if (perNode.gpus() > 0) {
            resources.add("gpu=" + perNode.gpus());
        }
        if (maxWallTime != null) {
            resources.add("h_rt=" + maxWallTime.plus(WALL_TIME_GRACE).toSeconds());
        }
        if (!resources.isEmpty()) {
            words.add("-l " + String.join(",", resources));
        }
        return words.isEmpty() ? null : String.join(" ", words);
    }
}
