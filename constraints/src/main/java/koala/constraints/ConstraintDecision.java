package koala.constraints;

import java.util.List;

/** The outcome of placing one request: a node for each of its containers, or why it waits. */
public sealed interface ConstraintDecision permits ConstraintDecision.Placed, ConstraintDecision.Waiting {

    String request();

    /**
     * Every container placed, in the request's order, every hard constraint kept; the soft ones
     * broken because nothing else fitted are listed (at most one per container and constraint).
     */
    record Placed(String request, List<Placement> placements, List<Violation> violations) implements ConstraintDecision {
        public Placed {
            placements = List.copyOf(placements);
            violations = List.copyOf(violations);
        }

        public int softViolations() {
            return violations.size();
        }
    }

    /**
     * Not placed now, nothing taken: the reasons for each container that could not be placed, in the
     * request's order. The request waits and is tried again as the cluster changes.
     */
    record Waiting(String request, List<ConstraintReason> reasons) implements ConstraintDecision {
        public Waiting {
            reasons = List.copyOf(reasons);
        }
    }
}
