package koala.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import koala.placement.Assignment;
import koala.placement.ComponentNeed;
import koala.placement.FileLocations;
import koala.placement.GridView;
import koala.placement.HostView;
import koala.placement.JobNeed;
import koala.placement.PlacementDecision;
import koala.placement.PlacementPolicy;
import koala.placement.Resources;
import koala.placement.SiteView;

/**
 * Jobs that ask for resources ({@link ResourceJob}) on sites of unequal hosts, in virtual time, placed
 * from one placement queue by the scheduler's own placement code ({@code koala.placement}) in one of
 * two ways ({@link Mode}):
 *
 * <ul>
 *   <li>{@link Mode#RESOURCE_AWARE}: placement sees every host with its free cores, memory and GPUs
 *       ({@link SiteView#hosts}), each node asks for its own resources, the decision names each node's
 *       host and several jobs' nodes share a host.</li>
 *   <li>Node-granular, as KOALA placed before it knew resources: placement counts idle nodes per site and
 *       knows nothing of cores, memory or GPUs, and SGE, told nothing of them either, starts each node on a
 *       host of the chosen site of its own choice (drawn at random, seeded). A node is what the admin made
 *       it: {@link Mode#SLOTS}, one SGE slot (the default; a host has as many as it has cores), or
 *       {@link Mode#WHOLE_HOSTS}, a whole host ({@code node.nativeSpec} asking SGE for an exclusive host),
 *       the one set-up in which a node is sure of a host's memory. A user whose nodes do not fit every host
 *       pins the component to a site ({@link #pinFor}): one whose hosts all fit it if there is one, else
 *       the one with the most hosts that do.
 *       <br>A node on a host that lacks the memory or GPUs it needs (whole hosts: the host has too little;
 *       slots: what the host's other nodes leave is too little, as SGE reserves none of it) is <em>placed
 *       where it does not fit</em>: its job fails after {@code failAfter} (at most its runtime), gives its
 *       nodes back and is submitted again, at the back of the queue, up to {@code tries} times in all; then
 *       its user gives up. On a slot, a node of {@code c} cores is held to its one core (SGE's binding),
 *       so its job runs {@code c} times its runtime (the largest {@code c} of its nodes): the same
 *       core-seconds, spread over more time.</li>
 * </ul>
 *
 * <p>A job arrives, joins the queue and the queue is tried; it is tried whenever resources come free or a
 * job arrives, once per instant after everything due then, in order of arrival, a job that cannot be
 * placed not blocking the ones behind it (the scheduler's {@code PlacementQueue}). A job that placement
 * cannot place even on an idle grid never enters the queue: it is counted as never runnable, with
 * placement's reason. A job's nodes are all taken at its start and all given back at its end.
 *
 * <p>No I/O and no clock: the run is a function of its arguments.
 */
public final class ResourceQueue {
    /** How placement sees the grid and what a node is. */
    public enum Mode {
        /** A node is one SGE slot (one core); placement counts idle slots and SGE chooses the hosts. */
        SLOTS,
        /** A node is a whole host; placement counts idle hosts and SGE chooses them. */
        WHOLE_HOSTS,
        /** A node is what it asks for; placement fits it on a host, and hosts are shared. */
        RESOURCE_AWARE
    }

    /** A host and what it has. */
    public record Host(String name, Resources total) {
    }

    /** A site and its hosts (all of them KOALA's: no local users). */
    public record Site(String name, List<Host> hosts) {
        public Site {
            hosts = List.copyOf(hosts);
            if (name == null || name.isBlank() || hosts.isEmpty()) {
                throw new IllegalArgumentException("a site has a name and at least one host, got " + name);
            }
        }

        public Resources total() {
            return hosts.stream().map(Host::total).reduce(Resources.NONE, Resources::plus);
        }
    }

    /**
     * The grid and the rules of a run.
     *
     * @param failAfter how long a job placed where it does not fit runs before it fails (at most its runtime)
     * @param tries     how many times in all a user submits a job that keeps failing so
     * @param seed      SGE's choice of hosts under node-granular placement
     */
    public record Setup(List<Site> sites, PlacementPolicy policy, Duration failAfter, int tries, long seed) {
        public Setup {
            sites = List.copyOf(sites);
            Set<String> names = new HashSet<>();
            if (sites.isEmpty() || !sites.stream().allMatch(s -> names.add(s.name()))
                    || !sites.stream().flatMap(s -> s.hosts().stream()).allMatch(h -> names.add(h.name()))) {
                throw new IllegalArgumentException("need at least one site, each site and host named once");
            }
            if (failAfter.isNegative() || tries < 1) {
                throw new IllegalArgumentException("a failure takes 0 s or more, and a job is tried at least once");
            }
        }

