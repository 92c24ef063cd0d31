package koala.scheduler;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import koala.placement.FileLocations;
import koala.placement.GridView;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.kis.SiteInfo;
import koala.scheduler.kis.SiteInfos;

/**
 * The grid as KOALA sees it now: each site's snapshot from the information service, less the nodes KOALA's
 * own books hold or are claiming ({@link GridViews}); and as one owner's work may use it, single-tenant sites
 * that hold another owner's work showing none idle.
 */
final class GridNow {
    private final List<String> siteNames;
    private final SiteInfos kis;
    private final JobBook book;
    private final Pilots pilots;
    /** The tag in this scheduler's pilots' names (the store keeps it). */
    private final java.util.function.Supplier<String> pilotTag;
    private FileLocations files;

    /** @param siteNames the grid's sites, in the configuration's order */
    GridNow(List<String> siteNames, SiteInfos kis, JobBook book, Pilots pilots, java.util.function.Supplier<String> pilotTag,
            FileLocations files) {
        this.siteNames = List.copyOf(siteNames);
        this.kis = kis;
        this.book = book;
        this.pilots = pilots;
        this.pilotTag = pilotTag;
        this.files = files;
    }

    /** The Close-to-Files catalog from now on (a re-read configuration's). */
    void files(FileLocations catalog) {
        this.files = catalog;
    }

    /**
     * The grid as {@code owner}'s work may use it: a single-tenant site (every user's pilots run there
     * as one account, so one user's processes could read another's secrets) that holds another
     * owner's nodes shows none idle to this owner.
     */
    GridView viewFor(String owner) {
        return viewFor(owner, view());
    }

    /** As {@link #viewFor(String)}, over {@code all}. */
    GridView viewFor(String owner, GridView all) {
        List<String> closed = closedTo(owner);
        if (closed.isEmpty()) {
            return all;
        }
        return new GridView(all.sites().stream().map(s -> closed.contains(s.site())
                ? new koala.placement.SiteView(s.site(), s.totalNodes(), 0) : s).toList(), all.files());
    }

    /** The single-tenant sites that hold nodes of an owner other than {@code owner} now, in the sites' order. */
    List<String> closedTo(String owner) {
        if (siteNames.stream().noneMatch(pilots::singleTenant)) {
            return List.of(); // a grid of local sites only: no pass over every job on each placement
        }
        String who = owner == null ? "" : owner;
        java.util.Set<String> closed = new java.util.HashSet<>();
        for (Job j : book.all()) {
            String theirs = j.record().owner() == null ? "" : j.record().owner();
            if (!theirs.equals(who)) {
                j.heldNodes().stream().map(NodeClaim::site).filter(pilots::singleTenant).forEach(closed::add);
            }
        }
        return siteNames.stream().filter(closed::contains).toList();
    }

    /** Why a job waits, when single-tenant sites held by other users' work are closed to it. */
    static String singleTenantNote(List<String> closed) {
        return closed.isEmpty() ? "" : "; " + String.join(", ", closed) + (closed.size() == 1 ? " runs" : " run")
                + " every user's pilots as one account and " + (closed.size() == 1 ? "holds" : "hold")
                + " another user's work now: no other user's work goes there until it ends";
    }

    /** Every site as its snapshot shows it, less the nodes KOALA's books hold or claim. */
    GridView view() {
        return view(held());
    }

    /** As {@link #view()}, with the nodes {@code held} counted. */
    GridView view(Held held) {
        List<SiteInfo> infos = siteNames.stream().map(kis::site).flatMap(Optional::stream).toList();
        return GridViews.of(infos, held.sites(), held.hosts(), pilotTag.get(), files);
    }

    /**
     * The grid as {@code job}'s placement must see it: host by host, with each host's free cores,
     * memory and GPUs, when the job asks for more than a core per node ({@link NodeNeeds#byResources});
     * else in idle nodes, as {@link #view(Held)}.
     */
    GridView view(Held held, Job job) {
        return NodeNeeds.byResources(job.description()) ? byResources(held) : view(held);
    }

    /** The grid host by host, with what is free of each host's resources ({@link GridViews#byResources}). */
    GridView byResources(Held held) {
        List<SiteInfo> infos = siteNames.stream().map(kis::site).flatMap(Optional::stream).toList();
        return GridViews.byResources(infos, held.sites(), held.claims(), pilotTag.get(), files);
    }

    /** The nodes KOALA's books hold or are claiming. */
    Held held() {
        Held held = new Held(new HashMap<>(), new HashMap<>(), new HashMap<>());
        book.all().forEach(j -> held.count(j, 1));
        return held;
    }

    /**
     * Nodes KOALA's books hold or are claiming: the slots they take per site (a node's cores), the
     * nodes per host where it is known (arrived, or pinned), and those nodes' claims by node id.
     */
    record Held(Map<String, Integer> sites, Map<String, Integer> hosts, Map<String, GridViews.HeldClaim> claims) {
        /** Adds {@code sign} for each node {@code job} holds. */
        void count(Job job, int sign) {
            for (NodeClaim n : job.heldNodes()) {
                koala.placement.Resources perNode = NodeNeeds.perNode(job.description(), n);
                sites.merge(n.site(), sign * perNode.cores(), Integer::sum);
                if (n.host() != null) {
                    hosts.merge(n.host(), sign, Integer::sum);
                    if (sign > 0) {
                        claims.put(n.id(), new GridViews.HeldClaim(n.host(), n.pilot(), perNode));
                    } else {
                        claims.remove(n.id());
                    }
                }
            }
        }
    }
}
