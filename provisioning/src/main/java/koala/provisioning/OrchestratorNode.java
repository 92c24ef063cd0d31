package koala.provisioning;

import java.time.Instant;
import java.util.Objects;

/**
 * One orchestrator node of a framework instance and the orchestrators it hosts. A node being
 * started is listed too, with the orchestrators already sent to it, so that requests arriving
 * meanwhile count it instead of asking for yet another node.
 *
 * @param emptySince when it last stopped hosting any orchestrator; null while it hosts some
 */
public record OrchestratorNode(String id, int orchestrators, Instant emptySince) {
    public OrchestratorNode {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("an orchestrator node needs an id");
        }
        if (orchestrators < 0) {
            throw new IllegalArgumentException(id + ": " + orchestrators + " orchestrators");
        }
        if ((orchestrators == 0) != (emptySince != null)) {
            throw new IllegalArgumentException(id + ": an empty node has an empty-since time, a hosting one none");
        }
    }

    public static OrchestratorNode hosting(String id, int orchestrators) {
        if (orchestrators < 1) {
            throw new IllegalArgumentException(id + ": a hosting node hosts at least 1 orchestrator");
        }
        return new OrchestratorNode(id, orchestrators, null);
    }

    public static OrchestratorNode empty(String id, Instant since) {
        return new OrchestratorNode(id, 0, Objects.requireNonNull(since, "since"));
    }
}
