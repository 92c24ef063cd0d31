package koala.cli;

import koala.grid.GridConfig;
import koala.jdf.ClusterCatalog;

/** The grid's clusters as a JDF is checked against them: their sizes, group kinds and networks. */
final class GridCatalog {
    private GridCatalog() {
    }

    static ClusterCatalog of(GridConfig grid) {
        return new ClusterCatalog(grid.nodeCounts(), grid.groupKinds(), grid.networks());
    }
}
