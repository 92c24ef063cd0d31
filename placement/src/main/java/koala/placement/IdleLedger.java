package koala.placement;

import java.util.Arrays;
import java.util.List;

/**
 * The sites' idle nodes while one job is being placed: the grid view's idle counts (a negative
 * count read as 0) less what this job's components already took. It lives for one decision and is
 * never shared, so the policies stay free of side effects.
 *
 * <p>Sites are addressed by their position in the grid view. Every "best site" question breaks
 * ties by site name, never by that position, so the order of the view does not matter.
 */
final class IdleLedger {
    private final List<SiteView> sites;
    private final int[] left;
    private final boolean[] used;
    private final int largestTotal;

    IdleLedger(List<SiteView> sites) {
        this.sites = sites;
        this.left = new int[sites.size()];
        this.used = new boolean[sites.size()];
        int largest = 0;
        for (int i = 0; i < left.length; i++) {
            SiteView site = sites.get(i);
            left[i] = Math.max(0, site.idleNodes());
            largest = Math.max(largest, site.totalNodes());
        }
        this.largestTotal = largest;
    }

    int size() {
        return left.length;
    }

    String name(int site) {
        return sites.get(site).site();
    }

    int total(int site) {
        return sites.get(site).totalNodes();
    }

    /** Idle nodes the view shows, before this job took any. */
    int idle(int site) {
        return Math.max(0, sites.get(site).idleNodes());
    }

    /** Idle nodes left after this job's components placed so far. */
    int left(int site) {
        return left[site];
    }

    /** Whether a component of this job already went to the site. */
    boolean used(int site) {
        return used[site];
    }

    void take(int site, int nodes) {
        left[site] -= nodes;
        used[site] = true;
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

    /** The most nodes any site has in all (0 when the grid is empty). */
    int largestTotal() {
        return largestTotal;
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
        for (SiteView s : sites) {
            sum += Math.max(0, s.totalNodes());
        }
        return sum;
    }
}
