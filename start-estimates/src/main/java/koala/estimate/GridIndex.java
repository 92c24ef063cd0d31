package koala.estimate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import koala.placement.ComponentNeed;
import koala.placement.Resources;

/**
 * A snapshot laid out in arrays for the virtual runs: hosts by number, the work holding resources now
 * (running jobs, claims, shrinks, in that order: the "holders") and the jobs: the queued ones, then the ones
 * submitted lately that future submissions are drawn from ({@link Arrivals#recent}).
 */
final class GridIndex {
    final GridSnapshot snapshot;
    final long now;
    final String[] siteNames;
    final int[][] siteHosts;
    final int[] siteOf;
    final Resources[] total;
    final Resources[] free;
    final Map<String, Integer> siteIndex = new HashMap<>();
    /** Per site, its hosts' numbers by name. */
    final List<Map<String, Integer>> hostIndex = new ArrayList<>();
    final String[] holderIds;
    final int[][] holderHosts;
    final Resources[][] holderHolds;
    /** Per host, cores neither free nor held by a holder: local users'. */
    final int[] localCores;
    /** The queued jobs, then the submitted lately; the first {@link #queued} are the queue. */
    final List<QueuedJob> jobs;
    final int queued;
    /** Positions in the snapshot's queue of the jobs placement can place at all, in queue order. */
    final int[] placeable;
    /** Positions in {@link #jobs} of the submitted lately that placement can place at all. */
    final int[] templates;
    /** Per job: cores it asks for in all, and the most any one of its components asks of one site. */
    final int[] coresInAll;
    final int[] coresOnOneSite;
    /** Per queued job, the site of each fixed component and the cores it asks there (parallel arrays). */
    final int[][] fixedSites;
    final int[][] fixedCores;
    final boolean[] fixed;
    /** Per queued job, a number shared by the jobs of the same policy and components: within a round one fails for all. */
    final int[] shape;

    GridIndex(GridSnapshot snapshot, int[] placeable, int[] templates) {
        this.snapshot = snapshot;
        this.now = snapshot.now().toEpochMilli();
        this.placeable = placeable;
        this.templates = templates;
        List<QueuedJob> all = new ArrayList<>(snapshot.queue());
        all.addAll(snapshot.arrivals().recent());
        this.jobs = List.copyOf(all);
        this.queued = snapshot.queue().size();
        int sites = snapshot.sites().size();
        siteNames = new String[sites];
        siteHosts = new int[sites][];
        List<HostState> hosts = new ArrayList<>();
        List<Integer> of = new ArrayList<>();
        for (int s = 0; s < sites; s++) {
            SiteState site = snapshot.sites().get(s);
            siteNames[s] = site.name();
            siteIndex.put(site.name(), s);
            hostIndex.add(new HashMap<>());
            siteHosts[s] = new int[site.hosts().size()];
            for (int k = 0; k < site.hosts().size(); k++) {
                siteHosts[s][k] = hosts.size();
                hostIndex.get(s).put(site.hosts().get(k).name(), hosts.size());
                hosts.add(site.hosts().get(k));
                of.add(s);
            }
        }
        siteOf = of.stream().mapToInt(Integer::intValue).toArray();
        total = hosts.stream().map(HostState::total).toArray(Resources[]::new);
        free = hosts.stream().map(HostState::free).toArray(Resources[]::new);
        List<String> ids = new ArrayList<>();
        List<List<Hold>> holds = new ArrayList<>();
        snapshot.running().forEach(r -> add(ids, holds, r.id(), r.holds()));
        snapshot.claims().forEach(c -> add(ids, holds, c.jobId(), c.holds()));
        snapshot.shrinks().forEach(s -> add(ids, holds, s.instance(), List.of(s.hold())));
        holderIds = ids.toArray(String[]::new);
        holderHosts = new int[ids.size()][];
        holderHolds = new Resources[ids.size()][];
        for (int i = 0; i < ids.size(); i++) {
            holderHosts[i] = holds.get(i).stream().mapToInt(h -> host(h.site(), h.host())).toArray();
            holderHolds[i] = holds.get(i).stream().map(Hold::held).toArray(Resources[]::new);
        }
        int n = jobs.size();
        localCores = new int[total.length];
        for (int h = 0; h < total.length; h++) {
            localCores[h] = total[h].cores() - free[h].cores();
        }
        for (int i = 0; i < holderHosts.length; i++) {
            for (int k = 0; k < holderHosts[i].length; k++) {
                localCores[holderHosts[i][k]] -= holderHolds[i][k].cores();
            }
        }
        for (int h = 0; h < total.length; h++) {
            localCores[h] = Math.max(0, localCores[h]);
        }
        coresInAll = new int[n];
        coresOnOneSite = new int[n];
        fixedSites = new int[n][];
        fixedCores = new int[n][];
        fixed = new boolean[n];
        shape = new int[n];
        Map<List<Object>, Integer> shapes = new HashMap<>();
        for (int j = 0; j < n; j++) {
            QueuedJob q = jobs.get(j);
            List<Integer> fs = new ArrayList<>();
            List<Integer> fc = new ArrayList<>();
            for (ComponentNeed c : q.need().components()) {
                int cores = c.nodes() * c.perNode().cores();
                coresInAll[j] += cores;
                // a flexible job's component may be split, so only its total bounds it
                coresOnOneSite[j] = q.need().flexible() ? 0 : Math.max(coresOnOneSite[j], cores);
                Integer site = c.fixedSite() == null ? null : siteIndex.get(c.fixedSite());
                if (site != null) {
                    fs.add(site);
                    fc.add(cores);
                }
            }
            fixedSites[j] = fs.stream().mapToInt(Integer::intValue).toArray();
            fixedCores[j] = fc.stream().mapToInt(Integer::intValue).toArray();
            fixed[j] = !fs.isEmpty();
            shape[j] = shapes.computeIfAbsent(List.of(q.policy(), q.need().components(), q.need().flexible()), k -> shapes.size());
        }
    }

    private static void add(List<String> ids, List<List<Hold>> holds, String id, List<Hold> held) {
        ids.add(id);
        holds.add(held);
    }

    /** The number of a host, named by its site and its name. */
    int host(String site, String host) {
        Integer s = siteIndex.get(site);
        Integer h = s == null ? null : hostIndex.get(s).get(host);
        if (h == null) {
            throw new IllegalArgumentException("the snapshot holds resources on " + host + " of " + site
                    + ", which it does not list");
        }
        return h;
    }

    /** Cores local users hold on the site now, as the hosts and the holders say. */
    int localOn(int s) {
        int sum = 0;
        for (int h : siteHosts[s]) {
            sum += localCores[h];
        }
        return sum;
    }

    int sites() {
        return siteNames.length;
    }
}
