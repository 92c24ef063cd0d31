package koala.scheduler.metrics;

/**
 * The start estimates at a scrape: the likely waits from now of the jobs estimated to start (sorted, seconds),
 * how many have no start foreseen and how many can never be placed, and what the last refresh of the estimates
 * cost on its thread.
 */
public record StartFigures(double[] likelyWaits, int notForeseen, int neverPlaceable, double refreshSeconds) {
    public StartFigures {
        likelyWaits = likelyWaits.clone();
        java.util.Arrays.sort(likelyWaits);
    }

    /** The nearest-rank {@code p}-quantile of the likely waits; 0 when no job waits. */
    double wait(double p) {
        return likelyWaits.length == 0 ? 0 : likelyWaits[Math.max(0, (int) Math.ceil(p * likelyWaits.length) - 1)];
    }
}
