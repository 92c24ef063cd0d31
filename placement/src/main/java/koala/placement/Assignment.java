package koala.placement;

/**
 * Nodes of one component given to one site. A flexible job's single component may get several
 * assignments, one per site it is split over.
 */
public record Assignment(int component, String site, int nodes) {
}
