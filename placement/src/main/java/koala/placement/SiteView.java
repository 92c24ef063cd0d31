package koala.placement;

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
 */
public record SiteView(String site, int totalNodes, int idleNodes, Map<String, Integer> idleHosts) {
    public SiteView {
        idleHosts = idleHosts == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(idleHosts));
    }

    /** A site whose hosts placement does not know. */
    public SiteView(String site, int totalNodes, int idleNodes) {
        this(site, totalNodes, idleNodes, Map.of());
    }
}
