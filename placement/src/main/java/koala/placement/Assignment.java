package koala.placement;

import java.util.List;

/**
 * Nodes of one component given to one site. A flexible job's single component may get several
 * assignments, one per site it is split over.
 *
 * @param hosts the host of each node, when placement chose them (constraints over hosts or racks);
 *              empty when SGE chooses
 */
public record Assignment(int component, String site, int nodes, List<String> hosts) {
    public Assignment {
        hosts = hosts == null ? List.of() : List.copyOf(hosts);
        if (!hosts.isEmpty() && hosts.size() != nodes) {
            throw new IllegalArgumentException(nodes + " nodes on " + site + " but " + hosts.size() + " hosts: " + hosts);
        }
    }

    /** Nodes whose hosts SGE chooses. */
    public Assignment(int component, String site, int nodes) {
        this(component, site, nodes, List.of());
    }

    /** The host of the node at {@code k} of these, or null when SGE chooses. */
    public String host(int k) {
        return hosts.isEmpty() ? null : hosts.get(k);
    }
}
