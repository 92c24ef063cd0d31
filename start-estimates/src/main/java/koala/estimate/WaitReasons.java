package koala.estimate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import koala.placement.Assignment;

/**
 * Why jobs wait, read off the likely run: on each site a job goes to, the work that ended there last before its
 * start (what made room), and the jobs ahead of it in the queue that started there first (what took room).
 * Built once per likely run: per site, what ended there and which queued jobs started there.
 */
final class WaitReasons {
    private final GridIndex ix;
    private final VirtualRun likely;
    /** Per site, the ids of what ended there in the order it ended, and when. */
    private final List<List<VirtualRun.Released>> ended = new ArrayList<>();
    /** Per site, the queue positions of the jobs that started there, in queue order. */
    private final List<List<Integer>> started = new ArrayList<>();

    WaitReasons(GridIndex ix, VirtualRun likely) {
        this.ix = ix;
        this.likely = likely;
        for (int s = 0; s < ix.sites(); s++) {
            ended.add(new ArrayList<>());
            started.add(new ArrayList<>());
        }
        for (VirtualRun.Released r : likely.log) {
            r.sites().forEach(s -> ended.get(s).add(r));
        }
        for (int j = 0; j < likely.starts.length; j++) {
            for (int s : sites(j)) {
                started.get(s).add(j);
            }
        }
    }

    private Set<Integer> sites(int j) {
        Set<Integer> sites = new LinkedHashSet<>();
        for (Assignment a : likely.where.get(j)) {
            sites.add(ix.siteIndex.get(a.site()));
        }
        return sites;
    }

    List<Estimate.SiteWait> of(int j) {
        long start = likely.starts[j];
        List<Estimate.SiteWait> waits = new ArrayList<>();
        for (int s : sites(j)) {
            waits.add(new Estimate.SiteWait(ix.siteNames[s], Instant.ofEpochMilli(start), ending(s, start), ahead(s, j)));
        }
        return waits;
    }

    /** The last few to end on the site by {@code start}, in the order they ended. */
    private List<String> ending(int s, long start) {
        List<VirtualRun.Released> all = ended.get(s);
        int to = 0;
        while (to < all.size() && all.get(to).at() <= start) {
            to++;
        }
        Set<String> ids = new LinkedHashSet<>();
        for (int i = to - 1; i >= 0 && ids.size() < Estimate.SiteWait.LISTED; i--) {
            ids.add(all.get(i).id());
        }
        List<String> inOrder = new ArrayList<>(ids);
        java.util.Collections.reverse(inOrder);
        return inOrder;
    }

    /** The first few jobs ahead of {@code j} in the queue that started on the site by its start. */
    private List<String> ahead(int s, int j) {
        List<String> ids = new ArrayList<>();
        for (int i : started.get(s)) {
            if (i >= j || ids.size() == Estimate.SiteWait.LISTED) {
                break;
            }
            if (likely.starts[i] <= likely.starts[j]) {
                ids.add(ix.snapshot.queue().get(i).id());
            }
        }
        return ids;
    }
}
