package koala.estimate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import koala.placement.Assignment;
import koala.placement.FileLocations;
import koala.placement.GridView;
import koala.placement.HostView;
import koala.placement.PlacementDecision;
import koala.placement.PlacementReason;
import koala.placement.Resources;
import koala.placement.SiteView;

/**
 * One replay of the placement queue forward in virtual time from a snapshot, with given end times of the work
 * holding resources now, given runtimes of the queued jobs and given local load: the scheduler's rounds as
 * they would go. The queue is tried at {@code now} and then only at the instants work ends (nothing else
 * changes what placement sees), each job against what the ones before it left; the run stops once every job
 * has started or nothing more ends.
 *
 * <p>Cheap by construction: a job is not given to its policy when the grid's free cores, or the most free on
 * one site, cannot hold it, nor when a job of the same shape and policy failed earlier in the same round
 * (within a round resources only get fewer); only the sites that changed get a new view.
 */
final class VirtualRun {
    static final long NEVER = Long.MAX_VALUE;

    /** Work ending at {@code at}, or (explain) a record that it did, on which sites. */
    private record Release(long at, int holding) {
    }

    /** In the likely run: {@code id} ended at {@code at}, giving back resources on those sites. */
    record Released(long at, String id, Set<Integer> sites) {
    }

    private final GridIndex ix;
    private final long[] runtimes;
    private final int[] localExtra;
    private final boolean explain;
    private final Resources[] free;
    private final int[] siteFree;
    private final SiteView[] views;
    /** Each host as placement sees it, made anew only when what is free on it changes. */
    private final HostView[] hostViews;
    private final boolean[] dirty;
    private boolean anyDirty = true;
    private GridView grid;
    private final PriorityQueue<Release> releases = new PriorityQueue<>((a, b) -> Long.compare(a.at, b.at));
    private final List<int[]> holdingHosts = new ArrayList<>();
    private final List<Resources[]> holdingHolds = new ArrayList<>();
    private final List<String> holdingIds = new ArrayList<>();
    private final int[] waiting;
    private int waitingCount;
    /** The round in which a job of each shape last failed. */
    private final int[] blockedIn;
    private int round;
    private int totalFree;
    private int mostOnOneSite;

    /** Start per queue position ({@link #NEVER} when it does not start); the rest only when explaining. */
    final long[] starts;
    final List<List<Assignment>> where;
    final List<List<PlacementReason>> reasonsNow;
    final List<Released> log = new ArrayList<>();

    private VirtualRun(GridIndex ix, long[] holderEnds, long[] runtimes, int[] localExtra, boolean explain) {
        this.ix = ix;
        this.runtimes = runtimes;
        this.localExtra = localExtra.clone();
        this.explain = explain;
        free = ix.free.clone();
        siteFree = new int[ix.sites()];
        for (int h = 0; h < free.length; h++) {
            siteFree[ix.siteOf[h]] += free[h].cores();
        }
        views = new SiteView[ix.sites()];
        hostViews = new HostView[free.length];
        dirty = new boolean[ix.sites()];
        Arrays.fill(dirty, true);
        for (int i = 0; i < ix.holderIds.length; i++) {
            hold(ix.holderIds[i], ix.holderHosts[i], ix.holderHolds[i], false);
            releases.add(new Release(Math.max(ix.now, holderEnds[i]), i));
        }
        waiting = ix.placeable.clone();
        blockedIn = new int[ix.shape.length];
        waitingCount = waiting.length;
        int n = ix.snapshot.queue().size();
        starts = new long[n];
        Arrays.fill(starts, NEVER);
        where = explain ? new ArrayList<>(java.util.Collections.nCopies(n, List.of())) : null;
        reasonsNow = explain ? new ArrayList<>(java.util.Collections.nCopies(n, List.of())) : null;
    }

    /**
     * Replays the queue.
     *
     * @param holderEnds when each holder of {@code ix} gives its resources back (ms since the epoch)
     * @param runtimes   per queue position, how long the job runs once started (ms)
     * @param localExtra per site, cores local users take from the first that are free or come free
     * @param explain    whether to keep where each job went, why it waited at {@code now} and what ended when
     */
    static VirtualRun run(GridIndex ix, long[] holderEnds, long[] runtimes, int[] localExtra, boolean explain) {
        VirtualRun run = new VirtualRun(ix, holderEnds, runtimes, localExtra, explain);
        run.replay();
        return run;
    }

    private void replay() {
        long time = ix.now;
        while (true) {
            releaseDue(time);
            absorbLocal();
            tryQueue(time);
            if (waitingCount == 0 || releases.isEmpty()) {
                return;
            }
            time = releases.peek().at;
        }
    }

    /** Takes resources for a holding; a started job's are taken from what is free, a holder's are not free already. */
    private int hold(String id, int[] hosts, Resources[] holds, boolean take) {
        holdingIds.add(id);
        holdingHosts.add(hosts);
        holdingHolds.add(holds);
        if (take) {
            for (int k = 0; k < hosts.length; k++) {
                change(hosts[k], free[hosts[k]].minus(holds[k]));
            }
        }
        return holdingIds.size() - 1;
    }

