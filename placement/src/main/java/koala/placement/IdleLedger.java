package koala.placement;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The sites' idle nodes while one job is being placed: the grid view's idle counts (a negative
 * count read as 0) less what this job's components already took. It lives for one decision and is
 * never shared, so the policies stay free of side effects.
 *
 * <p>Sites are addressed by their position in the grid view. Every "best site" question breaks
 * ties by site name, never by that position, so the order of the view does not matter.
 *
 * <p>Counted in nodes of one request. The policy {@linkplain #focus focuses} the ledger on the
 * component it places; on a site whose hosts the view knows ({@link SiteView#hosts}), "nodes" are
 * then nodes of that component's {@link ComponentNeed#perNode}: the sum over the hosts of how many
 * fit in each host's free resources. A site without hosts is counted in its idle nodes whatever the
 * request, as before resources were known (SGE then chooses the hosts).
 *
 * <p>Counting a site host by host is what costs; so a site's count is made only when a question
 * needs it, and "which site has the most" first ranks the sites by a cheap bound (the site as one
 * host holding all its free resources: {@link HostList#bound}) and counts only those whose bound
 * could still beat the best count found. The answers are the same as counting every site.
 */
final class IdleLedger {
    /** Sites counted in order of their bounds before the rest are counted in one pass. */
    private static final int SELECTED = 8;
    private final List<SiteView> sites;
    /** Nodes left per site; for a site with hosts, valid only where {@link #known}. */
    private final int[] left;
    private final boolean[] known;
    /** At least {@code left}, for the request in focus; equal to it where known. */
    private final int[] bound;
    private final boolean[] used;
    /** The free resources of the sites whose hosts are known, null for the others. */
    private final HostLedger[] hosts;
    private final boolean byResources;
    /** Whether no site shows more idle than it has: then a site with room now could ever hold as much. */
    private final boolean idleWithinTotal;
    private final int largestNodes;
    private Resources request;
    /** The last answer of {@link #bestHolding} over every site, until the next focus or take. */
    private boolean holdingValid;
    private int holdingNodes;
    private int holding;
    /** Per site, nodes of {@link #request} it holds in all; null until a reason or a check needs it. */
    private int[] totalForRequest;

    IdleLedger(List<SiteView> sites) {
        this.sites = sites;
        int n = sites.size();
        boolean any = false;
        for (int i = 0; i < n && !any; i++) {
            any = !sites.get(i).hosts().isEmpty();
        }
        this.byResources = any;
        this.left = new int[n];
        this.used = new boolean[n];
        // a decision over nodes alone (most of them) allocates nothing for hosts: the bound is what is left
        this.known = any ? new boolean[n] : null;
        this.bound = any ? new int[n] : left;
        this.hosts = any ? new HostLedger[n] : null;
        int largest = 0;
        boolean within = true;
        for (int i = 0; i < n; i++) {
            SiteView site = sites.get(i);
            left[i] = Math.max(0, site.idleNodes());
            largest = Math.max(largest, site.totalNodes());
            if (!any) {
                within &= left[i] <= site.totalNodes();
                continue;
            }
            bound[i] = left[i];
            known[i] = true;
            if (!site.hosts().isEmpty()) {
                hosts[i] = new HostLedger((HostList) site.hosts());
                known[i] = false;
            } else {
                within &= left[i] <= site.totalNodes();
            }
        }
        this.largestNodes = largest;
        this.idleWithinTotal = within;
    }

    /** The site's hosts during this decision, or null where the view does not know them. */
    private HostLedger hostsOf(int site) {
        return hosts == null ? null : hosts[site];
    }

    /** Whether {@link #left} of the site is counted for the request in focus (always, where hosts are not known). */
    private boolean isKnown(int site) {
        return known == null || known[site];
    }

    /**
     * Counts from now on in nodes of {@code perNode}: what the component being placed asks of each
     * node. Cheap when it asks what the previous one did (most jobs: one shape for all components).
     */
    void focus(Resources perNode) {
        if (perNode.equals(request)) {
            return;
        }
        request = perNode;
        totalForRequest = null;
        holdingValid = false;
        if (byResources) {
            for (int i = 0; i < left.length; i++) {
                if (hostsOf(i) != null) {
                    known[i] = false;
                    bound[i] = hostsOf(i).bound(perNode);
                }
            }
        }
    }

    /** Whether some site's hosts are known, so that reasons speak of resources. */
    boolean byResources() {
        return byResources;
    }

    boolean knowsHosts(int site) {
        return hostsOf(site) != null;
    }

    /** What the component in focus asks of each node. */
    Resources request() {
        return request == null ? Resources.NODE : request;
    }

    int size() {
        return left.length;
    }

    String name(int site) {
        return sites.get(site).site();
    }

    /** Nodes the site could ever hold: of the request in focus where its hosts are known. */
    int total(int site) {
        if (hostsOf(site) == null) {
            return sites.get(site).totalNodes();
        }
        return totals()[site];
    }

    /** Idle nodes the view shows, before this job took any. */
    int idle(int site) {
        if (hostsOf(site) == null) {
            return Math.max(0, sites.get(site).idleNodes());
        }
        // where this job took nothing, what is left is what the view shows, and may be counted already
        return used[site] ? hostsOf(site).view.capacity(request()) : left(site);
    }

    /** Idle nodes left after this job's components placed so far. */
    int left(int site) {
        if (!isKnown(site)) {
            left[site] = hostsOf(site).capacity(request());
            known[site] = true;
        }
        return left[site];
    }

    /**
     * How the policies rank the site for the request in focus: its free resources pooled, in nodes of
     * the request (the least over the dimensions it asks for of {@code floor(free_d / asked_d)}: the
     * free amount of its scarcest resource in units of the request). Cheap, from sums kept per site,
     * and never less than {@link #left}. Where hosts are not known, or for a request of one core, it
     * is the nodes left themselves: Worst-Fit's idle nodes of before.
     */
    int rank(int site) {
        return bound[site];
    }

    /** Whether site {@code a} ranks above {@code b}: a larger {@link #rank}, or as large and a lower name. */
    boolean ranksAbove(int a, int b) {
        if (bound[a] != bound[b]) {
            return bound[a] > bound[b];
        }
        return name(a).compareTo(name(b)) < 0;
    }

    /**
     * The highest-ranked site whose hosts hold {@code nodes} now, counted host by host; -1 when none
     * does. Sites are tried in rank order, and one ranked below {@code nodes} cannot hold them, so
     * most decisions count one site or two.
     */
    int bestHolding(int nodes, boolean unusedOnly) {
        if (!unusedOnly && holdingValid && holdingNodes == nodes) {
            return holding;
        }
        int found = byResources ? bestHoldingByHosts(nodes, unusedOnly) : bestHoldingByNodes(nodes, unusedOnly);
        if (!unusedOnly) {
            holdingValid = true;
            holdingNodes = nodes;
            holding = found;
        }
        return found;
    }

    /** Where no host is known, rank is the nodes left: one pass finds the best site that holds them. */
    private int bestHoldingByNodes(int nodes, boolean unusedOnly) {
        int best = -1;
        for (int i = 0; i < left.length; i++) {
            if (left[i] >= nodes && allowed(i, unusedOnly, null) && (best < 0 || ranksAbove(i, best))) {
                best = i;
            }
        }
        return best;
    }

    private int bestHoldingByHosts(int nodes, boolean unusedOnly) {
        boolean[] tried = new boolean[left.length];
        int found = -1;
        for (int tries = 0; ; tries++) {
            if (tries == SELECTED) {
                found = holdingAmongTheRest(nodes, unusedOnly, tried);
                break;
            }
            int next = -1;
            for (int i = 0; i < left.length; i++) {
                if (!tried[i] && allowed(i, unusedOnly, null) && bound[i] >= nodes && (next < 0 || ranksAbove(i, next))) {
                    next = i;
                }
            }
            if (next < 0) {
                break;
            }
            if (left(next) >= nodes) {
                found = next;
                break;
            }
            tried[next] = true;
        }
        return found;
    }

    /**
     * When the best-ranked sites did not hold the nodes (fragmented hosts, or no room anywhere), one
     * pass over the rest, counting a site only if it ranks above the best holding one found so far:
     * the same answer as going on in rank order, without choosing the next over and over.
     */
    private int holdingAmongTheRest(int nodes, boolean unusedOnly, boolean[] tried) {
        int best = -1;
        for (int i = 0; i < left.length; i++) {
            if (!tried[i] && allowed(i, unusedOnly, null) && bound[i] >= nodes && (best < 0 || ranksAbove(i, best))
                    && left(i) >= nodes) {
                best = i;
            }
        }
        return best;
    }

    /** Whether some site's hosts hold {@code nodes} now. */
    boolean anyHolds(int nodes) {
        return bestHolding(nodes, false) >= 0;
    }

    /** Whether the site has at least {@code nodes} left, counting its hosts only if its bound allows it. */
    boolean holds(int site, int nodes) {
        return bound[site] >= nodes && left(site) >= nodes;
    }

    /** Whether a component of this job already went to the site. */
    boolean used(int site) {
        return used[site];
    }

    /**
     * Takes {@code nodes} of the request in focus from the site; returns the host of each node when
     * the site's hosts are known (best fit, see {@link HostLedger#take}), else an empty list.
     */
    List<String> take(int site, int nodes) {
        used[site] = true;
        holdingValid = false;
        if (hostsOf(site) == null) {
            left[site] -= nodes;
            bound[site] = left[site];
            return List.of();
        }
        List<String> chosen = hostsOf(site).take(request(), nodes);
        known[site] = false;
        bound[site] = hostsOf(site).bound(request());
        return chosen;
    }

    /** Position of the named site, or -1 when the grid has no such site. */
    int indexOf(String site) {
        for (int i = 0; i < left.length; i++) {
            if (name(i).equals(site)) {
                return i;
            }
        }
        return -1;
    }

    /** The most nodes any site has left (0 when the grid is empty). */
    int maxLeft() {
        if (!byResources) {
            int max = 0;
            for (int n : left) {
                max = Math.max(max, n);
            }
            return max;
        }
        int most = mostLeft();
        return most < 0 ? 0 : left(most);
    }

    /**
     * Whether, with {@code nodes} at most {@link #maxLeft}, some site could ever hold them: true
     * without counting totals unless a view shows a site with more idle than it has.
     */
    boolean leftWithinTotal() {
        return idleWithinTotal;
    }

    /** The most nodes any site has in all (0 when the grid is empty). */
    int largestTotal() {
        if (!byResources) {
            return largestNodes;
        }
        int max = 0;
        for (int i = 0; i < left.length; i++) {
            max = Math.max(max, total(i));
        }
        return max;
    }

    /** The site with the most nodes left, ties by name ascending; -1 when the grid is empty. */
    int mostLeft() {
        return mostLeft(null);
    }

    /**
     * The site with the most nodes left among those allowed, ties by name: the known sites first,
     * then the others by decreasing bound, each counted, until no bound left can reach the best.
     */
    private int mostLeft(boolean[] excluded) {
        boolean unusedOnly = false;
        int best = -1;
        for (int i = 0; i < left.length; i++) {
            if (isKnown(i) && allowed(i, unusedOnly, excluded) && (best < 0 || moreLeft(i, best))) {
                best = i;
            }
        }
        if (!byResources) {
            return best;
        }
        for (int counted = 0; ; counted++) {
            if (counted == SELECTED) {
                return countTheRest(best, unusedOnly, excluded);
            }
            int next = -1;
            for (int i = 0; i < left.length; i++) {
                if (!isKnown(i) && allowed(i, unusedOnly, excluded)
                        && (next < 0 || bound[i] > bound[next] || bound[i] == bound[next] && name(i).compareTo(name(next)) < 0)) {
                    next = i;
                }
            }
            if (next < 0 || best >= 0 && bound[next] < left[best]) {
                return best;
            }
            left(next);
            if (best < 0 || moreLeft(next, best)) {
                best = next;
            }
        }
    }

    /**
     * When the bounds did not single out the best after a few counts (they are loose for requests of
     * several resources), every allowed site whose bound reaches the best so far is counted in one
     * pass, rather than choosing the next by bound over and over.
     */
    private int countTheRest(int best, boolean unusedOnly, boolean[] excluded) {
        for (int i = 0; i < left.length; i++) {
            if (!isKnown(i) && allowed(i, unusedOnly, excluded) && (best < 0 || bound[i] >= left[best])) {
                left(i);
                if (best < 0 || moreLeft(i, best)) {
                    best = i;
                }
            }
        }
        return best;
    }

    private boolean allowed(int site, boolean unusedOnly, boolean[] excluded) {
        return !(unusedOnly && used[site]) && (excluded == null || !excluded[site]);
    }

    /** Whether site {@code a} has more nodes left than {@code b}, or as many and a lower name. */
    boolean moreLeft(int a, int b) {
        int la = left(a);
        int lb = left(b);
        if (la != lb) {
            return la > lb;
        }
        return name(a).compareTo(name(b)) < 0;
    }

    /** The site with the most nodes in all, ties by name ascending; -1 when the grid is empty. */
    int largest() {
        int best = -1;
        for (int i = 0; i < left.length; i++) {
            if (best < 0 || total(i) > total(best)
                    || total(i) == total(best) && name(i).compareTo(name(best)) < 0) {
                best = i;
            }
        }
        return best;
    }

    /** Whether some site, before this job took any nodes, had {@code nodes} idle. */
    boolean anyIdle(int nodes) {
        for (int i = 0; i < left.length; i++) {
            if (hostsOf(i) != null && (hostsOf(i).view.bound(request()) < nodes || !used[i] && bound[i] < nodes)) {
                continue;
            }
            if (idle(i) >= nodes) {
                return true;
            }
        }
        return false;
    }

    /** Site positions by nodes left, most first, ties by name ascending. */
    Integer[] byMostLeft() {
        Integer[] order = new Integer[left.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
            left(i);
        }
        Arrays.sort(order, (a, b) -> left[a] != left[b] ? Integer.compare(left[b], left[a])
                : name(a).compareTo(name(b)));
        return order;
    }

    /** The first {@code k} sites of {@link #byMostLeft}, counting only the hosts of the sites that may be among them. */
    int[] topLeft(int k) {
        boolean[] taken = new boolean[left.length];
        int[] top = new int[Math.min(k, left.length)];
        for (int i = 0; i < top.length; i++) {
            top[i] = mostLeft(taken);
            taken[top[i]] = true;
        }
        return top;
    }

    long totalLeft() {
        long sum = 0;
        for (int i = 0; i < left.length; i++) {
            sum += left(i);
        }
        return sum;
    }

    /** Whether the sites have {@code nodes} left in all: {@code totalLeft() >= nodes}, counting no more sites than it takes. */
    boolean holdsInAll(long nodes) {
        long sum = 0;
        for (int i = 0; i < left.length && sum < nodes; i++) {
            sum += left(i);
        }
        return sum >= nodes;
    }

    long totalNodes() {
        long sum = 0;
        for (int i = 0; i < left.length; i++) {
            sum += Math.max(0, total(i));
        }
        return sum;
    }

    /** Hosts of the site that have room for one more node of the request now (0 where hosts are not known). */
    int hostsWithRoom(int site) {
        return hostsOf(site) == null ? 0 : hostsOf(site).withRoom(request());
    }

    /**
     * The host that comes closest to holding one node of the request in all, as "fs0-n13 with 16
     * cores, 64G and 2 GPUs", for the reason no host could ever hold it; null when no host is known.
     */
    String closestHost() {
        String best = null;
        double bestShare = -1;
        for (int i = 0; i < left.length; i++) {
            if (hostsOf(i) == null) {
                continue;
            }
            for (HostView h : sites.get(i).hosts()) {
                double share = coverage(h.total(), request());
                if (share > bestShare) {
                    bestShare = share;
                    best = h.host() + " with " + h.total().describe();
                }
            }
        }
        return best;
    }

    /** How much of the request a host's resources cover, in its shortest dimension (1 or more: it fits). */
    private static double coverage(Resources has, Resources need) {
        double share = Double.POSITIVE_INFINITY;
        share = Math.min(share, need.cores() == 0 ? share : (double) has.cores() / need.cores());
        share = Math.min(share, need.memoryMiB() == 0 ? share : (double) has.memoryMiB() / need.memoryMiB());
        share = Math.min(share, need.gpus() == 0 ? share : (double) has.gpus() / need.gpus());
        return share;
    }

    private int[] totals() {
        if (totalForRequest == null) {
            totalForRequest = new int[left.length];
            for (int i = 0; i < left.length; i++) {
                totalForRequest[i] = hostsOf(i) == null ? sites.get(i).totalNodes() : hostsOf(i).view.totalCapacity(request());
            }
        }
        return totalForRequest;
    }

    /**
     * One site's hosts during a decision: the view's free resources, copied on the first take so that
     * a decision that only looks costs no copy.
     */
    private static final class HostLedger {
        private final HostList view;
        private int[] cores;
        private long[] memory;
        private int[] gpus;
        /** The free resources pooled, once copied. */
        private Resources left;

        HostLedger(HostList view) {
            this.view = view;
        }

        /** Nodes of {@code per} that fit in the hosts' free resources now. */
        int capacity(Resources per) {
            return cores == null ? view.capacity(per) : HostList.capacity(cores, memory, gpus, per);
        }

        /** At least {@link #capacity}: the free resources pooled, from the view's sums less what this decision took. */
        int bound(Resources per) {
            return cores == null ? view.bound(per) : HostList.pooled(left, per);
        }

        int withRoom(Resources per) {
            copy();
            int n = 0;
            for (int h = 0; h < cores.length; h++) {
                if (Resources.count(cores[h], memory[h], gpus[h], per) > 0) {
                    n++;
                }
            }
            return n;
        }

        /**
         * The hosts of {@code nodes} nodes of {@code per}, taken off their free resources. Best fit on
         * the request's dominant resource (the dimension it asks the largest share of the site's total
         * of, as in Dominant Resource Fairness): each node goes to the host with the least of that
         * resource free that still holds it, ties by host name. Small requests thus fill the small or
         * busy hosts and leave the big ones whole for the requests only they can hold. A host that
         * takes a node stays the best fit while another fits, so it is filled before the next.
         */
        List<String> take(Resources per, int nodes) {
            copy();
            int dominant = dominant(per, view.totalSum);
            List<String> chosen = new ArrayList<>(nodes);
            int remaining = nodes;
            while (remaining > 0) {
                int best = -1;
                int fit = 0;
                for (int h = 0; h < cores.length; h++) {
                    int n = Resources.count(cores[h], memory[h], gpus[h], per);
                    if (n > 0 && (best < 0 || free(h, dominant) < free(best, dominant))) {
                        best = h;
                        fit = n;
                    }
                }
                if (best < 0) {
                    throw new IllegalStateException("the ledger counted room for " + nodes + " nodes of " + per + " that its hosts do not have");
                }
                int k = Math.min(fit, remaining);
                cores[best] -= k * per.cores();
                memory[best] -= k * per.memoryMiB();
                gpus[best] -= k * per.gpus();
                left = left.minus(per.times(k));
                String name = view.name(best);
                for (int i = 0; i < k; i++) {
                    chosen.add(name);
                }
                remaining -= k;
            }
            return chosen;
        }

        private long free(int host, int dimension) {
            return switch (dimension) {
                case 0 -> cores[host];
                case 1 -> memory[host];
                default -> gpus[host];
            };
        }

        /** 0 cores, 1 memory, 2 GPUs: the dimension {@code per} asks the largest share of {@code total} of; ties in that order. */
        private static int dominant(Resources per, Resources total) {
            double[] shares = {share(per.cores(), total.cores()), share(per.memoryMiB(), total.memoryMiB()),
                    share(per.gpus(), total.gpus())};
            int best = 0;
            for (int d = 1; d < shares.length; d++) {
                if (shares[d] > shares[best]) {
                    best = d;
                }
            }
            return best;
        }

        private static double share(long asked, long total) {
            if (asked == 0) {
                return 0;
            }
            return total == 0 ? Double.POSITIVE_INFINITY : (double) asked / total;
        }

        private void copy() {
            if (cores != null) {
                return;
            }
            cores = view.freeCores.clone();
            memory = view.freeMemory.clone();
            gpus = view.freeGpus.clone();
            left = view.freeSum;
        }
    }
}
