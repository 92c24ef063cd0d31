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
import koala.estimate.SiteState;
import koala.jdf.ComponentSpec;
import koala.jdf.JobDescription;
import koala.placement.GridView;
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
 * <p>What it leaves out, and how that errs: a site whose hosts' resources its agent does not report is not in
 * the snapshot (no job is estimated to start there); framework instances' nodes are held past every estimate
 * (their shrinks are not foreseen: late, never early); a claimed node whose host is not known yet is counted
 * on the site's host with the most cores free.
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
    static GridSnapshot of(Instant now, GridView hosts, Collection<Job> jobs, List<Job> queued,
                           Function<Job, PlacementPolicy> policies, Map<String, LocalLoad> local) {
        Map<String, Map<String, Resources>> free = freeByHost(hosts);
        Map<String, Map<String, Resources>> busy = busyByHost(hosts);
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
        List<QueuedJob> queue = queued.stream().map(j -> new QueuedJob(Long.toString(j.id()), j.record().owner(),
                j.record().name(), NodeNeeds.of(j.id(), j.description()), policies.apply(j), wallTime(j.description())))
                .toList();
        Map<String, LocalLoad> loads = new HashMap<>(local);
        loads.keySet().retainAll(free.keySet());
        return new GridSnapshot(now, sites(hosts, free), running, claims, List.of(), loads, queue);
    }

    /** The sites whose hosts are known, each host with what is {@code free} of it. */
    private static List<SiteState> sites(GridView hosts, Map<String, Map<String, Resources>> free) {
        List<SiteState> sites = new ArrayList<>();
        for (SiteView s : hosts.sites()) {
            if (!s.hosts().isEmpty()) {
                sites.add(new SiteState(s.site(), s.hosts().stream()
                        .map(h -> new HostState(h.host(), h.total(), free.get(s.site()).get(h.host()))).toList()));
            }
        }
        return sites;
    }

    /** What is not free of each host (what holds may free), by site and host. */
    private static Map<String, Map<String, Resources>> busyByHost(GridView view) {
        Map<String, Map<String, Resources>> busy = new HashMap<>();
        for (SiteView s : view.sites()) {
            if (!s.hosts().isEmpty()) {
                Map<String, Resources> hosts = new HashMap<>();
                s.hosts().forEach(h -> hosts.put(h.host(), h.total().minus(h.free())));
                busy.put(s.site(), hosts);
            }
        }
        return busy;
    }

    /** What is free of each host of the sites whose hosts are known, by site and host. */
    private static Map<String, Map<String, Resources>> freeByHost(GridView view) {
        Map<String, Map<String, Resources>> free = new HashMap<>();
        for (SiteView s : view.sites()) {
            if (!s.hosts().isEmpty()) {
                Map<String, Resources> hosts = new HashMap<>();
                s.hosts().forEach(h -> hosts.put(h.host(), h.free()));
                free.put(s.site(), hosts);
            }
        }
        return free;
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
