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
        queued = s.queue().stream().map(q -> guess.predict(q.owner(), q.name(), q.wallTime()))
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
        long[] r = new long[queued.length];
        for (int j = 0; j < queued.length; j++) {
            r[j] = total(queued[j], ix.snapshot.queue().get(j).wallTime(), 0, random);
        }
        return r;
    }

    private long total(RuntimeGuess.Prediction p, java.time.Duration wallTime, long elapsed, Random random) {
        return random == null ? guess.likely(p, wallTime, elapsed) : guess.draw(p, wallTime, elapsed, random);
    }

    int[] likelyLocal() {
        return local(null);
    }

    int[] drawnLocal(Random random) {
        return local(random);
    }

    private int[] local(Random random) {
        int[] extra = new int[ix.sites()];
        for (int s = 0; s < extra.length; s++) {
            LocalLoad l = ix.snapshot.localLoad().get(ix.siteNames[s]);
            if (l != null) {
                extra[s] = random == null ? l.likelyExtra() : l.drawnExtra(random, ix.snapshot.sites().get(s).cores());
            }
        }
        return extra;
    }
}
