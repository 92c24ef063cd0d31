package koala.estimate;

import java.util.Random;

/**
 * What a virtual run is given, likely or drawn: when the work holding resources now ends, how long each queued
 * job runs, and how many more cores local users take per site. Predictions are made once per estimate.
 */
final class Inputs {
    private final GridIndex ix;
    private final RuntimeGuess guess;
    private final RuntimeGuess.Prediction[] running;
    private final RuntimeGuess.Prediction[] claims;
    private final RuntimeGuess.Prediction[] queued;

    Inputs(GridIndex ix, RuntimeGuess guess) {
        this.ix = ix;
        this.guess = guess;
        GridSnapshot s = ix.snapshot;
        running = s.running().stream().map(r -> guess.predict(r.owner(), r.name(), r.wallTime()))
                .toArray(RuntimeGuess.Prediction[]::new);
        claims = s.claims().stream().map(c -> guess.predict(c.owner(), c.name(), c.wallTime()))
                .toArray(RuntimeGuess.Prediction[]::new);
        queued = ix.jobs.stream().map(q -> guess.predict(q.owner(), q.name(), q.wallTime()))
                .toArray(RuntimeGuess.Prediction[]::new);
    }

    long[] likelyEnds() {
        return ends(null);
    }

    long[] drawnEnds(Random random) {
        return ends(random);
    }

    private long[] ends(Random random) {
        GridSnapshot s = ix.snapshot;
        long[] ends = new long[ix.holderIds.length];
        int i = 0;
        for (int r = 0; r < running.length; r++, i++) {
            RunningWork w = s.running().get(r);
            long started = w.started().toEpochMilli();
            long elapsed = Math.max(0, ix.now - started);
            ends[i] = started + total(running[r], w.wallTime(), elapsed, random);
        }
        for (int c = 0; c < claims.length; c++, i++) {
            ends[i] = ix.now + total(claims[c], s.claims().get(c).wallTime(), 0, random);
        }
        for (Shrink sh : s.shrinks()) {
            ends[i++] = Math.max(ix.now, sh.at().toEpochMilli());
        }
        return ends;
    }

    long[] likelyRuntimes() {
        return runtimes(null);
    }

    long[] drawnRuntimes(Random random) {
        return runtimes(random);
    }

    private long[] runtimes(Random random) {
        long[] r = new long[ix.queued];
        for (int j = 0; j < r.length; j++) {
            r[j] = runtime(j, random);
        }
        return r;
    }

    /** How long job {@code j} of {@link GridIndex#jobs} runs: likely (no {@code random}) or drawn. */
    long runtime(int j, Random random) {
        return total(queued[j], ix.jobs.get(j).wallTime(), 0, random);
    }

    private long total(RuntimeGuess.Prediction p, java.time.Duration wallTime, long elapsed, Random random) {
        return random == null ? guess.likely(p, wallTime, elapsed) : guess.draw(p, wallTime, elapsed, random);
    }

    /**
     * Per site, what local users do in a run: from {@code at} on, take {@code extra} cores from the first free, or
     * give {@code leave} of those they hold back.
     */
    record LocalPlan(int[] extra, int[] leave, long[] at) {
    }

    LocalPlan likelyLocal() {
        return local(null);
    }

    LocalPlan drawnLocal(Random random) {
        return local(random);
    }

    private LocalPlan local(Random random) {
        int n = ix.sites();
        LocalPlan plan = new LocalPlan(new int[n], new int[n], new long[n]);
        for (int s = 0; s < n; s++) {
            LocalLoad l = ix.snapshot.localLoad().get(ix.siteNames[s]);
            if (l != null) {
                int level = l.level(random, ix.snapshot.sites().get(s).cores());
                plan.extra()[s] = Math.max(0, level - l.busyNow());
                plan.at()[s] = l.turnover() == null || level == l.busyNow() ? ix.now : ix.now + l.turnoverAfter(random);
                if (level < l.busyNow() && l.turnover() != null) {
                    plan.leave()[s] = Math.min(l.busyNow() - level, ix.localOn(s));
                }
            }
        }
        return plan;
    }
}
