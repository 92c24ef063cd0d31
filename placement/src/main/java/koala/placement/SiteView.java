package koala.placement;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One site as placement sees it at one moment.
 *
 * @param totalNodes nodes the site has in all (what it could ever hold)
 * @param idleNodes  nodes neither KOALA nor the site's local users occupy, less those KOALA is
 *                   claiming right now
 * @param idleHosts  where those idle nodes are: idle nodes per host, by host name; empty when the
 *                   hosts are not known (the simulator, a view of nodes coming free), and then only
 *                   SGE chooses hosts
 * @param hosts      the site's hosts with their resources, by host name; empty when placement does
 *                   not know them, and then the site is counted in nodes as before, whatever a
 *                   component's {@link ComponentNeed#perNode} asks
 */
public record SiteView(String site, int totalNodes, int idleNodes, Map<String, Integer> idleHosts, List<HostView> hosts) {
    public SiteView {
        idleHosts = idleHosts == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(idleHosts));
        hosts = hosts == null || hosts.isEmpty() ? List.of() : HostList.of(site, hosts);
    }

    /** A site whose idle nodes per host placement knows, but not their resources. */
    public SiteView(String site, int totalNodes, int idleNodes, Map<String, Integer> idleHosts) {
        this(site, totalNodes, idleNodes, idleHosts, List.of());
    }

    /** A site whose hosts placement does not know. */
    public SiteView(String site, int totalNodes, int idleNodes) {
        this(site, totalNodes, idleNodes, Map.of());
    }

    /**
     * A site whose hosts and their resources placement knows. Its nodes are counted as today's nodes
     * (one core, one SGE slot): in all, every host's cores; idle, every host's free cores.
     */
    public SiteView(String site, List<HostView> hosts) {
        this(site, hosts.stream().mapToInt(h -> h.total().cores()).sum(), hosts.stream().mapToInt(h -> h.free().cores()).sum(),
                freeCores(hosts), hosts);
    }

    private static Map<String, Integer> freeCores(List<HostView> hosts) {
        Map<String, Integer> free = new TreeMap<>();
        hosts.forEach(h -> free.put(h.host(), h.free().cores()));
        return free;
    }
}
