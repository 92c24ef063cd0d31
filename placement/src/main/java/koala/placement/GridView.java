package koala.placement;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The grid as placement sees it: every site's nodes, and where input files are. Site names are
 * unique; the order of the sites does not matter to any policy (ties are broken by name).
 */
public record GridView(List<SiteView> sites, FileLocations files) {
    public GridView {
        sites = List.copyOf(sites);
        Set<String> names = new HashSet<>(Math.max(16, sites.size() * 2));
        for (SiteView s : sites) {
            if (s.site() == null) {
                throw new IllegalArgumentException("a site without a name in the grid view");
            }
            if (!names.add(s.site())) {
                throw new IllegalArgumentException("site " + s.site() + " appears twice in the grid view");
            }
        }
    }
}
