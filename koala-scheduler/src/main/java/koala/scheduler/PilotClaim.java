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
 * <li>memory: {@code -l h_vmem=M}, per slot as SGE books it, so the node's memory over its cores;
 *     SGE sets it as the processes' address-space limit;</li>
 * <li>GPUs: {@code -l gpu=N}, the consumable GPU hosts declare (booked per job);</li>
 * <li>wall time: {@code -l h_rt=S}, {@link #WALL_TIME_GRACE} after the component's {@code maxWallTime},
 *     so that the launcher stops the program first and says why, and SGE's limit is the backstop.</li>
 * </ul>
 *
 * @param perNode     what the node asks of its host ({@link Resources#NODE} when nothing beyond a core)
 * @param maxWallTime its component's {@code maxWallTime}, or null
 */
record PilotClaim(Resources perNode, Duration maxWallTime) {
    /** A node that asks nothing of SGE beyond its site's request. */
    static final PilotClaim NODE = new PilotClaim(Resources.NODE, null);
    /** The cell's parallel environment of slots on one host. */
    static final String SMP = "smp";
    static final Duration WALL_TIME_GRACE = Duration.ofSeconds(60);

    /** What {@code node} of a job described by {@code description} asks of SGE. */
    static PilotClaim of(JobDescription description, NodeClaim node) {
        List<ComponentSpec> components = description == null ? List.of() : description.components();
        if (node.component() >= components.size()) {
            return NODE;
        }
        ComponentSpec c = components.get(node.component());
        return new PilotClaim(NodeNeeds.perNode(c), c.maxWallTime());
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
        if (perNode.memoryMiB() > 0) {
            long perSlot = (perNode.memoryMiB() + perNode.cores() - 1) / perNode.cores();
            resources.add("h_vmem=" + perSlot + "M");
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
