package koala.placement;

import java.util.List;
import java.util.Objects;

/**
 * One component of a job to place.
 *
 * @param index      the component's position in the job (0-based)
 * @param nodes      how many nodes it needs; for a flexible job, the job's total
 * @param fixedSite  the site the user pinned it to, or null when KOALA chooses
 * @param inputFiles logical names of its input files (for Close-to-Files)
 * @param perNode    what each node asks for; {@link Resources#NODE} (one core) is today's node. It
 *                   counts only on sites whose hosts placement knows ({@link SiteView#hosts})
 */
public record ComponentNeed(int index, int nodes, String fixedSite, List<String> inputFiles, Resources perNode) {
    public ComponentNeed {
        inputFiles = inputFiles == null ? List.of() : List.copyOf(inputFiles);
        Objects.requireNonNull(perNode, "perNode");
        if (perNode.cores() < 1) {
            // a node is at least one process somewhere: one that asks for no core would fit every host endlessly
            throw new IllegalArgumentException("component " + index + ": a node asks for at least 1 core, not " + perNode.cores());
        }
    }

    /** A component of today's nodes: one core each. */
    public ComponentNeed(int index, int nodes, String fixedSite, List<String> inputFiles) {
        this(index, nodes, fixedSite, inputFiles, Resources.NODE);
    }
}
