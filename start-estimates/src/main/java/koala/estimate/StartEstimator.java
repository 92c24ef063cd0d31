package koala.estimate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import koala.placement.Assignment;
import koala.placement.GridView;
import koala.placement.HostView;
import koala.placement.PlacementDecision;
import koala.placement.SiteView;

/**
 * When will each queued job start: the placement queue replayed forward in virtual time from a
 * {@link GridSnapshot} by each job's own placement policy, once as likely (runtimes at their median, local users
 * at their level, submissions to come at their mean rate: the sites and the reasons) and {@code samples} times
 * with all of these drawn (seeded): the median start and the 10th and 90th percentiles, the 80% range; then
 * calibrated by how right earlier estimates were ({@link StartHistory}).
 *
 * <p>Pure: no I/O and no clock; the same snapshot, runtime guess and seed give the same estimates.
 */
public final class StartEstimator {
    /** Odd, so the median is one of the samples. */
    public static final int DEFAULT_SAMPLES = 15;

    private final RuntimeGuess runtimes;
    private final int samples;
    private final long seed;

    public StartEstimator(RuntimeGuess runtimes, int samples, long seed) {
        if (samples < 1) {
            throw new IllegalArgumentException("an estimate needs at least one sample, not " + samples);
        }
        this.runtimes = runtimes;
        this.samples = samples;
        this.seed = seed;
    }

    /** {@link #estimate(GridSnapshot, StartHistory)} without calibration. */
    public List<Estimate> estimate(GridSnapshot snapshot) {
        return estimate(snapshot, StartHistory.empty());
    }

    /**
     * Estimates for the claims in flight (starting now), then for every queued job, in the snapshot's order,
     * calibrated by how right earlier estimates were when {@code started} holds enough of them.
     */
    public List<Estimate> estimate(GridSnapshot snapshot, StartHistory started) {
        List<QueuedJob> jobs = new ArrayList<>(snapshot.queue());
        jobs.addAll(snapshot.arrivals().recent());
        Map<Integer, PlacementDecision.NotPlaced> never = neverPlaceable(snapshot, jobs);
        int n = snapshot.queue().size();
        int[] placeable = IntStream.range(0, n).filter(j -> !never.containsKey(j)).toArray();
        int[] templates = IntStream.range(n, jobs.size()).filter(j -> !never.containsKey(j)).toArray();
        GridIndex ix = new GridIndex(snapshot, placeable, templates);
        Inputs in = new Inputs(ix, runtimes);
        VirtualRun likely = VirtualRun.run(ix, in, in.likelyEnds(), in.likelyRuntimes(), in.likelyLocal(), null);
        Random random = new Random(seed);
        VirtualRun[] drawn = new VirtualRun[samples];
        for (int k = 0; k < samples; k++) {
            drawn[k] = VirtualRun.run(ix, in, in.drawnEnds(random), in.drawnRuntimes(random), in.drawnLocal(random), random);
        }
        WaitReasons why = new WaitReasons(ix, likely);
        List<Estimate> out = new ArrayList<>();
        snapshot.claims().forEach(c -> out.add(starting(c, snapshot.now())));
        for (int j = 0; j < snapshot.queue().size(); j++) {
            out.add(never.containsKey(j) ? neverEstimate(snapshot.queue().get(j).id(), never.get(j))
                    : calibrated(estimate(ix, likely, why, drawn, j), snapshot.now(), started));
        }
        return out;
    }

    private Estimate estimate(GridIndex ix, VirtualRun likely, WaitReasons why, VirtualRun[] drawn, int j) {
        long[] mine = new long[samples];
        for (int k = 0; k < samples; k++) {
            mine[k] = drawn[k].starts[j];
        }
        Arrays.sort(mine);
        Instant median = at(mine, 0.5);
        String id = ix.snapshot.queue().get(j).id();
        List<String> sites = sites(likely.starts[j] != VirtualRun.NEVER ? likely : atMedian(drawn, j, median), j);
        Estimate.Status status = median == null ? Estimate.Status.NOT_FORESEEN
                : likely.starts[j] == ix.now ? Estimate.Status.NOW : Estimate.Status.WAITING;
        List<Estimate.SiteWait> waits = likely.starts[j] == VirtualRun.NEVER || likely.starts[j] == ix.now ? List.of()
                : why.of(j);
        return new Estimate(id, status, median, median == null ? null : at(mine, 0.1), at(mine, 0.9), median, sites,
                likely.reasonsNow.get(j), waits);
    }

