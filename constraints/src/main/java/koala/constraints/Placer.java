package koala.constraints;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Places requests under constraints: the fast greedy path, for one grow and for a batch (an initial
 * deployment, or several at once). Pure: the {@link ClusterState} is read, never changed; no I/O, no
 * clock.
 *
 * <p><b>Order.</b> The containers of the batch are placed one at a time, most constrained first:
 * <ol>
 *   <li>a container that must be near another of the batch (it is the subject of an affinity, or of a
 *       cardinality with {@code min > 0}, whose target is another container of the batch) goes after
 *       that one, so that there is something to be near ("level");</li>
 *   <li>then more hard constraints concerning it (as subject or as target) first, then more soft
 *       ones;</li>
 *   <li>then in the batch's order (request by request, container by container).</li>
 * </ol>
 * <b>Node.</b> For each container the nodes with a free slot are tried site by site, the site with
 * the most free slots first (ties by name), and within a site by name. A node that breaks a hard
 * constraint is ruled out (tallied under the first hard constraint it breaks, for the reasons). Of the
 * others the one breaking the fewest soft constraints wins; then the one on the emptiest site (KOALA's
 * Worst-Fit: sites keep room for what must later go near what runs there); then, on that site, the
 * one left with the fewest free slots (best fit: fill nodes already in use, so that whole empty nodes
 * stay free for the jobs that need them, KOALA's pilots and MPI worlds); then the first by name. Once a
 * site has given a node that breaks nothing, no later site can beat it and the search stops.
 * (Packing the whole grid by node name instead made a master take the last slots of a nearly full site
 * and its workers, bound to its site, wait: 16% of deployments in the simulator's stream.)
 *
 * <p><b>All or nothing.</b> A request with a container that no node takes waits with the reasons, and
 * takes nothing. When a pass over the batch fails, the request whose container failed first waits
 * (what was placed before it did not lean on it) and the batch is placed again without it; the others
 * are judged again, since they may have failed for its tentative containers or leaned on them. At most
 * one pass per request.
 *
 * <p>The constraints are those in force in the state and those the batch's requests bring (each
 * holds for every container of the batch, not only its own request's), and affinities derived from
 * chains of them ({@link #derive}).
 */
public final class Placer {
    /** Above this many containers a batch is not searched for affinities among its own containers. */
    static final int LEVEL_LIMIT = 256;

    private Placer() {
    }

    /** One request (a grow, or one instance's initial deployment). */
    public static ConstraintDecision place(ClusterState state, Request request) {
        return placeAll(state, List.of(request)).get(0);
    }

    /** A batch: a decision per request, in the batch's order. */
    public static List<ConstraintDecision> placeAll(ClusterState state, List<Request> batch) {
        ConstraintDecision[] out = new ConstraintDecision[batch.size()];
        boolean[] in = new boolean[batch.size()];
        for (int r = 0; r < batch.size(); r++) {
            List<ConstraintReason> malformed = malformed(batch.get(r));
            in[r] = malformed.isEmpty();
            if (!in[r]) {
                out[r] = new ConstraintDecision.Waiting(batch.get(r).id(), malformed);
            }
        }
        while (anyIn(in)) {
            Round round = new Round(batch.size());
            Scratch scratch = new Scratch(state);
            for (Item item : order(state, batch, in)) {
                place(scratch, item, round);
            }
            if (round.noneFailed()) {
                for (int r = 0; r < batch.size(); r++) {
                    if (in[r]) {
                        out[r] = round.placed(batch.get(r));
                    }
                }
                break;
            }
            int r = round.firstFailed;
            out[r] = new ConstraintDecision.Waiting(batch.get(r).id(), round.reasons.get(r));
            in[r] = false;
        }
        return List.of(out);
    }

    /**
     * Every constraint (hard or soft, in force or among {@code extra}) that starting a container with
     * these tags on this node would break, given the state: what a placement made without constraints
     * costs, and what a test checks.
     */
    public static List<Violation> violations(ClusterState state, String container, Tags tags, String node,
            List<Constraint> extra) {
        Scratch scratch = new Scratch(state);
        Node n = state.nodes().get(state.indexOf(node));
        List<Violation> found = new ArrayList<>();
        for (Constraint k : concerning(state, tags, extra)) {
            String why = Rules.broken(k, scratch.counts(k), tags, n);
            if (why != null) {
                found.add(new Violation(container, k, node, n.groupOf(k.group()), why));
            }
        }
        return found;
    }

    private static void place(Scratch scratch, Item item, Round round) {
        List<Constraint> ks = item.constraints;
        Scratch.Counts[] counts = new Scratch.Counts[ks.size()];
        boolean[][] carries = new boolean[2][ks.size()]; // [0]: carries the subject tags, [1]: the target tags
        for (int j = 0; j < ks.size(); j++) {
            counts[j] = scratch.counts(ks.get(j));
            carries[0][j] = item.ask.tags().carries(ks.get(j).subject());
            carries[1][j] = item.ask.tags().carries(ks.get(j).target());
        }
        List<Node> nodes = scratch.state().nodes();
        Tags tags = item.ask.tags();
        int nowhere = nothingToBeNear(ks, counts, carries);
        if (nowhere >= 0) {
            round.fail(item.request, nothingAnywhere(scratch, item, ks.get(nowhere), counts[nowhere]));
            return;
        }
        int best = -1;
        int bestSoft = Integer.MAX_VALUE;
        int bestSite = -1;
        int bestFree = Integer.MAX_VALUE;
        int roomy = 0;
        int[] ruledOut = new int[ks.size()];
        String[] example = new String[ks.size()];
        for (int site : scratch.sitesByFree()) {
            if (bestSoft == 0 || scratch.siteFree(site) == 0) {
                break; // an emptier site already gave a node breaking nothing; or no site left has room
            }
            for (int i : scratch.state().siteNodes(site)) {
                int free = scratch.free(i);
                if (free < 1) {
                    continue;
                }
                roomy++;
                Node node = nodes.get(i);
                int hardBreak = firstHardBreak(ks, counts, carries, tags, node, example);
                if (hardBreak >= 0) {
                    ruledOut[hardBreak]++;
                    continue;
                }
                int soft = 0;
                for (int j = 0; j < ks.size() && soft <= bestSoft; j++) {
                    if (!ks.get(j).hard() && !Rules.keeps(ks.get(j), counts[j], carries[0][j], carries[1][j], node)) {
                        soft++;
                    }
                }
                if (soft < bestSoft || (soft == bestSoft && site == bestSite && free - 1 < bestFree)) {
                    best = i;
                    bestSoft = soft;
                    bestSite = site;
                    bestFree = free - 1;
                }
            }
        }
        if (best < 0) {
            round.fail(item.request, reasons(scratch, item, roomy, ruledOut, example));
            return;
        }
        Node node = nodes.get(best);
        for (int j = 0; j < ks.size(); j++) {
            String why = ks.get(j).hard() ? null : Rules.broken(ks.get(j), counts[j], tags, node);
            if (why != null) {
                round.violations.add(new Violation(item.ask.id(), ks.get(j), node.name(), node.groupOf(ks.get(j).group()),
                        why));
            }
        }
        scratch.place(new Container(item.ask.id(), tags, node.name()), best);
        round.nodeOf.put(item.ask.id(), node.name());
    }

    /**
     * A hard lower bound (affinity, {@code min > 0}) of which the container is a subject, not the first
     * of its kind, whose target runs nowhere: it rules out every node, so no node need be tried. -1 if none.
     */
    private static int nothingToBeNear(List<Constraint> ks, Scratch.Counts[] counts, boolean[][] carries) {
        for (int j = 0; j < ks.size(); j++) {
            if (ks.get(j).hard() && ks.get(j).min() > 0 && carries[0][j] && !carries[1][j] && counts[j].targets() == 0) {
                return j;
            }
        }
        return -1;
    }

    private static List<ConstraintReason> nothingAnywhere(Scratch scratch, Item item, Constraint k, Scratch.Counts counts) {
        int roomy = 0;
        int some = -1;
        for (int i = 0; i < scratch.state().nodes().size(); i++) {
            if (scratch.free(i) > 0) {
                roomy++;
                some = some < 0 ? i : some;
            }
        }
        if (roomy == 0) {
            return reasons(scratch, item, 0, new int[0], new String[0]);
        }
        String why = Rules.broken(k, counts, item.ask.tags(), scratch.state().nodes().get(some));
        return List.of(new ConstraintReason(item.ask.id(), ConstraintReason.Kind.HARD_CONSTRAINT, k, roomy, item.ask.id() + " "
                + item.ask.tags() + ": " + k.describe() + " rules out " + roomy + " of " + roomy
                + " nodes with a free slot (" + why + ")"));
    }

    /** The index of the first hard constraint the node breaks (noting its words the first time), or -1. */
    private static int firstHardBreak(List<Constraint> ks, Scratch.Counts[] counts, boolean[][] carries, Tags tags,
            Node node, String[] example) {
        for (int j = 0; j < ks.size(); j++) {
            if (ks.get(j).hard() && !Rules.keeps(ks.get(j), counts[j], carries[0][j], carries[1][j], node)) {
                if (example[j] == null) {
                    example[j] = Rules.broken(ks.get(j), counts[j], tags, node);
                }
                return j;
            }
        }
        return -1;
    }

    private static List<ConstraintReason> reasons(Scratch scratch, Item item, int roomy, int[] ruledOut, String[] example) {
        String who = item.ask.id() + " " + item.ask.tags() + ": ";
        if (roomy == 0) {
            int slots = scratch.state().nodes().stream().mapToInt(Node::slots).sum();
            return List.of(new ConstraintReason(item.ask.id(), ConstraintReason.Kind.NO_FREE_SLOT, null, 0, who + "no node has a free slot"
                    + (scratch.anyTentative() ? " once the batch's other containers are placed" : "") + " ("
                    + scratch.state().nodes().size() + " nodes, " + slots + " slots)"));
        }
        List<ConstraintReason> reasons = new ArrayList<>();
        for (int j = 0; j < item.constraints.size(); j++) {
            if (ruledOut[j] > 0) {
                Constraint k = item.constraints.get(j);
                reasons.add(new ConstraintReason(item.ask.id(), ConstraintReason.Kind.HARD_CONSTRAINT, k, ruledOut[j], who + k.describe()
                        + " rules out " + ruledOut[j] + " of " + roomy + " nodes with a free slot (" + example[j] + ")"));
            }
        }
        return reasons;
    }

    private static List<ConstraintReason> malformed(Request r) {
        if (r.asks().isEmpty()) {
            return List.of(new ConstraintReason(null, ConstraintReason.Kind.MALFORMED, null, 0, "request " + r.id() + " asks for nothing"));
        }
        Set<String> ids = new HashSet<>();
        for (Ask a : r.asks()) {
            if (!ids.add(a.id())) {
                return List.of(new ConstraintReason(a.id(), ConstraintReason.Kind.MALFORMED, null, 0, "request " + r.id()
                        + " asks twice for " + a.id()));
            }
        }
        return List.of();
    }

    private static boolean anyIn(boolean[] in) {
        for (boolean b : in) {
            if (b) {
                return true;
            }
        }
        return false;
    }

    /** The constraints in force or in {@code extra} whose subject or target {@code tags} carries. */
    private static List<Constraint> concerning(ClusterState state, Tags tags, List<Constraint> extra) {
        List<Constraint> ks = state.concerning(tags);
        for (Constraint k : extra) {
            if ((tags.carries(k.subject()) || tags.carries(k.target())) && !ks.contains(k)) {
                ks.add(k);
            }
        }
        return ks;
    }

    /** The batch's containers still in, most constrained first (see the class comment). */
    private static List<Item> order(ClusterState state, List<Request> batch, boolean[] in) {
        List<Constraint> brought = new ArrayList<>();
        List<Item> items = new ArrayList<>();
        for (int r = 0; r < batch.size(); r++) {
            if (in[r]) {
                brought.addAll(batch.get(r).constraints());
            }
        }
        for (int r = 0; r < batch.size(); r++) {
            if (in[r]) {
                for (Ask a : batch.get(r).asks()) {
                    items.add(new Item(r, items.size(), a, concerning(state, a.tags(), brought)));
                }
            }
        }
        derive(items);
        levels(items);
        items.sort(Comparator.comparingInt((Item i) -> i.level).thenComparingInt(i -> -i.hard)
                .thenComparingInt(i -> -i.soft).thenComparingInt(i -> i.position));
        return items;
    }

    /**
     * Affinities over one kind of group chain, since a kind's groups partition the nodes: a container
     * that must share its site with both X (of the batch) and T must have X and T on one site, so X
     * gets an affinity to T over site (hard when both are), as if it were its own. Without it X took the
     * emptiest site and its followers, bound to T's site too, waited (49 of 3,984 deployments in the
     * simulator's stream). Derived constraints steer X; they are not put in force.
     */
    private static void derive(List<Item> items) {
        if (items.size() > LEVEL_LIMIT) {
            return;
        }
        for (Item f : items) {
            for (Constraint toX : f.constraints) {
                if (toX.kind() != Constraint.Kind.AFFINITY || !f.ask.tags().carries(toX.subject())) {
                    continue;
                }
                for (Constraint toT : f.constraints) {
                    if (toT == toX || toT.kind() != Constraint.Kind.AFFINITY || !toT.group().equals(toX.group())
                            || !f.ask.tags().carries(toT.subject())) {
                        continue;
                    }
                    for (Item x : items) {
                        if (x != f && x.ask.tags().carries(toX.target()) && !x.ask.tags().carries(toT.target())) {
                            x.add(new Constraint.Affinity(x.ask.tags(), toT.target(), toT.group(),
                                    toX.hard() && toT.hard()));
                        }
                    }
                }
            }
        }
    }

    /**
     * Level 0 for a container that needs nothing of the batch near it; else one more than the highest
     * level among the batch's containers it must be near. A cycle (workers that must be near each
     * other) stops at the batch's size; past {@link #LEVEL_LIMIT} containers every level is 0.
     */
    private static void levels(List<Item> items) {
        if (items.size() > LEVEL_LIMIT) {
            return;
        }
        boolean changed = true;
        for (int pass = 0; changed && pass < items.size(); pass++) {
            changed = false;
            for (Item a : items) {
                for (Constraint k : a.constraints) {
                    if (k.min() == 0 || !a.ask.tags().carries(k.subject())) {
                        continue;
                    }
                    for (Item b : items) {
                        if (b != a && b.ask.tags().carries(k.target()) && a.level <= b.level) {
                            a.level = b.level + 1;
                            changed = true;
                        }
                    }
                }
            }
        }
    }

    /** One container of the batch, with the constraints that concern it. */
    private static final class Item {
        final int request;
        final int position;
        final Ask ask;
        final List<Constraint> constraints;
        int hard;
        int soft;
        int level;

        Item(int request, int position, Ask ask, List<Constraint> constraints) {
            this.request = request;
            this.position = position;
            this.ask = ask;
            this.constraints = constraints;
            this.hard = (int) constraints.stream().filter(Constraint::hard).count();
            this.soft = constraints.size() - hard;
        }

        void add(Constraint k) {
            if (!constraints.contains(k)) {
                constraints.add(k);
                hard += k.hard() ? 1 : 0;
                soft += k.hard() ? 0 : 1;
            }
        }
    }

    /** What one pass over the batch gathered: nodes chosen, soft breaks, and reasons per request. */
    private static final class Round {
        final java.util.Map<String, String> nodeOf = new java.util.HashMap<>();
        final List<Violation> violations = new ArrayList<>();
        final List<List<ConstraintReason>> reasons = new ArrayList<>();
        int firstFailed = -1;

        Round(int requests) {
            for (int r = 0; r < requests; r++) {
                reasons.add(new ArrayList<>());
            }
        }

        void fail(int request, List<ConstraintReason> why) {
            if (firstFailed < 0) {
                firstFailed = request;
            }
            reasons.get(request).addAll(why);
        }

        boolean noneFailed() {
            return firstFailed < 0;
        }

        /** The request's placements and soft breaks, in its containers' order. */
        ConstraintDecision.Placed placed(Request r) {
            List<Placement> placements = new ArrayList<>();
            List<Violation> broken = new ArrayList<>();
            for (Ask a : r.asks()) {
                placements.add(new Placement(a.id(), nodeOf.get(a.id())));
                violations.stream().filter(v -> v.container().equals(a.id())).forEach(broken::add);
            }
            return new ConstraintDecision.Placed(r.id(), placements, broken);
        }
    }
}
