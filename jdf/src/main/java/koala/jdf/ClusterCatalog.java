package koala.jdf;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The clusters a JDF may name, how many nodes each has in all, and the network each one's nodes are
 * on: what the semantic checks need (a fixed component naming an unknown cluster, a component larger
 * than any cluster can hold, an MPI job pinned to clusters whose nodes cannot reach each other).
 *
 * @param networks the network of each cluster's nodes ({@code grid} for the grid's own, a remote
 *                 site's name for its private one); a cluster not in it is not checked for its network
 */
public record ClusterCatalog(Map<String, Integer> nodes, Set<String> groupKinds, Map<String, String> networks) {
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
        networks = networks == null ? Map.of() : Map.copyOf(networks);
    }

    /** The clusters and group kinds, their networks not known. */
    public ClusterCatalog(Map<String, Integer> nodes, Set<String> groupKinds) {
        this(nodes, groupKinds, Map.of());
    }

    /** The clusters alone: a constraint's group kind is not checked against the grid's. */
    public ClusterCatalog(Map<String, Integer> nodes) {
        this(nodes, null);
    }

    /** The same clusters, each on the network {@code networks} names. */
    public ClusterCatalog withNetworks(Map<String, String> networks) {
        return new ClusterCatalog(nodes, groupKinds, networks);
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

    /** The network {@code cluster}'s nodes are on; empty when not known. */
    public Optional<String> networkOf(String cluster) {
        return Optional.ofNullable(networks.get(cluster));
    }

    public int largest() {
        return nodes.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    public int total() {
        return nodes.values().stream().mapToInt(Integer::intValue).sum();
    }
}
