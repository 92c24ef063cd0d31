package koala.sim.experiment;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Function;
import koala.estimate.Estimate;
import koala.estimate.GridSnapshot;
import koala.estimate.Hold;
import koala.estimate.HostState;
import koala.estimate.LocalLoad;
import koala.estimate.QueuedJob;
import koala.estimate.RunHistory;
import koala.estimate.RunningWork;
import koala.estimate.RuntimeGuess;
import koala.estimate.SiteState;
import koala.estimate.StartEstimator;
import koala.estimate.StartHistory;
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
import koala.sim.experiment.StartTimeWorkload.Job;
import koala.sim.experiment.StartTimeWorkload.LocalJob;

/**
 * A {@link StartTimeWorkload} replayed in virtual time on sites of equal hosts, KOALA's jobs placed from one
 * placement queue by the scheduler's own placement code (one round at every instant something happens, a job
 * that cannot be placed not blocking the ones behind it), local users' jobs taking a host of their site
 * directly (first fit, in order of arrival per site, before KOALA's round). At every KOALA submission each
 * {@link Variant} of the estimator is asked about the queue as the scheduler would see it then (the hosts' free
 * cores, KOALA's running jobs, local users' busy cores now and their mean and 90th percentile over the last
 * {@value #LOCAL_WINDOW_H} hours and the mean runtime of their jobs that ended, the queue up to the new job, the
 * last {@value #RECENT} submissions and their rate, the history of the jobs that ended and, to calibrate, how
 * right the variant's earlier estimates were), and so is the naive estimate; what happened is recorded beside
 * it. No I/O, no clock.
 */
public final class StartTimeReplay {
    static final int LOCAL_WINDOW_H = 6;
    private static final long SAMPLE_EVERY_MS = 5 * 60_000L;
    private static final Instant EPOCH = Instant.parse("2026-01-05T00:00:00Z");
    static final Duration SITE_DEFAULT = Duration.ofHours(1);
    private static final int NAIVE_WINDOW = 100;
    static final int RECENT = 100;

    /**
     * One way to estimate: the runtime guess made from the history so far, how many samples, and whether it is told
     * local users' load and the submissions of the last {@value #RECENT} jobs (to draw future ones from).
     */
    public record Variant(String name, Function<RunHistory, RuntimeGuess> runtimes, int samples, boolean localLoad,
            boolean arrivals, boolean calibrated) {
    }

    /**
     * What happened to one job and what was said at its submission: per variant the likely start and the 80%
     * range (ms; {@link Long#MAX_VALUE} when none was foreseen), and the naive start.
     */
    public record Observed(Job job, long startMs, long[] likely, long[] low, long[] high, long[] replayed, long naiveMs) {
        public long waitMs() {
            return startMs - job.arrivalMs();
        }
    }

    private record Event(long at, long seq, Runnable action) {
    }

    private record Running(Job job, long startedMs, List<Hold> holds, int[] hosts, int[] cores) {
    }

