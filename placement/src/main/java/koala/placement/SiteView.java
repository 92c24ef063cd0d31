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
        idleHosts = idleHosts == null ? Map.of() : idleHosts instanceof FreeCores own ? own
                : java.util.Collections.unmodifiableMap(new TreeMap<>(idleHosts));
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
        this(site, HostList.of(site, hosts));
    }

    private SiteView(String site, HostList hosts) {
        this(site, hosts.totalSum.cores(), hosts.freeSum.cores(), new FreeCores(hosts), hosts);
    }

    /**
     * The free cores of each host, by name: read from the hosts' own arrays (sorted by name, never changed)
     * rather than copied into a map, as a view is made for every change a simulated run makes to a site.
     */
    private static final class FreeCores extends java.util.AbstractMap<String, Integer> {
        private final HostList hosts;

        FreeCores(HostList hosts) {
            this.hosts = hosts;
        }

        @Override
        public Integer get(Object host) {
            int at = host instanceof String name ? hosts.indexOf(name) : -1;
            return at < 0 ? null : hosts.freeCores[at];
        }

        @Override
        public boolean containsKey(Object host) {
            return host instanceof String name && hosts.indexOf(name) >= 0;
        }

        @Override
        public int size() {
            return hosts.size();
        }

        @Override
        public java.util.Set<Entry<String, Integer>> entrySet() {
            return new java.util.AbstractSet<>() {
                @Override
                public java.util.Iterator<Entry<String, Integer>> iterator() {
                    return new java.util.Iterator<>() {
                        private int next;

                        @Override
                        public boolean hasNext() {
                            return next < hosts.size();
                        }

                        @Override
                        public Entry<String, Integer> next() {
                            if (!hasNext()) {
                                throw new java.util.NoSuchElementException();
                            }
                            int h = next++;
                            return Map.entry(hosts.name(h), hosts.freeCores[h]);
                        }
                    };
                }

                @Override
                public int size() {
                    return hosts.size();
                }
            };
        }
    }
}
