package koala.placement;

import java.util.List;

/** The outcome of placing one job: where its components go, or why they cannot go anywhere now. */
public sealed interface PlacementDecision permits PlacementDecision.Placed, PlacementDecision.NotPlaced {

    /**
     * Every component assigned; assignments in component order. {@code softViolations}: the soft placement
     * constraints it breaks because no site kept them, in words ({@link SiteConstraints}); empty for most.
     */
    record Placed(List<Assignment> assignments, List<String> softViolations) implements PlacementDecision {
        public Placed {
            assignments = List.copyOf(assignments);
            softViolations = List.copyOf(softViolations);
        }

        public Placed(List<Assignment> assignments) {
            this(assignments, List.of());
        }
    }

    /** Not placeable now; the job waits in the placement queue and is tried again. */
    record NotPlaced(List<PlacementReason> reasons) implements PlacementDecision {
        public NotPlaced {
            reasons = List.copyOf(reasons);
        }
    }
}
