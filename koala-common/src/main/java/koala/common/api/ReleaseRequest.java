package koala.common.api;

import java.util.List;

/** Nodes an allocation gives back, by id. */
public record ReleaseRequest(List<String> nodes) {
    public ReleaseRequest {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }
}