    private void change(int host, Resources now) {
        int s = ix.siteOf[host];
        siteFree[s] += now.cores() - free[host].cores();
        free[host] = now;
        hostViews[host] = null;
        dirty[s] = true;
        anyDirty = true;
    }

    private void releaseDue(long time) {
        while (!releases.isEmpty() && releases.peek().at <= time) {
            Release r = releases.poll();
            int[] hosts = holdingHosts.get(r.holding);
            Resources[] holds = holdingHolds.get(r.holding);
            Set<Integer> sites = explain ? new HashSet<>() : null;
            for (int k = 0; k < hosts.length; k++) {
                change(hosts[k], free[hosts[k]].plus(holds[k]));
                if (explain) {
                    sites.add(ix.siteOf[hosts[k]]);
                }
            }
            if (explain) {
                log.add(new Released(r.at, holdingIds.get(r.holding), sites));
            }
        }
    }

    /** Local users take their extra share from the first cores free on their site, and then hold it. */
    private void absorbLocal() {
        for (int s = 0; s < localExtra.length; s++) {
            for (int k = 0; localExtra[s] > 0 && siteFree[s] > 0 && k < ix.siteHosts[s].length; k++) {
                int h = ix.siteHosts[s][k];
                int take = Math.min(localExtra[s], free[h].cores());
                if (take > 0) {
                    change(h, new Resources(free[h].cores() - take, free[h].memoryMiB(), free[h].gpus()));
                    localExtra[s] -= take;
                }
            }
        }
    }

    private void tryQueue(long time) {
        boolean askAll = explain && time == ix.now;
        round++;
        totals();
        int kept = 0;
        for (int i = 0; i < waitingCount; i++) {
            int j = waiting[i];
            QueuedJob q = ix.snapshot.queue().get(j);
            if (!askAll && (blockedIn[ix.shape[j]] == round || cannot(j))) {
                waiting[kept++] = j;
                continue;
            }
            PlacementDecision d = q.policy().place(q.need(), view());
            if (d instanceof PlacementDecision.Placed placed) {
                start(j, placed.assignments(), time);
                totals();
            } else {
                blockedIn[ix.shape[j]] = round;
                if (askAll) {
                    reasonsNow.set(j, ((PlacementDecision.NotPlaced) d).reasons());
                }
                waiting[kept++] = j;
            }
        }
        waitingCount = kept;
    }

    /** Whether the free cores cannot hold the job: the grid's, the most on one site, or its fixed sites'. */
    private boolean cannot(int j) {
        if (ix.coresInAll[j] > totalFree || ix.coresOnOneSite[j] > mostOnOneSite) {
            return true;
        }
        for (int k = 0; k < ix.fixedSites[j].length; k++) {
            if (ix.fixedCores[j][k] > siteFree[ix.fixedSites[j][k]]) {
                return true;
            }
        }
        return false;
    }

    private void totals() {
        totalFree = 0;
        mostOnOneSite = 0;
        for (int f : siteFree) {
            totalFree += f;
            mostOnOneSite = Math.max(mostOnOneSite, f);
        }
    }

    private void start(int j, List<Assignment> assignments, long time) {
        QueuedJob q = ix.snapshot.queue().get(j);
        List<Integer> hosts = new ArrayList<>();
        List<Resources> holds = new ArrayList<>();
        for (Assignment a : assignments) {
            Resources per = q.need().components().get(a.component()).perNode();
            for (int k = 0; k < a.nodes(); k++) {
                hosts.add(ix.host(a.site(), a.host(k)));
                holds.add(per);
            }
        }
        int holding = hold(q.id(), hosts.stream().mapToInt(Integer::intValue).toArray(), holds.toArray(Resources[]::new), true);
        releases.add(new Release(time + runtimes[j], holding));
        starts[j] = time;
        if (explain) {
            where.set(j, assignments);
        }
    }

    private GridView view() {
        if (anyDirty) {
            for (int s = 0; s < views.length; s++) {
                if (dirty[s]) {
                    views[s] = siteView(s);
                    dirty[s] = false;
                }
            }
            grid = new GridView(Arrays.asList(views), FileLocations.NONE);
            anyDirty = false;
        }
        return grid;
    }

    private SiteView siteView(int s) {
        SiteState site = ix.snapshot.sites().get(s);
        List<HostView> hosts = new ArrayList<>(ix.siteHosts[s].length);
        for (int k = 0; k < ix.siteHosts[s].length; k++) {
            int h = ix.siteHosts[s][k];
            if (hostViews[h] == null) {
                hostViews[h] = new HostView(site.hosts().get(k).name(), ix.total[h], free[h]);
            }
            hosts.add(hostViews[h]);
        }
        return new SiteView(site.name(), hosts);
    }
}
