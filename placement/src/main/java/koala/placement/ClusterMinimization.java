package koala.placement;

/**
 * Cluster Minimization ({@code cluster-minimization}): keep a co-allocated job on as few sites as
 * possible, so that its components talk over the wide-area network as little as possible.
 *
 * <p>The greedy of the KOALA papers (Mohamed &amp; Epema; Sonmez et al.): components go largest
 * first (ties: lower index first); each goes to a site this job already uses (its fixed
 * components' sites included) if one has room for it, the one with the most idle nodes left (ties:
 * name); otherwise to the unused site with the most idle nodes (ties: name). A flexible job is
 * placed whole, not split (see {@link FlexibleClusterMinimization}).
 *
 * <p>What it does not guarantee. Packing components into the fewest sites is bin packing, which
 * is NP-hard; this one pass, without backtracking:
 * <ul>
 *   <li>may use more sites than needed: idle fs0 10, fs1 6, fs2 6 and components 6, 5, 5 give
 *       6&rarr;fs0, then 5&rarr;fs1 (fs0 has 4 left), then 5&rarr;fs2: three sites, where 6&rarr;fs1
 *       and 5+5&rarr;fs0 use two;</li>
 *   <li>may not place a job that fits: idle fs0 10, fs1 7, fs2 3 and components 7, 6, 4 give
 *       7&rarr;fs0, 6&rarr;fs1, and 4 fits nowhere, where 7&rarr;fs1 and 6+4&rarr;fs0 fit.</li>
 * </ul>
 * The job then waits in the placement queue as with any other policy.
 *
 * <p>By resources, "most idle nodes left" is the highest rank (free resources pooled, in nodes of
 * the component's request) among the sites whose hosts hold the component: the sites that can take
 * most of such nodes are filled first, whatever resource is scarce for the request.
 */
public final class ClusterMinimization extends GreedyPolicy {
    public static final String NAME = "cluster-minimization";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    int chooseSite(ComponentNeed c, IdleLedger ledger, GridView grid) {
        return fewestSites(c, ledger);
    }

    /**
     * The most-idle used site with room, else the most-idle unused site. Some site has room, and if
     * no used one does, the site with the most left is an unused one, so the result always fits.
     */
    static int fewestSites(ComponentNeed c, IdleLedger ledger) {
        int bestUsed = -1;
        for (int site = 0; site < ledger.size(); site++) {
            if (ledger.used(site) && ledger.holds(site, c.nodes()) && (bestUsed < 0 || ledger.ranksAbove(site, bestUsed))) {
                bestUsed = site;
            }
        }
        return bestUsed >= 0 ? bestUsed : ledger.bestHolding(c.nodes(), true);
    }
}
