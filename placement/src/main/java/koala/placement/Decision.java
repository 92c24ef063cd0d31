package koala.placement;

import java.util.List;

/** The outcome of placing one job: where its components go, or why they cannot go anywhere now. */
public sealed interface Decision permits Decision.Placed, Decision.NotPlaced {

    /** Every component assigned; assignments in component order. */
    record Placed(List<Assignment> assignments) implements Decision {
        public Placed {
            assignments = List.copyOf(assignments);
        }
    }

    /** Not placeable now; the job waits in the placement queue and is tried again. */
    record NotPlaced(List<Reason> reasons) implements Decision {
        public NotPlaced {
            reasons = List.copyOf(reasons);
        }
    }
}
