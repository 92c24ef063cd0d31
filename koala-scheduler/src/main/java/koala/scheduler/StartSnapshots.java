package koala.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import koala.estimate.Claim;
import koala.estimate.GridSnapshot;
import koala.estimate.Hold;
import koala.estimate.HostState;
import koala.estimate.LocalLoad;
import koala.estimate.QueuedJob;
import koala.estimate.RunningWork;
import koala.estimate.Shrink;
import koala.estimate.SiteState;
import koala.jdf.ComponentSpec;
import koala.jdf.JobDescription;
import koala.placement.GridView;
import koala.placement.HostView;
import koala.placement.PlacementPolicy;
import koala.placement.Resources;
import koala.placement.SiteView;
import koala.scheduler.claiming.NodeClaim;
import koala.scheduler.state.JobState;

/**
 * The grid as a start estimate starts from ({@link GridSnapshot}), read from the scheduler's books on its loop:
 * each site's hosts with what is free of them now, the jobs that run and what they hold until they end, the
 * claims in flight, the local users' load, and the placement queue in the order a round tries it. One pass over
 * the books and the hosts; the estimate itself is made off the loop.
 *
 * <p>A site whose agent reports no host's resources is seen as placement counts it, a host of one core per node.
 * A framework instance's idle worker comes back when its {@code t_idle} has passed ({@link IdleNode}); its busy
 * ones, and every node of an instance that keeps its nodes (Static), are held past every estimate. A claimed node
 * whose host is not known yet is counted on the site's host with the most cores free.
 */
final class StartSnapshots {
    private StartSnapshots() {
    }

    /**
     * @param hosts    the grid host by host, less what KOALA's books hold ({@link GridNow#byResources})
     * @param jobs     every job in the books
     * @param queued   the queued jobs in the order a round tries them (a dry run's job last in its priority)
     * @param policies each job's placement policy
     * @param local    each site's local users' load
     */
    /**
     * A framework instance's worker that has been idle since {@code at} minus its {@code t_idle}: its runner gives
     * it back at {@code at} (unless work comes to it first).
     */
    record IdleNode(long instance, NodeClaim node, Resources perNode, Instant at) {
    }

    static GridSnapshot of(Instant now, GridView hosts, Collection<Job> jobs, List<Job> queued,
                           Function<Job, PlacementPolicy> policies, Map<String, LocalLoad> local) {
        return of(now, hosts, jobs, queued, policies, local, List.of());
    }

    /** @param idle framework instances' idle workers and when they will likely be given back */
    static GridSnapshot of(Instant now, GridView hosts, Collection<Job> jobs, List<Job> queued,
                           Function<Job, PlacementPolicy> policies, Map<String, LocalLoad> local, List<IdleNode> idle) {
        Map<String, List<HostView>> seen = hostsOf(hosts);
        Map<String, Map<String, Resources>> free = byHost(seen, true);
        Map<String, Map<String, Resources>> busy = byHost(seen, false);
        List<RunningWork> running = new ArrayList<>();
        List<Claim> claims = new ArrayList<>();
        for (Job job : jobs) {
            if (job.allocation() || !(job.state() == JobState.RUNNING || job.state() == JobState.CLAIMING)) {
                continue;
            }
            List<Hold> holds = holds(job, free, busy);
            if (job.state() == JobState.RUNNING) {
                running.add(new RunningWork(Long.toString(job.id()), job.record().owner(), job.record().name(),
                        startedAt(job, now), wallTime(job.description()), holds));
            } else {
                claims.add(new Claim(Long.toString(job.id()), job.record().owner(), job.record().name(),
                        wallTime(job.description()), holds));
            }
        }
        List<QueuedJob> queue = queued(queued, policies);
        Map<String, LocalLoad> loads = new HashMap<>(local);
        loads.keySet().retainAll(free.keySet());
        return new GridSnapshot(now, sites(seen, free), running, claims, shrinks(idle, busy), loads, queue,
                koala.estimate.Arrivals.NONE, hosts.files());
    }

    /**
     * Each site's hosts as the estimate sees them: those its agent reports with their resources; for a site that
     * reports none (placement counts its nodes), a host of one core per node, {@code site#k}, the first
     * {@code idle} of them free. A site with no node now (down) is left out.
     */
    static Map<String, List<HostView>> hostsOf(GridView view) {
        Map<String, List<HostView>> hosts = new java.util.LinkedHashMap<>();
        for (SiteView s : view.sites()) {
            if (!s.hosts().isEmpty()) {
                hosts.put(s.site(), s.hosts());
            } else if (s.totalNodes() > 0) {
                List<HostView> nodes = new ArrayList<>();
                for (int k = 1; k <= s.totalNodes(); k++) {
                    nodes.add(new HostView(counted(s.site(), k), Resources.NODE, k <= s.idleNodes() ? Resources.NODE
                            : Resources.NONE));
                }
                hosts.put(s.site(), nodes);
            }
        }
        return hosts;
    }

    private static String counted(String site, int k) {
        return site + "#" + k;
    }

    /** Whether {@code hosts} are a counted site's one-core hosts ({@link #hostsOf}). */
    private static boolean counted(String site, Map<String, Resources> hosts) {
        return hosts.containsKey(counted(site, 1));
    }

