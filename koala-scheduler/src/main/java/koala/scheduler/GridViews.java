package koala.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import koala.api.site.CellJob;
import koala.api.site.CellSnapshot;
import koala.api.site.HostInfo;
import koala.api.site.HostResources;
import koala.placement.FileLocations;
import koala.placement.GridView;
import koala.placement.HostView;
import koala.placement.Resources;
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

    /**
     * A node KOALA's books hold on a known host (arrived, or pinned there by placement).
     *
     * @param pilot   its pilot's SGE job id, null until the site accepted the pilot
     * @param perNode what the node asks of the host
     */
    record HeldClaim(String host, String pilot, Resources perNode) {
    }

    /**
     * The grid host by host, for a job whose nodes ask for cores, memory or GPUs. A host's free
     * resources are what SGE says is free of them (its consumables count every running job, a local
     * user's and KOALA's pilots alike), less what KOALA's books hold there that SGE does not count
     * yet: a node whose pilot is not running on the host in the snapshot (still queued, or submitted
     * after it was taken). A site whose agent does not report hosts' resources is seen in idle nodes,
     * as {@link #of}, and then SGE chooses the hosts.
     *
     * @param held   slots KOALA's books hold per site (for the sites seen in idle nodes)
     * @param claims the nodes KOALA's books hold on known hosts
     */
    static GridView byResources(List<SiteInfo> sites, Map<String, Integer> held, Map<String, HeldClaim> claims,
                                String pilotTag, FileLocations files) {
        Map<String, List<HeldClaim>> byHost = new java.util.HashMap<>();
        claims.values().forEach(c -> byHost.computeIfAbsent(c.host(), h -> new ArrayList<>()).add(c));
        List<SiteView> views = new ArrayList<>();
        for (SiteView nodes : of(sites, held, pilotTag, files).sites()) {
            SiteInfo info = sites.stream().filter(i -> i.site().equals(nodes.site())).findFirst().orElseThrow();
            List<HostView> hosts = hostViews(info.snapshot(), byHost, pilotTag);
            views.add(hosts.isEmpty() ? nodes : new SiteView(nodes.site(), hosts));
        }
        return new GridView(views, files);
    }

    /** The cell's hosts with their free resources; empty when some host's resources are not known. */
    private static List<HostView> hostViews(CellSnapshot s, Map<String, List<HeldClaim>> held, String pilotTag) {
        java.util.Set<String> running = new java.util.HashSet<>();
        s.jobs().stream().filter(j -> j.running() && j.koala() && NodeClaim.isPilotName(j.name(), pilotTag))
                .forEach(j -> running.add(j.id()));
        List<HostView> hosts = new ArrayList<>();
        for (HostInfo h : s.hosts()) {
            HostResources r = h.resources();
            if (r == null) {
                return List.of();
            }
            Resources total = new Resources(r.cores(), r.memoryMib() == null ? 0 : r.memoryMib(), r.gpus());
            long[] free = {r.coresFree(), r.memoryFreeMib() == null ? 0 : r.memoryFreeMib(), r.gpusFree()};
            for (HeldClaim c : held.getOrDefault(h.name(), List.of())) {
                if (c.pilot() == null || !running.contains(c.pilot())) {
                    free[0] -= c.perNode().cores();
                    free[1] -= c.perNode().memoryMiB();
                    free[2] -= c.perNode().gpus();
                }
            }
            hosts.add(new HostView(h.name(), total, new Resources((int) within(free[0], total.cores()),
                    within(free[1], total.memoryMiB()), (int) within(free[2], total.gpus()))));
        }
        return hosts;
    }

    private static long within(long value, long most) {
        return Math.max(0, Math.min(value, most));
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
