package koala.placement;

import java.util.Objects;

/**
 * Why a job, or one of its components, could not be placed: a kind a program acts on and words a
 * user reads in {@code koala status}, e.g. {@code NOT_ENOUGH_IDLE} "component 0 needs 12 nodes on one
 * cluster, most idle is 8 on fs1".
 *
 * @param component the component's index, or -1 when the reason is about the whole job
 */
public record PlacementReason(int component, Kind kind, String text) {

    /** What stood in the way. Only {@link #NOT_ENOUGH_IDLE} may pass by itself as the grid's nodes come free. */
    public enum Kind {
        /** The job has no components. */
        NO_COMPONENTS,
        /** A flexible job has other than one component. */
        FLEXIBLE_SHAPE,
        /** A component asks for fewer than 1 node. */
        BAD_SIZE,
        /** A fixed component names a cluster the grid does not have. */
        UNKNOWN_SITE,
        /** The grid has no clusters at all. */
        NO_CLUSTERS,
        /** The component needs more nodes than its cluster, any cluster, or the grid has in all. */
        NEVER_FITS,
        /** The nodes exist but too few are idle now. */
        NOT_ENOUGH_IDLE,
        /** A hard placement constraint rules out every site with room ({@link SiteConstraints}); may pass as work ends. */
        HARD_CONSTRAINT
    }

    public PlacementReason {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
    }

    public static PlacementReason job(Kind kind, String text) {
        return new PlacementReason(-1, kind, text);
    }

    @Override
    public String toString() {
        return text;
    }
}
