package koala.sim;

import java.time.Duration;
import java.util.Random;

/**
 * O_grow as a simulated site has it: the time from a grow being granted to the new worker
 * reporting in (SGE scheduling, pilot start, entity start). Uniform on {@code mean ± jitter};
 * the paper's DAS-4 value is 30 s, with no spread stated.
 */
public record GrowDelay(Duration mean, Duration jitter) {
    public static final GrowDelay PAPER = new GrowDelay(Duration.ofSeconds(30), Duration.ZERO);

    public GrowDelay {
        if (mean.isNegative() || jitter.isNegative() || jitter.compareTo(mean) > 0) {
            throw new IllegalArgumentException("O_grow " + mean + " ± " + jitter + ": need 0 <= jitter <= mean");
        }
    }

    public static GrowDelay fixed(Duration mean) {
        return new GrowDelay(mean, Duration.ZERO);
    }

    Duration draw(Random random) {
        if (jitter.isZero()) {
            return mean;
        }
        long spread = jitter.toMillis();
        return mean.plusMillis(Math.round((random.nextDouble() * 2 - 1) * spread));
    }
}
