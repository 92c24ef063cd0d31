package koala.estimate;

import java.time.Duration;
import java.util.Random;

/**
 * What a site's own users (who submit to its resource manager directly) held over the last hours, in cores: the
 * estimate holds their likely level back from KOALA and draws it within their spread.
 *
 * <p>Their level is their mean (the likely run) or drawn from a normal distribution of this mean and 90th
 * percentile (the samples). When {@code turnover} is known, the load moves to that level after a turnover (the
 * likely run: its median, ln 2 of it; the samples: drawn from an exponential distribution of that mean), as an
 * infinite-server queue relaxes to its mean: above it, what they hold beyond it comes back then, as their jobs end
 * and fewer replace them; below it, they take what they lack then, from the first cores free, as their next jobs
 * come (not at once: KOALA's rounds until then see those cores free). Without a turnover the estimate never counts
 * on them leaving, and they take what they lack at once.
 *
 * @param busyNow  cores they hold now (already not free in the snapshot)
 * @param mean     the mean of what they held over the last hours
 * @param high     the 90th percentile of it
 * @param turnover how long their jobs hold cores on average, or null when not known
 */
public record LocalLoad(int busyNow, double mean, double high, Duration turnover) {
    /** z of the 90th percentile of a normal distribution. */
    private static final double Z90 = 1.2816;

    public LocalLoad {
        if (busyNow < 0 || mean < 0 || high < mean || turnover != null && (turnover.isNegative() || turnover.isZero())) {
            throw new IllegalArgumentException("local load: busy now, mean and 90th percentile are 0 or more, the "
                    + "percentile at least the mean and a turnover positive, got " + busyNow + ", " + mean + ", " + high
                    + ", " + turnover);
        }
    }

    /** Their load without a turnover: what they hold now is never counted as leaving. */
    public LocalLoad(int busyNow, double mean, double high) {
        this(busyNow, mean, high, null);
    }

    /** Their level: the mean (no {@code random}) or a draw, within what the site has. */
    int level(Random random, int cores) {
        double level = random == null ? mean : mean + random.nextGaussian() * (high - mean) / Z90;
        return (int) Math.round(Math.max(0, Math.min(cores, level)));
    }

    /**
     * When what they hold beyond their level comes back, or what they lack below it is taken, in ms from now: the
     * median turnover or a draw.
     */
    long turnoverAfter(Random random) {
        double mean = turnover.toMillis();
        return Math.round(random == null ? Math.log(2) * mean : -Math.log(1 - random.nextDouble()) * mean);
    }
}
