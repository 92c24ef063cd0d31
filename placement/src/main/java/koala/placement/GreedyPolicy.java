package koala.placement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The rules every placement policy shares; a policy only says which site a component goes to.
 *
 * <p>Placing a job, whatever the policy:
 * <ol>
 *   <li>A job with no components, a flexible job with more than one, or a component asking for
 *       fewer than one node is not placed, with a reason.</li>
 *   <li>Fixed components first, in index order: each goes to its {@code fixedSite}, and must fit
 *       there in the nodes left after the earlier ones; otherwise that component gets a reason (an
 *       unknown site, more nodes than the site has in all, or not enough idle now).</li>
 *   <li>Then the other components, largest first (ties: lower index first), each placed against
 *       what the fixed ones and the earlier ones left. A component that no site has room for gets a
 *       reason (more than any site has, or not enough idle now) and takes nothing. For the others
 *       the policy chooses ({@link #chooseSite}); a component is never split, except the single
 *       component of a flexible job by a policy that splits it ({@link #placeFlexible}).</li>
 *   <li>All or nothing: if any component could not be placed, the job is
 *       {@link PlacementDecision.NotPlaced} with a reason for each such component, and none of the
 *       assignments made on the way is returned; else it is {@link PlacementDecision.Placed}.</li>
 * </ol>
 * Assignments and reasons are listed in component order. Every choice breaks ties by site name,
 * so the same job and view give the same decision.
 *
 * <p>By resources. Where the view knows a site's hosts ({@link SiteView#hosts}), "idle nodes" and
 * "nodes in all" above are nodes of the component's {@link ComponentNeed#perNode} that fit in the
 * hosts' free (or total) resources, each host counted alone: a node never spans hosts. Where a
 * policy ranks sites by idle nodes, it ranks them by the free resources pooled in nodes of the
 * request (the request's scarcest resource there, {@code IdleLedger#rank}), and takes the best-ranked
 * site whose hosts hold the component; the nodes then go to hosts by best fit on the request's dominant resource
 * ({@code IdleLedger}), the assignment names them ({@link Assignment#hosts}), and the next component
 * of the job is counted against what they left. A job whose components ask for resources and that
 * cannot be placed largest first is tried once more with its largest nodes first (GPUs, then memory,
 * then cores per node): smaller nodes placed first may have taken the only hosts a larger one fits on.
 */
abstract class GreedyPolicy implements PlacementPolicy {
    private static final Comparator<ComponentNeed> LARGEST_FIRST =
            Comparator.comparingInt(ComponentNeed::nodes).reversed().thenComparingInt(ComponentNeed::index);
    /** GPUs, then memory, then cores per node, most first (ties: largest first). */
    private static final Comparator<ComponentNeed> LARGEST_NODE_FIRST =
            Comparator.<ComponentNeed>comparingInt(c -> -c.perNode().gpus())
                    .thenComparingLong(c -> -c.perNode().memoryMiB())
                    .thenComparingInt(c -> -c.perNode().cores())
                    .thenComparing(LARGEST_FIRST);

    @Override
    public final PlacementDecision place(JobNeed job, GridView grid) {
        List<PlacementReason> malformed = check(job);
        if (!malformed.isEmpty()) {
            return new PlacementDecision.NotPlaced(malformed);
        }
        PlacementDecision first = place(job, grid, LARGEST_FIRST);
        if (first instanceof PlacementDecision.NotPlaced np && smallerNodesWentFirst(job, np)) {
            // first fit decreasing by node: a host only the largest nodes fit on is not taken by smaller ones first
            PlacementDecision again = place(job, grid, LARGEST_NODE_FIRST);
            if (again instanceof PlacementDecision.Placed) {
                return again;
            }
        }
        return first;
    }

    /**
     * Whether a component that could not be placed has larger nodes than one that was: only then may placing
     * the largest nodes first do better (smaller nodes placed first only ever leave the small ones less room).
     */
    private static boolean smallerNodesWentFirst(JobNeed job, PlacementDecision.NotPlaced np) {
        java.util.Set<Integer> failed = new java.util.HashSet<>();
        // a component that never fits, or breaks a rule, is not helped by any order
        np.reasons().stream().filter(r -> r.kind() == PlacementReason.Kind.NOT_ENOUGH_IDLE)
                .forEach(r -> failed.add(r.component()));
        if (failed.size() < np.reasons().size()) {
            return false;
        }
        for (ComponentNeed f : job.components()) {
            if (failed.contains(f.index())) {
                for (ComponentNeed p : job.components()) {
                    if (!failed.contains(p.index()) && !p.perNode().equals(f.perNode())
                            && LARGEST_NODE_FIRST.compare(f, p) < 0) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private PlacementDecision place(JobNeed job, GridView grid, Comparator<ComponentNeed> order) {
        IdleLedger ledger = new IdleLedger(grid.sites());
        Outcome out = new Outcome();
        List<ComponentNeed> free = new ArrayList<>(job.components().size());
        for (ComponentNeed c : job.components()) {
            if (c.fixedSite() != null) {
                ledger.focus(c.perNode());
                placeFixed(c, ledger, out);
            } else {
                free.add(c);
            }
        }
        free.sort(order);
        for (ComponentNeed c : free) {
            ledger.focus(c.perNode());
            if (job.flexible()) {
                placeFlexible(c, ledger, grid, out);
            } else {
                placeWhole(c, ledger, grid, out);
            }
        }
        return out.decision();
    }

    /**
     * The site for a component that is not split, given that at least one site has room for it
     * now: the position of a site in {@code ledger} whose {@code left} is at least {@code c.nodes()}.
     */
    abstract int chooseSite(ComponentNeed c, IdleLedger ledger, GridView grid);

    /**
     * Places the single component of a flexible job. By default it is not split: the policy places
     * it whole, like any component. Flexible Cluster Minimization overrides this to split it.
     */
    void placeFlexible(ComponentNeed c, IdleLedger ledger, GridView grid, Outcome out) {
        placeWhole(c, ledger, grid, out);
    }

    /** Places a component on one site of the policy's choice, or gives the reason none has room. */
    final void placeWhole(ComponentNeed c, IdleLedger ledger, GridView grid, Outcome out) {
        if (ledger.size() == 0) {
            out.reason(Reasons.noClusters(c));
        } else if (ledger.leftWithinTotal() && ledger.anyHolds(c.nodes())) {
            // the common case, decided without counting what every host holds in all
            out.assign(c, chooseSite(c, ledger, grid), c.nodes(), ledger);
        } else if (c.nodes() > ledger.largestTotal()) {
            out.reason(Reasons.neverFits(c, ledger));
        } else if (!ledger.anyHolds(c.nodes())) {
            out.reason(Reasons.noRoom(c, ledger));
        } else {
            out.assign(c, chooseSite(c, ledger, grid), c.nodes(), ledger);
        }
    }

    private static void placeFixed(ComponentNeed c, IdleLedger ledger, Outcome out) {
        int site = ledger.indexOf(c.fixedSite());
        if (site < 0) {
            out.reason(Reasons.unknownSite(c, ledger));
        } else if (c.nodes() > ledger.total(site)) {
            out.reason(Reasons.fixedNeverFits(c, ledger, site));
        } else if (c.nodes() > ledger.left(site)) {
            out.reason(Reasons.fixedNoRoom(c, ledger, site));
        } else {
            out.assign(c, site, c.nodes(), ledger);
        }
    }

    private static List<PlacementReason> check(JobNeed job) {
        List<PlacementReason> reasons = new ArrayList<>();
        if (job.components().isEmpty()) {
            reasons.add(Reasons.noComponents());
        } else if (job.flexible() && job.components().size() > 1) {
            reasons.add(Reasons.flexibleShape(job.components().size()));
        }
        for (ComponentNeed c : job.components()) {
            if (c.nodes() < 1) {
                reasons.add(Reasons.badSize(c));
            }
        }
        return reasons;
    }

    /** What one decision has gathered so far: the assignments made and the reasons given. */
    static final class Outcome {
        private static final Comparator<Assignment> BY_COMPONENT = Comparator.comparingInt(Assignment::component);
        private static final Comparator<PlacementReason> BY_REASON_COMPONENT = Comparator.comparingInt(PlacementReason::component);

        private final List<Assignment> assignments = new ArrayList<>();
        private final List<PlacementReason> reasons = new ArrayList<>();

        /** Gives {@code nodes} of component {@code c} to the site, and takes them from the ledger. */
        void assign(ComponentNeed c, int site, int nodes, IdleLedger ledger) {
            List<String> hosts = ledger.take(site, nodes);
            assignments.add(new Assignment(c.index(), ledger.name(site), nodes, hosts));
        }

        void reason(PlacementReason reason) {
            reasons.add(reason);
        }

        /** Placed when no reason was given, assignments in component order (a split in its order). */
        PlacementDecision decision() {
            if (!reasons.isEmpty()) {
                reasons.sort(BY_REASON_COMPONENT);
                return new PlacementDecision.NotPlaced(reasons);
            }
            assignments.sort(BY_COMPONENT);
            return new PlacementDecision.Placed(assignments);
        }
    }
}
