package koala.placement;

/**
 * Flexible Cluster Minimization ({@code flexible-cluster-minimization}), the default for flexible
 * jobs: split a flexible job's nodes over the fewest sites, emptiest first.
 *
 * <p>A flexible job is one component of N nodes that KOALA may split. Sites are taken in order of
 * idle nodes, most first (ties: name ascending), and each gets min(idle, nodes still to place)
 * until all N are placed: one {@link Assignment} of component 0 per site used, in that order.
 * Taking the emptiest sites first is what makes the number of sites the fewest possible. When the
 * whole grid has fewer than N idle nodes the job is not placed, and the reason lists where the idle
 * nodes are. A flexible component with a {@code fixedSite} is not split: it goes there whole.
 *
 * <p>Example: idle fs0 10, fs1 8, fs2 3 and a flexible job of 20 nodes: fs0 10, fs1 8, fs2 2.
 *
 * <p>A job that is not flexible is placed exactly as {@link ClusterMinimization} places it.
 */
public final class FlexibleClusterMinimization extends GreedyPolicy {
    public static final String NAME = "flexible-cluster-minimization";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    int chooseSite(ComponentNeed c, IdleLedger ledger, GridView grid) {
        return ClusterMinimization.fewestSites(c, ledger);
    }

    @Override
    void placeFlexible(ComponentNeed c, IdleLedger ledger, GridView grid, Outcome out) {
        boolean room = ledger.holdsInAll(c.nodes());
        if (!(room && ledger.leftWithinTotal()) && c.nodes() > ledger.totalNodes()) {
            out.reason(Reasons.flexibleNeverFits(c, ledger));
            return;
        }
        if (!room) {
            out.reason(Reasons.flexibleNoRoom(c, ledger));
            return;
        }
        // Picking the site with the most left again and again walks the sites in the order above:
        // a site either takes all that remains or is emptied, and so ranks last from then on.
        int remaining = c.nodes();
        while (remaining > 0) {
            int site = ledger.bestHolding(1, false);
            int nodes = Math.min(ledger.left(site), remaining);
            out.assign(c, site, nodes, ledger);
            remaining -= nodes;
        }
    }
}
