package koala.arbitration;

import java.util.Objects;

/**
 * Why the arbiter decided what it did: a kind a program can act on and a text a user reads in
 * {@code koala status}, e.g. {@code AT_SHARE} "2 of 5 refused: fair share 7 of 20 nodes reached
 * (uses 6, asks 5, weight 1)".
 */
public record ShareReason(Kind kind, String text) {

    public enum Kind {
        /** Granted from free nodes. */
        FREE_NODES,
        /** Granted from nodes taken back for it earlier. */
        TAKEN_BACK,
        /** More will come: nodes are being taken back for it. */
        PROMISED,
        /** Refused: no free nodes, and the policy takes nothing back (fcfs). */
        GRID_FULL,
        /** Refused: the instance holds its part of the grid (static-partition). */
        PARTITION_FULL,
        /** Refused: the instance has its weighted fair share (fair). */
        AT_SHARE,
        /** Refused: no instance does better by the policy's margin (performance). */
        NO_BETTER_OFF,
        /** Refused: the instances that could give are at their minimum share or hold nodes moved to them recently. */
        DONORS_AT_FLOOR,
        /** Refused: this round has taken back all it may (a fraction of the capacity). */
        ROUND_BUDGET,
        /** Refused: the instance is to give nodes back (its grace period runs); it gets none meanwhile. */
        GIVING_BACK,
        /** Refused: the instance has not been short of its share for the patience yet. */
        PATIENCE,
        /** Refused: the instance gave nodes back within the stabilization window; it takes none back in it. */
        GAVE_RECENTLY,
        /** Refused: nodes promised earlier did not come free in time (taken by local users, say). */
        TAKE_BACK_SHORT,
        /** Idle workers of an instance above its share, ended now. */
        IDLE_ABOVE_SHARE,
        /** The instance is asked to give back workers of its choice within a grace period. */
        ASKED_TO_SHRINK,
        /** The grace period is over and the instance still holds too much: KOALA ends workers itself. */
        GRACE_OVER
    }

    public ShareReason {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
    }

    @Override
    public String toString() {
        return text;
    }
}
