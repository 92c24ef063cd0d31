package koala.estimate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import koala.placement.Assignment;
import koala.placement.FileLocations;
import koala.placement.GridView;
import koala.placement.HostView;
import koala.placement.PlacementDecision;
import koala.placement.SiteView;

/**
 * When will each queued job start: the placement queue replayed forward in virtual time from a
 * {@link GridSnapshot} by each job's own placement policy, once as likely (runtimes at their median, local users
 * at their mean load: the sites and the reasons) and {@code samples} times with runtimes and local load drawn
 * (seeded): the median start and the 10th and 90th percentiles, the 80% range.
 *
 * <p>Pure: no I/O and no clock; the same snapshot, runtime guess and seed give the same estimates.
 */
public final class StartEstimator {
    /** Odd, so the median is one of the samples. */
    public static final int DEFAULT_SAMPLES = 21;

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

    /** Estimates for the claims in flight (starting now), then for every queued job, in the snapshot's order. */
    public List<Estimate> estimate(GridSnapshot snapshot) {
        Map<Integer, PlacementDecision.NotPlaced> never = neverPlaceable(snapshot);
        int[] placeable = java.util.stream.IntStream.range(0, snapshot.queue().size())
                .filter(j -> !never.containsKey(j)).toArray();
        GridIndex ix = new GridIndex(snapshot, placeable);
        Inputs in = new Inputs(ix, runtimes);
        VirtualRun likely = VirtualRun.run(ix, in.likelyEnds(), in.likelyRuntimes(), in.likelyLocal(), true);
        Random random = new Random(seed);
        long[][] starts = new long[samples][];
        for (int k = 0; k < samples; k++) {
            starts[k] = VirtualRun.run(ix, in.drawnEnds(random), in.drawnRuntimes(random), in.drawnLocal(random), false).starts;
        }
        WaitReasons why = new WaitReasons(ix, likely);
        List<Estimate> out = new ArrayList<>();
        for (Claim c : snapshot.claims()) {
            List<String> sites = c.holds().stream().map(Hold::site).distinct().toList();
            out.add(new Estimate(c.jobId(), Estimate.Status.STARTING, snapshot.now(), snapshot.now(), snapshot.now(), sites,
                    List.of(), List.of()));
        }
        for (int j = 0; j < snapshot.queue().size(); j++) {
            out.add(never.containsKey(j) ? neverEstimate(snapshot.queue().get(j).id(), never.get(j))
                    : estimate(ix, likely, why, starts, j));
        }
        return out;
    }

    private Estimate estimate(GridIndex ix, VirtualRun likely, WaitReasons why, long[][] starts, int j) {
        long[] mine = new long[samples];
        for (int k = 0; k < samples; k++) {
            mine[k] = starts[k][j];
        }
        Arrays.sort(mine);
        Instant median = at(mine, 0.5);
        String id = ix.snapshot.queue().get(j).id();
        List<String> sites = likely.where.get(j).stream().map(Assignment::site).distinct().toList();
        Estimate.Status status = median == null ? Estimate.Status.NOT_FORESEEN
                : likely.starts[j] == ix.now ? Estimate.Status.NOW : Estimate.Status.WAITING;
        List<Estimate.SiteWait> waits = likely.starts[j] == VirtualRun.NEVER || likely.starts[j] == ix.now ? List.of()
                : why.of(j);
        return new Estimate(id, status, median, median == null ? null : at(mine, 0.1), at(mine, 0.9), sites,
                likely.reasonsNow.get(j), waits);
    }

    private static Estimate neverEstimate(String id, PlacementDecision.NotPlaced why) {
        return new Estimate(id, Estimate.Status.NEVER_PLACEABLE, null, null, null, List.of(), why.reasons(), List.of());
    }

    /** The nearest-rank percentile of sorted starts; null when it falls on a run in which the job did not start. */
    private static Instant at(long[] sorted, double p) {
        long v = sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)];
        return v == VirtualRun.NEVER ? null : Instant.ofEpochMilli(v);
    }

    /** The queued jobs placement cannot place even on an idle grid, by queue position; asked once per shape. */
    private static Map<Integer, PlacementDecision.NotPlaced> neverPlaceable(GridSnapshot snapshot) {
        List<SiteView> idle = new ArrayList<>();
        for (SiteState s : snapshot.sites()) {
            idle.add(new SiteView(s.name(), s.hosts().stream().map(h -> new HostView(h.name(), h.total(), h.total())).toList()));
        }
        GridView grid = new GridView(idle, FileLocations.NONE);
        Map<List<Object>, PlacementDecision> seen = new HashMap<>();
        Map<Integer, PlacementDecision.NotPlaced> never = new HashMap<>();
        for (int j = 0; j < snapshot.queue().size(); j++) {
            QueuedJob q = snapshot.queue().get(j);
            PlacementDecision d = seen.computeIfAbsent(List.of(q.policy(), q.need().components(), q.need().flexible()),
                    k -> q.policy().place(q.need(), grid));
            if (d instanceof PlacementDecision.NotPlaced np) {
                never.put(j, np);
            }
        }
        return never;
    }
}
