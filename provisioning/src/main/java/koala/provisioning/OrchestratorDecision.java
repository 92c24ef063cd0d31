package koala.provisioning;

import java.util.List;
import java.util.Objects;

/** What {@link OrchestratorPolicy} decided, with a reason a user reads in {@code koala status}. */
public sealed interface OrchestratorDecision permits OrchestratorDecision.UseNode, OrchestratorDecision.NewNode,
        OrchestratorDecision.Release, OrchestratorDecision.Keep {

    String reason();

    /** Start the new orchestrator on this existing node. */
    record UseNode(String node, String reason) implements OrchestratorDecision {
        public UseNode {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Ask the scheduler for a new orchestrator node and start the new orchestrator there. */
    record NewNode(String reason) implements OrchestratorDecision {
        public NewNode {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Give these empty orchestrator nodes back, in this order. */
    record Release(List<String> nodes, String reason) implements OrchestratorDecision {
        public Release {
            nodes = List.copyOf(nodes);
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("a release names at least 1 node");
            }
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Change nothing. */
    record Keep(String reason) implements OrchestratorDecision {
        public Keep {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