    /**
     * The sampled run in which the job starts at its median: where it goes when the likely run (local users held at
     * their mean, which a job needing a whole site never gets past) does not start it.
     */
    private static VirtualRun atMedian(VirtualRun[] drawn, int j, Instant median) {
        for (VirtualRun run : drawn) {
            if (median != null && run.starts[j] == median.toEpochMilli()) {
                return run;
            }
        }
        return null;
    }

    private static List<String> sites(VirtualRun run, int j) {
        return run == null ? List.of() : run.where.get(j).stream().map(Assignment::site).distinct().toList();
    }

    /** The replayed wait times the median ratio of actual to replayed waits, the range widened to their 10th-90th. */
    private static Estimate calibrated(Estimate e, Instant now, StartHistory started) {
        long wait = e.replayed() == null ? 0 : e.replayed().toEpochMilli() - now.toEpochMilli();
        if (e.status() != Estimate.Status.WAITING || !started.calibrates(wait)) {
            return e;
        }
        Instant likely = now.plusMillis(Math.round(wait * started.ratio(wait, 0.5)));
        Instant low = earliest(e.low(), now.plusMillis(Math.round(wait * started.ratio(wait, 0.1))));
        Instant high = e.high() == null ? null : latest(e.high(), now.plusMillis(Math.round(wait * started.ratio(wait, 0.9))));
        return new Estimate(e.jobId(), e.status(), likely, earliest(low, likely), high == null ? null : latest(high, likely),
                e.replayed(), e.sites(), e.reasons(), e.waits());
    }

    private static Instant earliest(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Estimate starting(Claim c, Instant now) {
        List<String> sites = c.holds().stream().map(Hold::site).distinct().toList();
        return new Estimate(c.jobId(), Estimate.Status.STARTING, now, now, now, now, sites, List.of(), List.of());
    }

    private static Estimate neverEstimate(String id, PlacementDecision.NotPlaced why) {
        return new Estimate(id, Estimate.Status.NEVER_PLACEABLE, null, null, null, null, List.of(), why.reasons(), List.of());
    }

    /** The nearest-rank percentile of sorted starts; null when it falls on a run in which the job did not start. */
    private static Instant at(long[] sorted, double p) {
        long v = sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)];
        return v == VirtualRun.NEVER ? null : Instant.ofEpochMilli(v);
    }

    /**
     * The jobs (queued, then submitted lately) placement cannot place even on an idle grid, by position; asked once
     * per shape.
     */
    private static Map<Integer, PlacementDecision.NotPlaced> neverPlaceable(GridSnapshot snapshot, List<QueuedJob> jobs) {
        List<SiteView> idle = new ArrayList<>();
        for (SiteState s : snapshot.sites()) {
            idle.add(new SiteView(s.name(), s.hosts().stream().map(h -> new HostView(h.name(), h.total(), h.total())).toList()));
        }
        GridView grid = new GridView(idle, snapshot.files());
        Map<List<Object>, PlacementDecision> seen = new HashMap<>();
        Map<Integer, PlacementDecision.NotPlaced> never = new HashMap<>();
        for (int j = 0; j < jobs.size(); j++) {
            QueuedJob q = jobs.get(j);
            PlacementDecision d = seen.computeIfAbsent(List.of(q.policy(), q.need().components(), q.need().flexible()),
                    k -> q.policy().place(q.need(), grid));
            if (d instanceof PlacementDecision.NotPlaced np) {
                never.put(j, np);
            }
        }
        return never;
    }
}