    /** {@code jobs} as the estimate places them, in their order. */
    static List<QueuedJob> queued(List<Job> jobs, Function<Job, PlacementPolicy> policies) {
        return jobs.stream().map(j -> new QueuedJob(Long.toString(j.id()), j.record().owner(), j.record().name(),
                NodeNeeds.of(j.id(), j.description()), policies.apply(j), wallTime(j.description()))).toList();
    }

    /** The sites, each host with what is {@code free} of it. */
    private static List<SiteState> sites(Map<String, List<HostView>> hosts, Map<String, Map<String, Resources>> free) {
        List<SiteState> sites = new ArrayList<>();
        hosts.forEach((site, list) -> sites.add(new SiteState(site, list.stream()
                .map(h -> new HostState(h.host(), h.total(), free.get(site).get(h.host()))).toList())));
        return sites;
    }

    /** What is free of each host ({@code free}), or not ({@code busy}: what holds may free), by site and host. */
    private static Map<String, Map<String, Resources>> byHost(Map<String, List<HostView>> hosts, boolean free) {
        Map<String, Map<String, Resources>> by = new HashMap<>();
        hosts.forEach((site, list) -> {
            Map<String, Resources> each = new HashMap<>();
            list.forEach(h -> each.put(h.host(), free ? h.free() : h.total().minus(h.free())));
            by.put(site, each);
        });
        return by;
    }

    /**
     * What {@code job}'s nodes hold, host by host. A node whose host is not known yet is put on the site's host
     * with the most cores free (and taken from it), as SGE would likely start it there. A node is left out where
     * the host's busy part has no room for it (the agent's last look and the books disagree for a moment): freed
     * at its job's end, it would make the host freer than it is.
     */
    private static List<Hold> holds(Job job, Map<String, Map<String, Resources>> free,
                                    Map<String, Map<String, Resources>> busy) {
        List<Hold> holds = new ArrayList<>();
        for (NodeClaim n : job.heldNodes()) {
            Map<String, Resources> siteFree = free.get(n.site());
            if (siteFree == null) {
                continue; // a site the snapshot does not know: what it frees is not foreseen
            }
            Resources perNode = NodeNeeds.perNode(job.description(), n);
            if (counted(n.site(), siteFree)) {
                // placement counted the node out of the site's idle ones already: it holds one of the busy
                busy.get(n.site()).entrySet().stream().filter(e -> e.getValue().fits(Resources.NODE)).findFirst()
                        .ifPresent(e -> {
                            e.setValue(Resources.NONE);
                            holds.add(new Hold(n.site(), e.getKey(), Resources.NODE));
                        });
                continue;
            }
            String host = n.host() != null && siteFree.containsKey(n.host()) ? n.host() : mostFree(siteFree, perNode);
            if (host == null) {
                continue;
            }
            if (n.host() == null || !n.host().equals(host)) {
                siteFree.put(host, siteFree.get(host).minus(perNode));
                busy.get(n.site()).merge(host, perNode, Resources::plus);
            }
            Resources room = busy.get(n.site()).get(host);
            if (room.fits(perNode)) {
                busy.get(n.site()).put(host, room.minus(perNode));
                holds.add(new Hold(n.site(), host, perNode));
            }
        }
        return holds;
    }

    /** The idle workers on hosts the snapshot knows, each where the host's busy part has room for it. */
    private static List<Shrink> shrinks(List<IdleNode> idle, Map<String, Map<String, Resources>> busy) {
        List<Shrink> shrinks = new ArrayList<>();
        for (IdleNode i : idle) {
            Map<String, Resources> site = busy.get(i.node().site());
            Resources room = site == null || i.node().host() == null ? null : site.get(i.node().host());
            if (room != null && room.fits(i.perNode())) {
                site.put(i.node().host(), room.minus(i.perNode()));
                shrinks.add(new Shrink(Long.toString(i.instance()), new Hold(i.node().site(), i.node().host(), i.perNode()),
                        i.at()));
            }
        }
        return shrinks;
    }

    /** The host with the most cores free that has room for {@code perNode}; null when none has. */
    private static String mostFree(Map<String, Resources> site, Resources perNode) {
        return site.entrySet().stream().filter(e -> e.getValue().fits(perNode))
                .max(java.util.Comparator.comparingInt((Map.Entry<String, Resources> e) -> e.getValue().cores())
                        .thenComparing(Map.Entry::getKey, java.util.Comparator.reverseOrder()))
                .map(Map.Entry::getKey).orElse(null);
    }

    /** When the job's last transition to RUNNING was; now when its history does not say. */
    static Instant startedAt(Job job, Instant now) {
        Instant started = null;
        for (koala.api.scheduler.TransitionView t : job.history()) {
            if (JobState.RUNNING.name().equals(t.to())) {
                started = t.at();
            }
        }
        return started == null ? now : started;
    }

    /** The longest wall-time limit of the job's components; null when none has one (its end is not bounded). */
    static Duration wallTime(JobDescription description) {
        if (description == null || description.components().stream().anyMatch(c -> c.maxWallTime() == null)) {
            return null;
        }
        return description.components().stream().map(ComponentSpec::maxWallTime).filter(Objects::nonNull)
                .max(Duration::compareTo).orElse(null);
    }
}
