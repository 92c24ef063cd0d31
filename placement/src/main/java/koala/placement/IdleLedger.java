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
 */
final class IdleLedger {
    private final List<SiteView> sites;
    private final int[] left;
    private final boolean[] used;
    /** The free resources of the sites whose hosts are known, null for the others. */
    private final HostLedger[] hosts;
    private final boolean byResources;
    /** Whether no site shows more idle than it has: then a site with room now could ever hold as much. */
    private final boolean idleWithinTotal;
    private final int largestNodes;
    private Resources request;
    /** Per site, nodes of {@link #request} it holds in all; null until a reason or a check needs it. */
    private int[] totalForRequest;

    IdleLedger(List<SiteView> sites) {
        this.sites = sites;
        this.left = new int[sites.size()];
        this.used = new boolean[sites.size()];
        this.hosts = new HostLedger[sites.size()];
        int largest = 0;
        boolean any = false;
        boolean within = true;
        for (int i = 0; i < left.length; i++) {
            SiteView site = sites.get(i);
            left[i] = Math.max(0, site.idleNodes());
            largest = Math.max(largest, site.totalNodes());
            if (!site.hosts().isEmpty()) {
                hosts[i] = new HostLedger(site.hosts());
                any = true;
            } else {
                within &= left[i] <= site.totalNodes();
            }
        }
        this.largestNodes = largest;
        this.byResources = any;
        this.idleWithinTotal = within;
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
        if (byResources) {
            for (int i = 0; i < left.length; i++) {
                if (hosts[i] != null) {
                    left[i] = hosts[i].capacity(perNode);
                }
            }
        }
    }

    /** Whether some site's hosts are known, so that reasons speak of resources. */
    boolean byResources() {
        return byResources;
    }

    boolean knowsHosts(int site) {
        return hosts[site] != null;
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
        if (hosts[site] == null) {
            return sites.get(site).totalNodes();
        }
        return totals()[site];
    }

    /** Idle nodes the view shows, before this job took any. */
    int idle(int site) {
        if (hosts[site] == null) {
            return Math.max(0, sites.get(site).idleNodes());
        }
        return hosts[site].viewCapacity(request());
    }

    /** Idle nodes left after this job's components placed so far. */
    int left(int site) {
        return left[site];
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
        if (hosts[site] == null) {
            left[site] -= nodes;
            return List.of();
        }
        List<String> chosen = hosts[site].take(request(), nodes);
        left[site] = hosts[site].capacity(request());
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
        int max = 0;
        for (int n : left) {
            max = Math.max(max, n);
        }
        return max;
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
        int best = -1;
        for (int i = 0; i < left.length; i++) {
            if (best < 0 || moreLeft(i, best)) {
                best = i;
            }
        }
        return best;
    }

    /** Whether site {@code a} has more nodes left than {@code b}, or as many and a lower name. */
    boolean moreLeft(int a, int b) {
        if (left[a] != left[b]) {
            return left[a] > left[b];
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
        }
        Arrays.sort(order, (a, b) -> left[a] != left[b] ? Integer.compare(left[b], left[a])
                : name(a).compareTo(name(b)));
        return order;
    }

    long totalLeft() {
        long sum = 0;
        for (int n : left) {
            sum += n;
        }
        return sum;
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
        return hosts[site] == null ? 0 : hosts[site].withRoom(request());
    }

    /**
     * The host that comes closest to holding one node of the request in all, as "fs0-n13 with 16
     * cores, 64G and 2 GPUs", for the reason no host could ever hold it; null when no host is known.
     */
    String closestHost() {
        String best = null;
        double bestShare = -1;
        for (int i = 0; i < left.length; i++) {
            if (hosts[i] == null) {
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
                totalForRequest[i] = hosts[i] == null ? sites.get(i).totalNodes() : hosts[i].totalCapacity(request());
            }
        }
        return totalForRequest;
    }

    /**
     * One site's hosts during a decision: the view's free resources, copied on the first take so that
     * a decision that only looks costs no copy.
     */
    private static final class HostLedger {
        private final List<HostView> view;
        private int[] cores;
        private long[] memory;
        private int[] gpus;

        HostLedger(List<HostView> view) {
            this.view = view;
        }

        /** Nodes of {@code per} that fit in the hosts' free resources now. */
        int capacity(Resources per) {
            if (cores == null) {
                return viewCapacity(per);
            }
            long sum = 0;
            for (int h = 0; h < cores.length; h++) {
                sum += Resources.count(cores[h], memory[h], gpus[h], per);
            }
            return (int) Math.min(Integer.MAX_VALUE, sum);
        }

        int viewCapacity(Resources per) {
            long sum = 0;
            for (HostView h : view) {
                Resources f = h.free();
                sum += Resources.count(f.cores(), f.memoryMiB(), f.gpus(), per);
            }
            return (int) Math.min(Integer.MAX_VALUE, sum);
        }

        int totalCapacity(Resources per) {
            long sum = 0;
            for (HostView h : view) {
                sum += h.total().count(per);
            }
            return (int) Math.min(Integer.MAX_VALUE, sum);
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
            int dominant = dominant(per);
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
                String name = view.get(best).host();
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

        /** 0 cores, 1 memory, 2 GPUs: the dimension {@code per} asks the largest share of the site's total of; ties in that order. */
        private int dominant(Resources per) {
            long totalCores = 0;
            long totalMemory = 0;
            long totalGpus = 0;
            for (HostView h : view) {
                totalCores += h.total().cores();
                totalMemory += h.total().memoryMiB();
                totalGpus += h.total().gpus();
            }
            double[] shares = {share(per.cores(), totalCores), share(per.memoryMiB(), totalMemory), share(per.gpus(), totalGpus)};
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
            cores = new int[view.size()];
            memory = new long[view.size()];
            gpus = new int[view.size()];
            for (int h = 0; h < cores.length; h++) {
                Resources f = view.get(h).free();
                cores[h] = f.cores();
                memory[h] = f.memoryMiB();
                gpus[h] = f.gpus();
            }
        }
    }
}
