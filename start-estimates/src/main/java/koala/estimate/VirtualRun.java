package koala.estimate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import koala.placement.Assignment;
import koala.placement.GridView;
import koala.placement.HostView;
import koala.placement.PlacementDecision;
import koala.placement.PlacementReason;
import koala.placement.Resources;
import koala.placement.SiteView;

/**
 * One replay of the placement queue forward in virtual time from a snapshot, with given end times of the work
 * holding resources now, given runtimes of the queued jobs, given local load and future submissions
 * ({@link Arrivals}, at most {@value #SUBMISSIONS_PER_QUEUED} per queued job and {@value #MORE_SUBMISSIONS}
 * more): the scheduler's rounds as they would go. The queue is tried at {@code now} and then only at the
 * instants work ends or a job is submitted (nothing else changes what placement sees), each job against what
 * the ones before it left; the run stops once every queued job has started or nothing more ends.
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

    /**
     * At most this many future submissions per queued job (and {@value #MORE_SUBMISSIONS} more) in one run: a guard on
     * the cost of a run that never ends, not a horizon. A run stops once every queued job has started, so a queue that
     * drains never reaches it; one that starves a large job does, and after the last submission the job starts in the
     * hole the next ones would have filled: at 50 more, the replays of load 0.9 in the start-time experiment ran out
     * of submissions a quarter of the way into day-long waits and put the starts at 0.7 of the wait.
     */
    static final int SUBMISSIONS_PER_QUEUED = 2;
    static final int MORE_SUBMISSIONS = 1000;

    private final GridIndex ix;
    private final Inputs inputs;
    private final Random random;
    /** Per slot in the queue: the job (a position in {@link GridIndex#jobs}) and how long it runs. */
    private int[] slotJob;
    private long[] slotRuntime;
    private int slots;
    private final long submissionGap;
    private long nextSubmission;
    private int submitted;
    private int realWaiting;
    private final int[] localExtra;
    /** When local users begin to take their extra share, per site. */
    private final long[] localExtraAt;
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
    /** The fewest cores any waiting job asks for in all: a round with fewer free starts nothing. */
    private int smallestWaiting;
    /** The round in which a job of each shape last failed. */
    private final int[] blockedIn;
    private int round;
    private int totalFree;
    private int mostOnOneSite;

    /** Start per queue position ({@link #NEVER} when it does not start) and where; the rest only when explaining. */
    final long[] starts;
    final List<List<Assignment>> where;
    final List<List<PlacementReason>> reasonsNow;
    final List<Released> log = new ArrayList<>();

    private VirtualRun(GridIndex ix, Inputs inputs, long[] holderEnds, long[] runtimes, Inputs.LocalPlan local, Random random) {
        this.ix = ix;
        this.inputs = inputs;
        this.random = random;
        this.localExtra = local.extra().clone();
        this.localExtraAt = local.at();
        this.explain = random == null;
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
        for (int s = 0; s < ix.sites(); s++) {
            if (local.leave()[s] > 0) {
                localLeave(s, local.leave()[s], local.at()[s]);
            }
        }
        int n = ix.queued;
        int cap = n + maxSubmissions() + 1;
        slotJob = new int[cap];
        slotRuntime = new long[cap];
        waiting = new int[cap];
        for (int j : ix.placeable) {
            waiting[waitingCount++] = slot(j, runtimes[j]);
        }
        realWaiting = waitingCount;
        blockedIn = new int[ix.shape.length];
        double perHour = ix.snapshot.arrivals().perHour();
        submissionGap = perHour > 0 && ix.templates.length > 0 ? Math.max(1, Math.round(3_600_000 / perHour)) : 0;
        nextSubmission = submissionGap > 0 ? ix.now + gap() : NEVER;
        starts = new long[n];
        Arrays.fill(starts, NEVER);
        where = new ArrayList<>(java.util.Collections.nCopies(n, List.of()));
        reasonsNow = explain ? new ArrayList<>(java.util.Collections.nCopies(n, List.of())) : null;
    }

    /**
     * Replays the queue.
     *
     * @param holderEnds when each holder of {@code ix} gives its resources back (ms since the epoch)
     * @param runtimes   per queue position, how long the job runs once started (ms)
     * @param local      per site, cores local users take from the first that are free or come free, or give back
     * @param random     the draws of future submissions (their times, which ones, their runtimes); none for the
     *                   likely run, which submits at the mean rate, the latest jobs again, at their likely runtimes,
     *                   and keeps where each job went, why it waited at {@code now} and what ended when
     */
    static VirtualRun run(GridIndex ix, Inputs inputs, long[] holderEnds, long[] runtimes, Inputs.LocalPlan local, Random random) {
        VirtualRun run = new VirtualRun(ix, inputs, holderEnds, runtimes, local, random);
        run.replay();
        return run;
    }

    private void replay() {
        long time = ix.now;
        while (true) {
            boolean released = releaseDue(time);
            int before = waitingCount;
            submitDue(time);
            absorbLocal(time);
            // since the last round resources only got fewer unless something ended: only new submissions may start
            tryQueue(time, released || time == ix.now ? 0 : before);
            // submissions only take resources: once nothing more ends, nothing more starts
            if (realWaiting == 0 || releases.isEmpty()) {
                return;
            }
            time = Math.min(releases.peek().at, nextSubmission);
        }
    }

    /** Local users of site {@code s} give {@code cores} of those they hold back at {@code at}, host by host. */
    private void localLeave(int s, int cores, long at) {
        List<Integer> hosts = new ArrayList<>();
        List<Resources> holds = new ArrayList<>();
        int left = cores;
        for (int h : ix.siteHosts[s]) {
            int give = Math.min(left, ix.localCores[h]);
            if (give > 0) {
                hosts.add(h);
                holds.add(new Resources(give, 0, 0));
                left -= give;
            }
        }
        int holding = hold("local users of " + ix.siteNames[s], hosts.stream().mapToInt(Integer::intValue).toArray(),
                holds.toArray(Resources[]::new), false);
        releases.add(new Release(Math.max(ix.now, at), holding));
    }

    private int slot(int job, long runtime) {
        slotJob[slots] = job;
        slotRuntime[slots] = runtime;
        return slots++;
    }

    private int maxSubmissions() {
        return ix.templates.length == 0 ? 0 : SUBMISSIONS_PER_QUEUED * ix.queued + MORE_SUBMISSIONS;
    }

    private long gap() {
        return random == null ? submissionGap : Math.max(1, Math.round(-Math.log(1 - random.nextDouble()) * submissionGap));
    }

    /** Future submissions due by {@code time} join the queue's end: the latest jobs again (likely) or drawn ones. */
    private void submitDue(long time) {
        while (nextSubmission <= time) {
            int t = random == null ? ix.templates[ix.templates.length - 1 - submitted % ix.templates.length]
                    : ix.templates[random.nextInt(ix.templates.length)];
            waiting[waitingCount++] = slot(t, inputs.runtime(t, random));
            smallestWaiting = Math.min(smallestWaiting, ix.coresInAll[t]);
            submitted++;
            nextSubmission = submitted < maxSubmissions() ? nextSubmission + gap() : NEVER;
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

    /** Gives back what ends by {@code time}; whether anything did. */
    private boolean releaseDue(long time) {
        boolean any = false;
        while (!releases.isEmpty() && releases.peek().at <= time) {
            any = true;
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
        return any;
    }

    /** Local users take their extra share, once due, from the first cores free on their site, and then hold it. */
    private void absorbLocal(long time) {
        for (int s = 0; s < localExtra.length; s++) {
            for (int k = 0; localExtra[s] > 0 && time >= localExtraAt[s] && siteFree[s] > 0 && k < ix.siteHosts[s].length; k++) {
                int h = ix.siteHosts[s][k];
                int take = Math.min(localExtra[s], free[h].cores());
                if (take > 0) {
                    change(h, new Resources(free[h].cores() - take, free[h].memoryMiB(), free[h].gpus()));
                    localExtra[s] -= take;
                }
            }
        }
    }

    /** One round over the queue from its {@code from}-th waiting job (the ones before it cannot start now). */
    private void tryQueue(long time, int from) {
        boolean askAll = explain && time == ix.now;
        round++;
        totals();
        if (!askAll && totalFree < smallestWaiting) {
            return;
        }
        int kept = from;
        // the jobs before from are the last round's, counted in smallestWaiting (which may stay low: only a bound)
        int smallest = from > 0 ? smallestWaiting : Integer.MAX_VALUE;
        for (int i = from; i < waitingCount; i++) {
            int slot = waiting[i];
            int j = slotJob[slot];
            if (!askAll && (cannot(j) || blockedIn[ix.shape[j]] == round)) {
                waiting[kept++] = slot;
                smallest = Math.min(smallest, ix.coresInAll[j]);
                continue;
            }
            QueuedJob q = ix.jobs.get(j);
            PlacementDecision d = q.policy().place(q.need(), view());
            if (d instanceof PlacementDecision.Placed placed) {
                start(slot, placed.assignments(), time);
                totals();
            } else {
                blockedIn[ix.shape[j]] = round;
                if (askAll && slot < ix.queued) {
                    reasonsNow.set(j, ((PlacementDecision.NotPlaced) d).reasons());
                }
                waiting[kept++] = slot;
                smallest = Math.min(smallest, ix.coresInAll[j]);
            }
        }
        waitingCount = kept;
        smallestWaiting = smallest;
    }

    /** Whether the free cores cannot hold the job: the grid's, the most on one site, or its fixed sites'. */
    private boolean cannot(int j) {
        if (ix.coresInAll[j] > totalFree || ix.coresOnOneSite[j] > mostOnOneSite) {
            return true;
        }
        if (!ix.fixed[j]) {
            return false;
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

    private void start(int slot, List<Assignment> assignments, long time) {
        int j = slotJob[slot];
        QueuedJob q = ix.jobs.get(j);
        List<Integer> hosts = new ArrayList<>();
        List<Resources> holds = new ArrayList<>();
        for (Assignment a : assignments) {
            Resources per = q.need().components().get(a.component()).perNode();
            for (int k = 0; k < a.nodes(); k++) {
                hosts.add(ix.host(a.site(), a.host(k)));
                holds.add(per);
            }
        }
        boolean real = slot < ix.queued;
        String id = real ? q.id() : "new-" + (slot - ix.queued + 1);
        int holding = hold(id, hosts.stream().mapToInt(Integer::intValue).toArray(), holds.toArray(Resources[]::new), true);
        releases.add(new Release(time + slotRuntime[slot], holding));
        if (real) {
            starts[j] = time;
            realWaiting--;
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
            grid = new GridView(Arrays.asList(views), ix.snapshot.files());
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
