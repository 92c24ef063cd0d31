package koala.api.scheduler;

import java.util.List;

/**
 * What a grow got: the nodes granted (being claimed now), and why not all when fewer.
 *
 * @param reason null when all were granted
 */
public record GrowResult(long allocation, int requested, int granted, List<String> nodes, String reason) {
    public GrowResult {
        nodes = List.copyOf(nodes);
    }
}