        /** What the grid has in all. */
        public Resources total() {
            return sites.stream().map(Site::total).reduce(Resources.NONE, Resources::plus);
        }
    }

    private static final Instant START = Instant.EPOCH;

    private final Setup setup;
    private final Mode mode;
    private final EventQueue events = new EventQueue(START);
    private final Random sge;
    private final Host[] hosts;
    private final Resources[] free;
    private final Map<String, Integer> hostIndex = new HashMap<>();
    private final int[][] siteHosts;
    private final Map<String, Integer> siteIndex = new HashMap<>();
    private final JobNeed[] needs;
    private final int[] tried;
    private final ResourceOutcome[] outcomes;
    private final ArrayDeque<ResourceJob> waiting = new ArrayDeque<>();
    private final double[] used = new double[3];
    private final double[] held = new double[3];
    private final double[] lost = new double[3];
    private GridView view;
    private boolean dispatchDue;
    private int waitingAtLastArrival;
    private int misfitPlacements;
    private int misfitNodes;
    private Instant lastEnd = START;
    private Instant lastLeft = START;

    private ResourceQueue(Setup setup, Mode mode, List<ResourceJob> jobs) {
        this.setup = setup;
        this.mode = mode;
        this.sge = new Random(setup.seed());
        List<Host> all = new ArrayList<>();
        siteHosts = new int[setup.sites().size()][];
        for (int s = 0; s < setup.sites().size(); s++) {
            Site site = setup.sites().get(s);
            siteIndex.put(site.name(), s);
            siteHosts[s] = new int[site.hosts().size()];
            for (int h = 0; h < site.hosts().size(); h++) {
                siteHosts[s][h] = all.size();
                hostIndex.put(site.hosts().get(h).name(), all.size());
                all.add(site.hosts().get(h));
            }
        }
        hosts = all.toArray(Host[]::new);
        free = all.stream().map(Host::total).toArray(Resources[]::new);
        needs = jobs.stream().map(this::need).toArray(JobNeed[]::new);
        tried = new int[jobs.size()];
        outcomes = new ResourceOutcome[jobs.size()];
    }

    /** Runs {@code jobs} (numbered 1..n in order) until every job that can run has ended or been given up. */
    public static ResourceRun run(Setup setup, List<ResourceJob> jobs, Mode mode) {
        for (int i = 0; i < jobs.size(); i++) {
            if (jobs.get(i).id() != i + 1) {
                throw new IllegalArgumentException("jobs are numbered 1..n in order; job " + (i + 1) + " is numbered "
                        + jobs.get(i).id());
            }
        }
        return new ResourceQueue(setup, mode, jobs).run(jobs);
    }

    /**
     * The site a user pins a component of nodes of {@code need} to when placement knows nothing of
     * resources: none when every host of the grid holds such a node; else the site whose hosts all hold
     * one, the one with the most hosts if several (ties: name); else the site with the most hosts that
     * hold one (ties: name); none when no host does.
     */
    public static String pinFor(Resources need, List<Site> sites) {
        String allFit = null;
        int allFitHosts = 0;
        String mostFit = null;
        int mostFitHosts = 0;
        boolean everywhere = true;
        for (Site s : sites) {
            int fit = (int) s.hosts().stream().filter(h -> h.total().fits(need)).count();
            everywhere &= fit == s.hosts().size();
            if (fit == s.hosts().size() && (allFit == null || fit > allFitHosts || fit == allFitHosts && s.name().compareTo(allFit) < 0)) {
                allFit = s.name();
                allFitHosts = fit;
            }
            if (fit > 0 && (mostFit == null || fit > mostFitHosts || fit == mostFitHosts && s.name().compareTo(mostFit) < 0)) {
                mostFit = s.name();
                mostFitHosts = fit;
            }
        }
        if (everywhere) {
            return null;
        }
        return allFit != null ? allFit : mostFit;
    }

