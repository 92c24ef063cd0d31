package koala.estimate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import koala.placement.Assignment;

/**
 * Why a job waits, read off the likely run: on each site it goes to, the work that ended there between now and
 * its start, and the jobs ahead of it in the queue that started there first.
 */
final class WaitReasons {
    private WaitReasons() {
    }

    static List<Estimate.SiteWait> of(GridIndex ix, VirtualRun likely, int j) {
        long start = likely.starts[j];
        List<Estimate.SiteWait> waits = new ArrayList<>();
        for (Assignment a : likely.where.get(j)) {
            int s = List.of(ix.siteNames).indexOf(a.site());
            if (waits.stream().anyMatch(w -> w.site().equals(a.site()))) {
                continue;
            }
            Set<String> ending = new LinkedHashSet<>();
            for (VirtualRun.Released r : likely.log) {
                if (r.at() <= start && r.sites().contains(s) && ending.size() < Estimate.SiteWait.LISTED) {
                    ending.add(r.id());
                }
            }
            waits.add(new Estimate.SiteWait(a.site(), Instant.ofEpochMilli(start), List.copyOf(ending), ahead(ix, likely, j, a.site())));
        }
        return waits;
    }

    private static List<String> ahead(GridIndex ix, VirtualRun likely, int j, String site) {
        List<String> ahead = new ArrayList<>();
        for (int i = 0; i < j && ahead.size() < Estimate.SiteWait.LISTED; i++) {
            if (likely.starts[i] <= likely.starts[j]
                    && likely.where.get(i).stream().anyMatch(a -> a.site().equals(site))) {
                ahead.add(ix.snapshot.queue().get(i).id());
            }
        }
        return ahead;
    }
}
