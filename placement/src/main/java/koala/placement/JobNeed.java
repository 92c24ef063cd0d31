package koala.placement;

import java.util.List;

/**
 * A job to place: its components and whether it is flexible (one component whose nodes KOALA may
 * split over several sites).
 */
public record JobNeed(String jobId, List<ComponentNeed> components, boolean flexible) {
    public JobNeed {
        components = List.copyOf(components);
    }
}
