package koala.placement;

import java.util.List;

/** The grid as placement sees it: every site's nodes, and where input files are. */
public record GridView(List<SiteView> sites, FileLocations files) {
    public GridView {
        sites = List.copyOf(sites);
    }
}
