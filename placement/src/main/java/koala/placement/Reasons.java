package koala.placement;

import java.util.StringJoiner;
import koala.placement.PlacementReason.Kind;

/**
 * The words of every reason a policy gives for not placing a job, in one place so that every
 * policy says the same thing the same way. Each is what a user reads in {@code koala status}.
 */
final class Reasons {
    /** How many sites a reason lists before it says "and N more". */
    static final int LISTED_SITES = 5;

    private Reasons() {
    }

    static PlacementReason noComponents() {
        return PlacementReason.job(Kind.NO_COMPONENTS, "the job has no components");
    }

    static PlacementReason flexibleShape(int components) {
        return PlacementReason.job(Kind.FLEXIBLE_SHAPE, "a flexible job has exactly one component, this one has " + components);
    }

    static PlacementReason badSize(ComponentNeed c) {
        return new PlacementReason(c.index(), Kind.BAD_SIZE, "component " + c.index() + " asks for " + c.nodes()
                + " nodes, it needs at least 1");
    }

    static PlacementReason unknownSite(ComponentNeed c, IdleLedger grid) {
        return new PlacementReason(c.index(), Kind.UNKNOWN_SITE, "component " + c.index() + " is fixed to " + c.fixedSite()
                + ", which is not a cluster of this grid (clusters: " + names(grid) + ")");
    }

    static PlacementReason fixedNeverFits(ComponentNeed c, IdleLedger grid, int site) {
        if (grid.knowsHosts(site)) {
            return new PlacementReason(c.index(), Kind.NEVER_FITS, "component " + c.index() + " needs " + nodesOf(c)
                    + " on " + c.fixedSite() + ", whose hosts hold " + grid.total(site) + " such nodes in all");
        }
        return new PlacementReason(c.index(), Kind.NEVER_FITS, "component " + c.index() + " needs " + c.nodes() + " nodes on "
                + c.fixedSite() + ", more than it has (" + grid.total(site) + " nodes in all)");
    }

    static PlacementReason fixedNoRoom(ComponentNeed c, IdleLedger grid, int site) {
        if (grid.knowsHosts(site)) {
            String after = grid.left(site) == grid.idle(site) ? "" : " after the job's other components";
            return new PlacementReason(c.index(), Kind.NOT_ENOUGH_IDLE, "component " + c.index() + " needs " + nodesOf(c)
                    + " on " + c.fixedSite() + "; it has room for " + room(grid, site) + after);
        }
        String has = grid.left(site) == grid.idle(site) ? grid.idle(site) + " idle"
                : grid.idle(site) + " idle, " + grid.left(site) + " left after the job's other components";
        return new PlacementReason(c.index(), Kind.NOT_ENOUGH_IDLE, "component " + c.index() + " needs " + c.nodes() + " nodes on "
                + c.fixedSite() + ", which has " + has);
    }

    static PlacementReason noClusters(ComponentNeed c) {
        return new PlacementReason(c.index(), Kind.NO_CLUSTERS, "component " + c.index() + " needs " + c.nodes()
                + " nodes, the grid has no clusters");
    }

    static PlacementReason neverFits(ComponentNeed c, IdleLedger grid) {
        int largest = grid.largest();
        if (grid.byResources()) {
            if (grid.total(largest) == 0) {
                String closest = grid.closestHost();
                return new PlacementReason(c.index(), Kind.NEVER_FITS, "component " + c.index() + " needs nodes of "
                        + c.perNode().describe() + ", more than any host has" + (closest == null ? "" : " (closest: " + closest + ")"));
            }
            return new PlacementReason(c.index(), Kind.NEVER_FITS, "component " + c.index() + " needs " + nodesOf(c)
                    + " on one cluster, more than any cluster holds (most: " + grid.name(largest) + " with "
                    + grid.total(largest) + " such nodes in all)");
        }
        return new PlacementReason(c.index(), Kind.NEVER_FITS, "component " + c.index() + " needs " + c.nodes()
                + " nodes on one cluster, more than any cluster has (largest: " + grid.name(largest)
                + " with " + grid.total(largest) + ")");
    }

