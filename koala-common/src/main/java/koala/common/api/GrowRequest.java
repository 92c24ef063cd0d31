package koala.common.api;

import java.util.List;
import java.util.Map;

/**
 * More nodes for an allocation, each to run {@code executable} once its pilot starts.
 *
 * @param nodes how many nodes are wanted; fewer may be granted when the grid has fewer idle
 * @param role  what they are for (master, orchestrator, worker), kept with the nodes
 * @param site  the one site to take them from, or null for any
 */
public record GrowRequest(int nodes, String role, String executable, List<String> arguments,
                          Map<String, String> environment, String site) {
    public GrowRequest {
        arguments = arguments == null ? List.of() : List.copyOf(arguments);
        environment = environment == null ? Map.of() : Map.copyOf(environment);
    }
}
