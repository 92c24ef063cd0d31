package koala.estimate;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** One site now: its hosts, each named once. */
public record SiteState(String name, List<HostState> hosts) {
    public SiteState {
        hosts = List.copyOf(hosts);
        Set<String> names = new HashSet<>();
        if (name == null || hosts.isEmpty() || !hosts.stream().allMatch(h -> names.add(h.name()))) {
            throw new IllegalArgumentException("a site has a name and at least one host, each named once: " + name);
        }
    }

    /** Cores the site has in all. */
    public int cores() {
        return hosts.stream().mapToInt(h -> h.total().cores()).sum();
    }
}
