package koala.constraints;

/**
 * Why a container of a request cannot be placed now, as data: a kind a program acts on, the hard
 * constraint that stands in the way (null when none does), how many nodes with a free slot it rules
 * out, and words a user reads in {@code koala status}, e.g. "A-orchestrator {instance=A,
 * role=orchestrator}: hard anti-affinity of {instance=A, role=master} to {instance=A, role=orchestrator}
 * over site rules out 2 of 2 nodes with a free slot (node fs0-n0: site fs0 holds a container tagged
 * {instance=A, role=master})".
 *
 * @param container the ask's id, or null when the reason is about the whole request
 */
public record ConstraintReason(String container, Kind kind, Constraint constraint, int nodesRuledOut, String text) {

    /** What stood in the way. */
    public enum Kind {
        /** No node has a free slot (after the request's other containers). */
        NO_FREE_SLOT,
        /** Nodes have room, but a hard constraint rules each of them out. */
        HARD_CONSTRAINT,
        /** The request asks for nothing, or twice for one id. */
        MALFORMED
    }

    @Override
    public String toString() {
        return text;
    }
}
