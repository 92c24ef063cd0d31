package koala.jdf;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The clusters a JDF may name, how many nodes each has in all, the network each one's nodes are on
 * and, when known, their hosts: what the semantic checks need (a fixed component naming an unknown
 * cluster, a component larger than any cluster can hold, a node larger than any host, an MPI job
 * pinned to clusters whose nodes cannot reach each other).
 *
 * @param networks the network of each cluster's nodes ({@code grid} for the grid's own, a remote
 *                 site's name for its private one); a cluster not in it is not checked for its network
 * @param hosts    the hosts of the clusters, with their cores, memory and GPUs; a component that asks for
 *                 more per node ({@code cores}, {@code memory}, {@code gpus}) than any host it may go to
 *                 has is refused. The hosts listed for a cluster are all of its hosts. Empty when not
 *                 known; a component that may go to a cluster without hosts here is not checked (that
 *                 cluster's hosts might hold it)
 */
public record ClusterCatalog(Map<String, Integer> nodes, Set<String> groupKinds, Map<String, String> networks,
                             List<HostCapacity> hosts) {
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
        hosts = hosts == null ? List.of() : List.copyOf(hosts);
    }

    /** The clusters, group kinds and networks, their hosts not known. */
    public ClusterCatalog(Map<String, Integer> nodes, Set<String> groupKinds, Map<String, String> networks) {
        this(nodes, groupKinds, networks, List.of());
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
        return new ClusterCatalog(nodes, groupKinds, networks, hosts);
    }

    /** The same clusters, with these hosts. */
    public ClusterCatalog withHosts(List<HostCapacity> hosts) {
        return new ClusterCatalog(nodes, groupKinds, networks, hosts);
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

    /** The hosts of {@code cluster}, in the catalog's order; empty when not known. */
    public List<HostCapacity> hostsOf(String cluster) {
        return hosts.stream().filter(h -> h.site().equals(cluster)).toList();
    }

    public int largest() {
        return nodes.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    public int total() {
        return nodes.values().stream().mapToInt(Integer::intValue).sum();
    }
}
