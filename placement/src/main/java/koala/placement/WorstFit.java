package koala.placement;

/**
 * Worst-Fit ({@code worst-fit}), KOALA's default: spread the load by sending each component to the
 * site with the most idle nodes.
 *
 * <p>Components go largest first (ties: lower index first); each goes to the site with the most
 * idle nodes left after this job's earlier components (ties: site name ascending). Several
 * components may share a site. Fixed components, the order and the reasons are the common rules
 * of every policy (see {@code GreedyPolicy}). A flexible job is placed whole, not split.
 *
 * <p>Example: sites fs0 10 idle, fs1 8, fs2 3 and components of 4, 6 and 2 nodes: component 1
 * (6) goes to fs0 (4 left), component 0 (4) to fs1 (4 left), component 2 (2) to fs0 (fs0 and fs1
 * both have 4 left; fs0 comes first by name).
 *
 * <p>By resources (a view that knows the hosts, {@link SiteView#hosts}): "the most idle nodes" is the
 * highest rank, the site's free resources pooled in nodes of the request (its scarcest resource for
 * it), among the sites whose hosts hold the component one node per host fit; see
 * {@code IdleLedger#rank}. For one-core nodes that is the idle cores, the rule above.
 */
public final class WorstFit extends GreedyPolicy {
    public static final String NAME = "worst-fit";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    int chooseSite(ComponentNeed c, IdleLedger ledger, GridView grid) {
        return ledger.bestHolding(c.nodes(), false);
    }
}