    private JobNeed need(ResourceJob job) {
        List<ComponentNeed> components = new ArrayList<>(job.parts().size());
        for (int k = 0; k < job.parts().size(); k++) {
            ResourceJob.Part p = job.parts().get(k);
            components.add(switch (mode) {
                case RESOURCE_AWARE -> new ComponentNeed(k, p.nodes(), null, List.of(), p.perNode());
                case SLOTS, WHOLE_HOSTS -> new ComponentNeed(k, p.nodes(), pinFor(p.perNode(), setup.sites()), List.of(), Resources.NODE);
            });
        }
        return new JobNeed("j" + job.id(), components, false);
    }

    private ResourceRun run(List<ResourceJob> jobs) {
        Duration last = jobs.stream().map(ResourceJob::arrival).max(Duration::compareTo).orElse(Duration.ZERO);
        for (ResourceJob job : jobs) {
            events.at(START.plus(job.arrival()), () -> arrive(job));
        }
        // after every arrival due at the last arrival's instant and the queue's try then
        events.at(START.plus(last), () -> events.at(events.instant(), () -> waitingAtLastArrival = waiting.size()));
        events.runUntil(Instant.ofEpochMilli(Long.MAX_VALUE));
        return new ResourceRun(mode, List.of(outcomes), waitingAtLastArrival, misfitPlacements, misfitNodes,
                Duration.between(START, lastEnd), Duration.between(START, lastLeft), setup.total(), used.clone(), held.clone(), lost.clone());
    }

    private void arrive(ResourceJob job) {
        if (setup.policy().place(needs[job.id() - 1], idleView()) instanceof PlacementDecision.NotPlaced never) {
            outcomes[job.id() - 1] = ResourceOutcome.neverRunnable(job, never.reasons().get(0).text());
            return;
        }
        waiting.add(job);
        dispatchSoon();
    }

    private void dispatchSoon() {
        if (!dispatchDue) {
            dispatchDue = true;
            events.at(events.instant(), this::dispatch);
        }
    }

    /**
     * Tries the queue once. Within one try resources only get fewer, so a job that could not be placed
     * stands for every later one of the same shape (the same components, asked the same way), which is
     * then not asked again: a long queue costs a placement per shape, not per job.
     */
    private void dispatch() {
        dispatchDue = false;
        Set<List<ComponentNeed>> blocked = new HashSet<>();
        for (Iterator<ResourceJob> it = waiting.iterator(); it.hasNext(); ) {
            ResourceJob job = it.next();
            JobNeed need = needs[job.id() - 1];
            if (blocked.contains(need.components())) {
                continue;
            }
            if (setup.policy().place(need, view()) instanceof PlacementDecision.Placed placed) {
                it.remove();
                lastLeft = events.instant();
                start(job, placed.assignments());
            } else {
                blocked.add(need.components());
            }
        }
    }

    private void start(ResourceJob job, List<Assignment> assignments) {
        view = null;
        List<Integer> taken = new ArrayList<>();
        List<Resources> holds = new ArrayList<>();
        List<Assignment> where = new ArrayList<>(assignments.size());
        int misfits = 0;
        int stretch = 1;
        for (Assignment a : assignments) {
            Resources per = job.parts().get(a.component()).perNode();
            List<String> names = hostsFor(a);
            for (String name : names) {
                int h = hostIndex.get(name);
                Resources hold = hold(h, per);
                misfits += hold == null ? 1 : 0;
                if (hold == null) {
                    // it holds what it got until it dies: its slot, its whole host, or (resource-aware, where
                    // placement never does this) what the host had free
                    hold = switch (mode) {
                        case SLOTS -> Resources.NODE;
                        case WHOLE_HOSTS, RESOURCE_AWARE -> free[h];
                    };
                }
                free[h] = free[h].minus(hold);
                taken.add(h);
                holds.add(hold);
            }
            stretch = mode == Mode.SLOTS ? Math.max(stretch, per.cores()) : 1;
            where.add(new Assignment(a.component(), a.site(), a.nodes(), names));
        }
        Instant now = events.instant();
        Duration runs = job.runtime().multipliedBy(stretch);
        tried[job.id() - 1]++;
        if (misfits > 0) {
            misfitPlacements++;
            misfitNodes += misfits;
            Duration fails = setup.failAfter().compareTo(runs) < 0 ? setup.failAfter() : runs;
            events.after(fails, () -> fail(job, taken, holds, fails));
        } else {
            events.after(runs, () -> end(job, taken, holds, where, now, runs));
        }
    }

