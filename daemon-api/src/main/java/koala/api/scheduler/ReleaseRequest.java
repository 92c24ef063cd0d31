package koala.api.scheduler;

import java.util.List;

/**
 * Nodes an allocation gives back, by id.
 *
 * @param reason why, kept in the allocation's history; may be null
 */
public record ReleaseRequest(List<String> nodes, String reason) {
    public ReleaseRequest {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    public ReleaseRequest(List<String> nodes) {
        this(nodes, null);
    }
}
