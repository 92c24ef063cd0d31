package koala.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.api.site.CellJob;
import koala.api.site.CellSnapshot;
import koala.placement.FileLocations;
import koala.placement.GridView;
import koala.placement.SiteView;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.kis.SiteInfo;

/**
 * The grid as placement must see it. A site's idle nodes are those its snapshot shows free, plus
 * those this scheduler's running pilots occupy in the snapshot, minus every node its own books say
 * it holds or is claiming there: a pilot still queued in SGE takes no slot yet, but its node is
 * spoken for, and the books are newer than the last snapshot. Another scheduler's pilots in the
 * same cell are load like any user's.
 */
final class GridViews {
    private GridViews() {
    }

    /**
     * @param held nodes KOALA holds or is claiming, per site
     * @param pilotTag the mark in this scheduler's pilot names
     */
    static GridView of(List<SiteInfo> sites, Map<String, Integer> held, String pilotTag, FileLocations files) {
        return of(sites, held, Map.of(), pilotTag, files);
    }

    /**
     * @param heldOnHosts of those, the nodes whose host is known (arrived, or pinned), per host: a site's
     *                    idle hosts are counted as its idle nodes are, host by host
     */
    static GridView of(List<SiteInfo> sites, Map<String, Integer> held, Map<String, Integer> heldOnHosts,
                       String pilotTag, FileLocations files) {
        List<SiteView> views = new ArrayList<>();
        for (SiteInfo info : sites) {
            if (!info.up()) {
                continue; // a site whose agent is down gets no new work
            }
            CellSnapshot s = info.snapshot();
            List<CellJob> ours = s.jobs().stream().filter(j -> j.running() && j.koala()
                    && NodeClaim.isPilotName(j.name(), pilotTag)).toList();
            int idle = s.slotsFree() + ours.stream().mapToInt(CellJob::slots).sum() - held.getOrDefault(info.site(), 0);
            views.add(new SiteView(info.site(), s.slotsTotal(), Math.max(0, Math.min(idle, s.slotsTotal())),
                    idleHosts(s, ours, heldOnHosts)));
        }
        return new GridView(views, files);
    }

    /** Per host of the cell with a slot free after what this scheduler's books hold there: how many. */
    private static Map<String, Integer> idleHosts(CellSnapshot s, List<CellJob> ours, Map<String, Integer> heldOnHosts) {
        Map<String, Integer> free = new java.util.TreeMap<>();
        s.queues().forEach(q -> free.merge(q.host(), q.slotsFree(), Integer::sum));
        for (CellJob j : ours) {
            String host = j.queue().substring(j.queue().indexOf('@') + 1);
            free.computeIfPresent(host, (h, n) -> n + j.slots());
        }
        free.replaceAll((h, n) -> n - heldOnHosts.getOrDefault(h, 0));
        free.values().removeIf(n -> n < 1);
        return free;
    }
}
