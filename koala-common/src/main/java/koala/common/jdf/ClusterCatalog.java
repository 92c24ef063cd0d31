package koala.common.jdf;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The clusters a JDF may name, and how many nodes each has in all: what the semantic checks need
 * (a fixed component naming an unknown cluster, a component larger than any cluster can hold).
 */
public record ClusterCatalog(Map<String, Integer> nodes, Set<String> groupKinds) {
    /** No grid known: only syntax and values are checked. */
    public static final ClusterCatalog NONE = new ClusterCatalog(Map.of());

    /**
     * @param groupKinds the kinds of node group the grid declares beside host, site and network
     *                   ({@code site.S.groups.K.G}), which a constraint may name; null when not known
     *                   (then a constraint may name any kind but a near-miss of host, site or network)
     */
    public ClusterCatalog {
        nodes = Map.copyOf(nodes);
        groupKinds = groupKinds == null ? null : Set.copyOf(groupKinds);
    }

    /** The clusters alone: a constraint's group kind is not checked against the grid's. */
    public ClusterCatalog(Map<String, Integer> nodes) {
        this(nodes, null);
    }

    public boolean known() {
        return !nodes.isEmpty();
    }

    public Set<String> names() {
        return nodes.keySet();
    }

    public Optional<Integer> nodesOf(String cluster) {
        return Optional.ofNullable(nodes.get(cluster));
    }

    public int largest() {
        return nodes.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    public int total() {
        return nodes.values().stream().mapToInt(Integer::intValue).sum();
    }
}