    static PlacementReason noRoom(ComponentNeed c, IdleLedger grid) {
        if (grid.byResources()) {
            StringJoiner sites = new StringJoiner(", ");
            for (int site : grid.topLeft(LISTED_SITES)) {
                sites.add(grid.left(site) == 0 ? grid.name(site) + " none" : grid.name(site) + " has room for " + room(grid, site));
            }
            if (grid.size() > LISTED_SITES) {
                sites.add("and " + (grid.size() - LISTED_SITES) + " more");
            }
            String after = grid.anyIdle(c.nodes()) ? " once the job's other components are placed" : "";
            return new PlacementReason(c.index(), Kind.NOT_ENOUGH_IDLE, "component " + c.index() + " needs " + nodesOf(c)
                    + " on one cluster; " + sites + after);
        }
        int most = grid.mostLeft();
        String text = "component " + c.index() + " needs " + c.nodes() + " nodes on one cluster, most idle is "
                + grid.left(most) + " on " + grid.name(most);
        if (grid.anyIdle(c.nodes())) {
            text += " once the job's other components are placed";
        }
        return new PlacementReason(c.index(), Kind.NOT_ENOUGH_IDLE, text);
    }

    static PlacementReason flexibleNeverFits(ComponentNeed c, IdleLedger grid) {
        if (grid.byResources()) {
            return new PlacementReason(c.index(), Kind.NEVER_FITS, "needs " + nodesOf(c) + ", more than the grid holds ("
                    + grid.totalNodes() + " such nodes on " + grid.size() + " clusters)");
        }
        return new PlacementReason(c.index(), Kind.NEVER_FITS, "needs " + c.nodes() + " nodes, more than the grid has ("
                + grid.totalNodes() + " nodes on " + grid.size() + " clusters)");
    }

    static PlacementReason flexibleNoRoom(ComponentNeed c, IdleLedger grid) {
        StringJoiner idle = new StringJoiner(", ", " (", ")").setEmptyValue("");
        int listed = 0;
        int more = 0;
        for (int site : grid.byMostLeft()) {
            if (grid.left(site) == 0) {
                break;
            }
            if (listed++ < LISTED_SITES) {
                idle.add(grid.name(site) + " " + grid.left(site));
            } else {
                more++;
            }
        }
        if (more > 0) {
            idle.add("and " + more + " more");
        }
        if (grid.byResources()) {
            return new PlacementReason(c.index(), Kind.NOT_ENOUGH_IDLE, "needs " + nodesOf(c) + ", the grid has room for "
                    + grid.totalLeft() + " such nodes" + idle);
        }
        return new PlacementReason(c.index(), Kind.NOT_ENOUGH_IDLE, "needs " + c.nodes() + " nodes, the grid has " + grid.totalLeft() + " idle"
                + idle);
    }

    /** "4 nodes of 8 cores and 32G". */
    private static String nodesOf(ComponentNeed c) {
        return c.nodes() + (c.nodes() == 1 ? " node of " : " nodes of ") + c.perNode().describe();
    }

    /** "2 such nodes (on 1 host)": what a site whose hosts are known can take of the request now. */
    private static String room(IdleLedger grid, int site) {
        int nodes = grid.left(site);
        if (!grid.knowsHosts(site)) {
            return nodes + " nodes (hosts not known)";
        }
        int hosts = grid.hostsWithRoom(site);
        return nodes + (nodes == 1 ? " such node" : " such nodes") + " (on " + hosts + (hosts == 1 ? " host)" : " hosts)");
    }

    private static String names(IdleLedger grid) {
        StringJoiner names = new StringJoiner(", ").setEmptyValue("none");
        String[] sorted = new String[grid.size()];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = grid.name(i);
        }
        java.util.Arrays.sort(sorted);
        for (int i = 0; i < sorted.length && i < LISTED_SITES; i++) {
            names.add(sorted[i]);
        }
        if (sorted.length > LISTED_SITES) {
            names.add("and " + (sorted.length - LISTED_SITES) + " more");
        }
        return names.toString();
    }
}
