package koala.estimate;

/**
 * What a site's own users (who submit to its resource manager directly) held over the last hours, in busy
 * cores: the estimate holds their likely share back from KOALA and draws it within their spread.
 *
 * @param busyNow cores they hold now (already not free in the snapshot)
 * @param mean    their mean over the last hours
 * @param high    the 90th percentile over the last hours
 */
public record LocalLoad(int busyNow, double mean, double high) {
    /** z of the 90th percentile of a normal distribution. */
    private static final double Z90 = 1.2816;

    public LocalLoad {
        if (busyNow < 0 || mean < 0 || high < mean) {
            throw new IllegalArgumentException("local load: busy now, mean and 90th percentile are 0 or more and the "
                    + "percentile at least the mean, got " + busyNow + ", " + mean + ", " + high);
        }
    }

    /** Cores they will likely hold beyond what they hold now: what the estimate takes from the first cores freed. */
    int likelyExtra() {
        return Math.max(0, (int) Math.round(mean) - busyNow);
    }

    /** Like {@link #likelyExtra}, with their level drawn from a normal distribution of this mean and 90th percentile. */
    int drawnExtra(java.util.Random random, int cores) {
        double level = mean + random.nextGaussian() * (high - mean) / Z90;
        return Math.max(0, (int) Math.round(Math.min(cores, level)) - busyNow);
    }
}