    /**
     * What a node of {@code per} holds on host {@code h} when it fits there, or null when it does not:
     * resource-aware, what it asks for; on a slot, the slot and the memory and GPUs its program takes; on a
     * whole host, all of it, if the host has what it asks for.
     */
    private Resources hold(int h, Resources per) {
        Resources before = free[h];
        return switch (mode) {
            case RESOURCE_AWARE -> before.fits(per) ? per : null;
            case SLOTS -> {
                Resources slot = new Resources(1, per.memoryMiB(), per.gpus());
                yield before.fits(slot) ? slot : null;
            }
            case WHOLE_HOSTS -> hosts[h].total().fits(per) ? before : null;
        };
    }

    /**
     * Under node-granular placement SGE chooses the hosts, knowing nothing of the job: for slots, free
     * slots of the site at random (a host may get several nodes); for whole hosts, idle hosts at random.
     */
    private List<String> hostsFor(Assignment a) {
        if (mode == Mode.RESOURCE_AWARE) {
            return a.hosts();
        }
        List<Integer> open = new ArrayList<>();
        for (int h : siteHosts[siteIndex.get(a.site())]) {
            int slots = switch (mode) {
                case SLOTS -> free[h].cores();
                case WHOLE_HOSTS -> free[h].equals(hosts[h].total()) ? 1 : 0;
                case RESOURCE_AWARE -> throw new IllegalStateException("resource-aware placement names the hosts");
            };
            for (int k = 0; k < slots; k++) {
                open.add(h);
            }
        }
        Collections.shuffle(open, sge);
        return open.subList(0, a.nodes()).stream().map(h -> hosts[h].name()).toList();
    }

    private void release(List<Integer> taken, List<Resources> holds, Duration during, double[] into) {
        double seconds = during.toMillis() / 1000.0;
        for (int i = 0; i < taken.size(); i++) {
            int h = taken.get(i);
            Resources r = holds.get(i);
            free[h] = free[h].plus(r);
            into[0] += r.cores() * seconds;
            into[1] += r.memoryMiB() * seconds;
            into[2] += r.gpus() * seconds;
        }
        view = null;
        lastEnd = events.instant();
        dispatchSoon();
    }

    private void fail(ResourceJob job, List<Integer> taken, List<Resources> holds, Duration ran) {
        release(taken, holds, ran, lost);
        if (tried[job.id() - 1] >= setup.tries()) {
            outcomes[job.id() - 1] = ResourceOutcome.givenUp(job, tried[job.id() - 1]);
            lastLeft = events.instant();
        } else {
            waiting.add(job);
        }
    }

    private void end(ResourceJob job, List<Integer> taken, List<Resources> holds, List<Assignment> where, Instant start,
            Duration runs) {
        release(taken, holds, runs, held);
        Resources work = job.total();
        double seconds = job.runtime().toMillis() / 1000.0;
        used[0] += work.cores() * seconds;
        used[1] += work.memoryMiB() * seconds;
        used[2] += work.gpus() * seconds;
        outcomes[job.id() - 1] = ResourceOutcome.ran(job, Duration.between(START, start), Duration.between(START,
                events.instant()), where, tried[job.id() - 1] - 1);
    }

    private GridView view() {
        if (view == null) {
            view = view(false);
        }
        return view;
    }

    private GridView idleView() {
        return view(true);
    }

    private GridView view(boolean allIdle) {
        List<SiteView> sites = new ArrayList<>(siteHosts.length);
        for (int s = 0; s < siteHosts.length; s++) {
            String name = setup.sites().get(s).name();
            sites.add(switch (mode) {
                case RESOURCE_AWARE -> {
                    List<HostView> hv = new ArrayList<>(siteHosts[s].length);
                    for (int h : siteHosts[s]) {
                        hv.add(new HostView(hosts[h].name(), hosts[h].total(), allIdle ? hosts[h].total() : free[h]));
                    }
                    yield new SiteView(name, hv);
                }
                case SLOTS -> {
                    int slots = 0;
                    int idle = 0;
                    for (int h : siteHosts[s]) {
                        slots += hosts[h].total().cores();
                        idle += allIdle ? hosts[h].total().cores() : free[h].cores();
                    }
                    yield new SiteView(name, slots, idle);
                }
                case WHOLE_HOSTS -> {
                    int idle = 0;
                    for (int h : siteHosts[s]) {
                        idle += allIdle || free[h].equals(hosts[h].total()) ? 1 : 0;
                    }
                    yield new SiteView(name, siteHosts[s].length, idle);
                }
            });
        }
        return new GridView(sites, FileLocations.NONE);
    }
}