    private final int[] siteCores;
    /** The first host of each site, and one past the last site's last. */
    private final int[] firstHost;
    private final int coresPerHost;
    private final PlacementPolicy policy;
    private final List<Variant> variants;
    private final int[] free;
    private final PriorityQueue<Event> events = new PriorityQueue<>(
            (a, b) -> a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
    private long seq;
    private long now;
    private final List<Job> queue = new ArrayList<>();
    private final List<Job> arrivedNow = new ArrayList<>();
    private final Map<Integer, Running> running = new java.util.LinkedHashMap<>();
    private final List<ArrayDeque<LocalJob>> localWaiting = new ArrayList<>();
    private final int[] localBusy;
    /** Local jobs that ended and how long they held their cores in all: their mean is the turnover the estimate is told. */
    private long localEnded;
    private long localHeldMs;
    private final List<ArrayDeque<Integer>> localSamples = new ArrayList<>();
    private final Map<Integer, RuntimeGuess.Prediction> predicted = new HashMap<>();
    private final ArrayDeque<Long> recentRuntimes = new ArrayDeque<>();
    private final Map<Integer, Observed> observed = new HashMap<>();
    private final ArrayDeque<Job> recent = new ArrayDeque<>();
    private RunHistory history = RunHistory.empty();
    /** Per variant, how right its estimates were, for those that calibrate. */
    private final StartHistory[] started;
    private int arrivals;
    private int total;

    private StartTimeReplay(int[] hostsPerSite, int coresPerHost, PlacementPolicy policy, List<Variant> variants) {
        int sites = hostsPerSite.length;
        this.coresPerHost = coresPerHost;
        this.policy = policy;
        this.variants = List.copyOf(variants);
        started = new StartHistory[variants.size()];
        Arrays.fill(started, StartHistory.empty());
        siteCores = new int[sites];
        firstHost = new int[sites + 1];
        for (int s = 0; s < sites; s++) {
            siteCores[s] = hostsPerSite[s] * coresPerHost;
            firstHost[s + 1] = firstHost[s] + hostsPerSite[s];
        }
        free = new int[firstHost[sites]];
        Arrays.fill(free, coresPerHost);
        localBusy = new int[sites];
        for (int s = 0; s < sites; s++) {
            localWaiting.add(new ArrayDeque<>());
            localSamples.add(new ArrayDeque<>());
        }
    }

    /** Replays the workload; one {@link Observed} per KOALA job, in the order of the jobs. */
    public static List<Observed> run(StartTimeWorkload workload, int[] hostsPerSite, int coresPerHost,
            PlacementPolicy policy, List<Variant> variants) {
        StartTimeReplay r = new StartTimeReplay(hostsPerSite, coresPerHost, policy, variants);
        return r.replay(workload);
    }

    private List<Observed> replay(StartTimeWorkload w) {
        total = w.jobs().size();
        w.jobs().forEach(j -> at(j.arrivalMs(), () -> arrive(j)));
        w.local().forEach(l -> at(l.arrivalMs(), () -> localWaiting.get(l.site()).add(l)));
        at(0, this::sampleLocal);
        while (!events.isEmpty() && (arrivals < total || !queue.isEmpty() || !running.isEmpty())) {
            now = events.peek().at;
            while (!events.isEmpty() && events.peek().at == now) {
                events.poll().action.run();
            }
            dispatchLocal();
            for (Job j : arrivedNow) {
                estimate(j);
            }
            arrivedNow.clear();
            dispatchKoala();
        }
        return w.jobs().stream().map(j -> observed.get(j.id())).toList();
    }

    private void at(long t, Runnable action) {
        events.add(new Event(t, seq++, action));
    }

    private void arrive(Job j) {
        arrivals++;
        queue.add(j);
        arrivedNow.add(j);
        recent.add(j);
        if (recent.size() > RECENT) {
            recent.poll();
        }
        predicted.put(j.id(), RuntimeGuess.of(history, SITE_DEFAULT).predict(j.owner(), j.name(), j.wallTime()));
    }

    private void sampleLocal() {
        for (int s = 0; s < siteCores.length; s++) {
            ArrayDeque<Integer> q = localSamples.get(s);
            q.add(localBusy[s]);
            if (q.size() > LOCAL_WINDOW_H * 3_600_000L / SAMPLE_EVERY_MS) {
                q.poll();
            }
        }
        if (arrivals < total) {
            at(now + SAMPLE_EVERY_MS, this::sampleLocal);
        }
    }

    /**
     * Each site's local queue in order of arrival, as SGE runs it without reservations: each job takes the first
     * host with room, and one that finds none waits without holding back the ones behind it.
     */
    private void dispatchLocal() {
        for (int s = 0; s < siteCores.length; s++) {
            for (Iterator<LocalJob> it = localWaiting.get(s).iterator(); it.hasNext(); ) {
                LocalJob l = it.next();
                int h = firstFit(s, l.cores());
                if (h < 0) {
                    continue;
                }
                it.remove();
                free[h] -= l.cores();
                localBusy[s] += l.cores();
                int site = s;
                at(now + l.runtimeMs(), () -> {
                    free[h] += l.cores();
                    localBusy[site] -= l.cores();
                    localEnded++;
                    localHeldMs += l.runtimeMs();
                });
            }
        }
    }

    private int firstFit(int s, int cores) {
        for (int h = firstHost[s]; h < firstHost[s + 1]; h++) {
            if (free[h] >= cores) {
                return h;
            }
        }
        return -1;
    }

    private void dispatchKoala() {
        for (Iterator<Job> it = queue.iterator(); it.hasNext(); ) {
            Job j = it.next();
            if (policy.place(need(j), view()) instanceof PlacementDecision.Placed placed) {
                it.remove();
                start(j, placed.assignments());
            }
        }
    }

    private void start(Job j, List<Assignment> assignments) {
        Map<Integer, Integer> perHost = new java.util.TreeMap<>();
        for (Assignment a : assignments) {
            for (int k = 0; k < a.nodes(); k++) {
                perHost.merge(host(a.site(), a.host(k)), 1, Integer::sum);
            }
        }
        int[] hosts = perHost.keySet().stream().mapToInt(Integer::intValue).toArray();
        int[] cores = perHost.values().stream().mapToInt(Integer::intValue).toArray();
        List<Hold> holds = new ArrayList<>();
        for (int k = 0; k < hosts.length; k++) {
            free[hosts[k]] -= cores[k];
            holds.add(new Hold(siteName(siteOf(hosts[k])), hostName(hosts[k]), new Resources(cores[k], 0, 0)));
        }
        running.put(j.id(), new Running(j, now, holds, hosts, cores));
        Observed o = observed.get(j.id());
        observed.put(j.id(), new Observed(j, now, o.likely(), o.low(), o.high(), o.replayed(), o.naiveMs()));
        for (int v = 0; v < variants.size(); v++) {
            if (o.replayed()[v] != Long.MAX_VALUE) {
                started[v] = started[v].with(Duration.ofMillis(o.replayed()[v] - j.arrivalMs()),
                        Duration.ofMillis(now - j.arrivalMs()));
            }
        }
        at(now + j.runtimeMs(), () -> end(j.id()));
    }

    private void end(int id) {
        Running r = running.remove(id);
        for (int k = 0; k < r.hosts().length; k++) {
            free[r.hosts()[k]] += r.cores()[k];
        }
        history = history.with(r.job().owner(), r.job().name(), Duration.ofMillis(r.job().runtimeMs()), predicted.get(id));
        recentRuntimes.add(r.job().runtimeMs());
        if (recentRuntimes.size() > NAIVE_WINDOW) {
            recentRuntimes.poll();
        }
    }

    /** Every variant's estimate for {@code j} at its submission, and the naive one. */
    private void estimate(Job j) {
        int position = queue.indexOf(j);
        long[] likely = new long[variants.size()];
        long[] low = new long[variants.size()];
        long[] high = new long[variants.size()];
        long[] replayed = new long[variants.size()];
        for (int v = 0; v < variants.size(); v++) {
            Variant variant = variants.get(v);
            GridSnapshot snap = snapshot(queue.subList(0, position + 1), variant.localLoad(), variant.arrivals());
            StartEstimator estimator = new StartEstimator(variant.runtimes().apply(history), variant.samples(), j.id());
            List<Estimate> all = estimator.estimate(snap, variant.calibrated() ? started[v] : StartHistory.empty());
            Estimate e = all.get(all.size() - 1);
            likely[v] = ms(e.likely());
            low[v] = ms(e.low());
            high[v] = ms(e.high());
            replayed[v] = ms(e.replayed());
        }
        double mean = recentRuntimes.isEmpty() ? SITE_DEFAULT.toMillis()
                : recentRuntimes.stream().mapToLong(Long::longValue).average().orElse(0);
        long naive = now + Math.round(position * mean / siteCores.length);
        observed.put(j.id(), new Observed(j, -1, likely, low, high, replayed, naive));
    }

    private static long ms(Instant t) {
        return t == null ? Long.MAX_VALUE : t.toEpochMilli() - EPOCH.toEpochMilli();
    }

    private GridSnapshot snapshot(List<Job> waiting, boolean withLocal, boolean withArrivals) {
        List<SiteState> sites = new ArrayList<>();
        Map<String, LocalLoad> local = new HashMap<>();
        for (int s = 0; s < siteCores.length; s++) {
            List<HostState> hosts = new ArrayList<>();
            for (int h = firstHost[s]; h < firstHost[s + 1]; h++) {
                hosts.add(new HostState(hostName(h), new Resources(coresPerHost, 0, 0), new Resources(free[h], 0, 0)));
            }
            sites.add(new SiteState(siteName(s), hosts));
            if (withLocal) {
                local.put(siteName(s), localLoad(s));
            }
        }
        List<RunningWork> work = running.values().stream().map(r -> new RunningWork("j" + r.job().id(), r.job().owner(),
                r.job().name(), instant(r.startedMs()), r.job().wallTime(), r.holds())).toList();
        List<QueuedJob> q = waiting.stream().map(this::queued).toList();
        return new GridSnapshot(instant(now), sites, work, List.of(), List.of(), local, q,
                withArrivals ? arrivals() : koala.estimate.Arrivals.NONE);
    }

    private QueuedJob queued(Job j) {
        return new QueuedJob("j" + j.id(), j.owner(), j.name(), need(j), policy, j.wallTime());
    }

    /** The rate of the last {@value #RECENT} submissions (including this one) and those jobs. */
    private koala.estimate.Arrivals arrivals() {
        if (recent.size() < 2 || now == recent.peekFirst().arrivalMs()) {
            return koala.estimate.Arrivals.NONE;
        }
        double perHour = (recent.size() - 1) * 3_600_000.0 / (now - recent.peekFirst().arrivalMs());
        return new koala.estimate.Arrivals(perHour, recent.stream().map(this::queued).toList());
    }

    private LocalLoad localLoad(int s) {
        int[] seen = localSamples.get(s).stream().mapToInt(Integer::intValue).sorted().toArray();
        if (seen.length == 0) {
            return new LocalLoad(localBusy[s], localBusy[s], localBusy[s]);
        }
        double mean = Arrays.stream(seen).average().orElse(0);
        double p90 = Math.max(mean, seen[Math.max(0, (int) Math.ceil(0.9 * seen.length) - 1)]);
        Duration turnover = localEnded == 0 ? null : Duration.ofMillis(Math.max(1, localHeldMs / localEnded));
        return new LocalLoad(localBusy[s], mean, p90, turnover);
    }


    private static Instant instant(long ms) {
        return EPOCH.plusMillis(ms);
    }

    private JobNeed need(Job j) {
        return new JobNeed("j" + j.id(), List.of(new ComponentNeed(0, j.nodes(), null, List.of())), false);
    }

    private GridView view() {
        List<SiteView> sites = new ArrayList<>();
        for (int s = 0; s < siteCores.length; s++) {
            List<HostView> hosts = new ArrayList<>();
            for (int h = firstHost[s]; h < firstHost[s + 1]; h++) {
                hosts.add(new HostView(hostName(h), new Resources(coresPerHost, 0, 0), new Resources(free[h], 0, 0)));
            }
            sites.add(new SiteView(siteName(s), hosts));
        }
        return new GridView(sites, FileLocations.NONE);
    }

    private int host(String site, String host) {
        return firstHost[Integer.parseInt(site.substring(2))] + Integer.parseInt(host.substring(host.lastIndexOf('n') + 1));
    }

    private int siteOf(int h) {
        int s = 0;
        while (firstHost[s + 1] <= h) {
            s++;
        }
        return s;
    }

    private static String siteName(int s) {
        return "fs" + s;
    }

    private String hostName(int h) {
        int s = siteOf(h);
        return siteName(s) + "-n" + (h - firstHost[s]);
    }
}
