package koala.provisioning;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A snapshot of a framework instance's orchestrator nodes, taken by the runner for one decision.
 *
 * @param growOverhead the current O_grow estimate, for t_idle = n · O_grow
 */
public record OrchestratorLayer(List<OrchestratorNode> nodes, Duration growOverhead) {
    public OrchestratorLayer {
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(growOverhead, "growOverhead");
        Set<String> ids = new HashSet<>();
        nodes.forEach(n -> {
            if (!ids.add(n.id())) {
                throw new IllegalArgumentException("orchestrator node " + n.id() + " listed twice");
            }
        });
    }

    /** These nodes, O_grow the paper's 30 s. */
    public static OrchestratorLayer of(OrchestratorNode... nodes) {
        return new OrchestratorLayer(List.of(nodes), GrowOverhead.PAPER_ESTIMATE);
    }

    public OrchestratorLayer withGrowOverhead(Duration estimate) {
        return new OrchestratorLayer(nodes, estimate);
    }

    /** Orchestrators hosted on all nodes together. */
    public int orchestrators() {
        return nodes.stream().mapToInt(OrchestratorNode::orchestrators).sum();
    }
}
