package koala.placement;

import java.util.List;

/**
 * One component of a job to place.
 *
 * @param index      the component's position in the job (0-based)
 * @param nodes      how many nodes it needs; for a flexible job, the job's total
 * @param fixedSite  the site the user pinned it to, or null when KOALA chooses
 * @param inputFiles logical names of its input files (for Close-to-Files)
 */
public record ComponentNeed(int index, int nodes, String fixedSite, List<String> inputFiles) {
    public ComponentNeed {
        inputFiles = inputFiles == null ? List.of() : List.copyOf(inputFiles);
    }
}
