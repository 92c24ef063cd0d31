package koala.estimate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How right the estimates were: for the last {@value #KEPT} jobs per class of predicted wait (under 10 minutes,
 * 10 minutes to an hour, an hour or more; at least {@value #MIN_PREDICTED_S} s) that started, the ratio of the
 * wait they had to the wait the replays predicted at their submission ({@link Estimate#replayed}). The replays
 * miss what no snapshot holds (the local users' jobs to come, the exact runtimes, the submissions to come), so
 * their own spread is too narrow and their median may lean one way; once a class holds {@value #MIN_RATIOS}
 * ratios they calibrate the estimates whose replayed wait falls in it: the likely wait is the replayed one times
 * their median, and the 80% range is widened to at least their 10th to 90th percentiles. A value: {@link #with}
 * returns a new history.
 *
 * @param ratios per class of predicted wait, shortest first, the ratios oldest first
 */
public record StartHistory(List<List<Double>> ratios) {
    public static final int KEPT = 200;
    public static final int MIN_RATIOS = 20;
    public static final long MIN_PREDICTED_S = 60;
    /** Where the classes of predicted wait begin, in seconds. */
    private static final long[] CLASS_FROM_S = {MIN_PREDICTED_S, 600, 3600};

    public StartHistory {
        ratios = ratios.stream().map(List::copyOf).toList();
        if (ratios.size() != CLASS_FROM_S.length) {
            throw new IllegalArgumentException("ratios for " + CLASS_FROM_S.length + " classes of predicted wait, not " + ratios.size());
        }
    }

    public static StartHistory empty() {
        return new StartHistory(List.of(List.of(), List.of(), List.of()));
    }

    /** This history and one more start, {@code actualWait} after its submission, for which {@code replayedWait} was said. */
    public StartHistory with(Duration replayedWait, Duration actualWait) {
        int c = classOf(replayedWait.toMillis());
        if (c < 0) {
            return this;
        }
        List<Double> all = new ArrayList<>(ratios.get(c));
        all.add((double) actualWait.toMillis() / replayedWait.toMillis());
        List<List<Double>> next = new ArrayList<>(ratios);
        next.set(c, all.subList(Math.max(0, all.size() - KEPT), all.size()));
        return new StartHistory(next);
    }

    /** Whether there are enough ratios to calibrate a replayed wait of {@code waitMs}. */
    boolean calibrates(long waitMs) {
        int c = classOf(waitMs);
        return c >= 0 && ratios.get(c).size() >= MIN_RATIOS;
    }

    /** The nearest-rank percentile {@code p} of the ratios of the class of a replayed wait of {@code waitMs}. */
    double ratio(long waitMs, double p) {
        double[] sorted = ratios.get(classOf(waitMs)).stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        return sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)];
    }

    private static int classOf(long waitMs) {
        int c = -1;
        for (int i = 0; i < CLASS_FROM_S.length; i++) {
            if (waitMs >= CLASS_FROM_S[i] * 1000) {
                c = i;
            }
        }
        return c;
    }
}
