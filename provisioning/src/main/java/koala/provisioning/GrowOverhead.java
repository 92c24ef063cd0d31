package koala.provisioning;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The online estimate of {@code O_grow}: how long a grow takes, from the runner's grow request to
 * the new worker reporting in (allocation, SGE scheduling, pilot start, entity start).
 *
 * <p>Per site, the estimate is the median of the last k completed grows there (k = 5 unless told
 * otherwise; the mean of the two middle ones for an even count); the median rather than the mean
 * so that one grow stuck in an SGE queue does not double {@code t_idle} for the next k grows.
 * Before a site has any sample, the estimate is the paper's 30 s on DAS-4. {@link #estimate()}
 * is the same over the last k grows on any site.
 *
 * <p>The only mutable class in this package: the runner records into it as grows complete.
 * Its methods are synchronized, so the runner's request threads may record while its policy thread reads.
 */
public final class GrowOverhead {
    /** The paper's O_grow on DAS-4, used until a grow has been measured. */
    public static final Duration PAPER_ESTIMATE = Duration.ofSeconds(30);
    /** How many recent grows the median is taken over, by default. */
    public static final int DEFAULT_WINDOW = 5;

    private final int window;
    private final Duration initial;
    private final Map<String, Deque<Duration>> bySite = new HashMap<>();
    private final Deque<Duration> all = new ArrayDeque<>();

    /** k = 5, 30 s before any sample. */
    public GrowOverhead() {
        this(DEFAULT_WINDOW, PAPER_ESTIMATE);
    }

    /**
     * @param window  k, the number of recent grows the median is taken over (at least 1)
     * @param initial the estimate before any grow has been measured
     */
    public GrowOverhead(int window, Duration initial) {
        if (window < 1) {
            throw new IllegalArgumentException("the window is at least 1 grow, not " + window);
        }
        if (initial.isNegative()) {
            throw new IllegalArgumentException("the initial estimate is negative: " + initial);
        }
        this.window = window;
        this.initial = initial;
    }

    /** Records a grow on {@code site} asked for at {@code requested} whose worker reported in at {@code reportedIn}. */
    public void record(String site, Instant requested, Instant reportedIn) {
        record(site, Duration.between(requested, reportedIn));
    }

    /** Records a completed grow on {@code site} that took {@code growTime}. */
    public synchronized void record(String site, Duration growTime) {
        Objects.requireNonNull(site, "site");
        if (growTime.isNegative()) {
            throw new IllegalArgumentException("a grow on " + site + " cannot take " + growTime);
        }
        push(bySite.computeIfAbsent(site, s -> new ArrayDeque<>()), growTime);
        push(all, growTime);
    }

    /** O_grow on {@code site}: the median of its last k grows, or the initial estimate before any. */
    public synchronized Duration estimate(String site) {
        return median(bySite.getOrDefault(site, new ArrayDeque<>()));
    }

    /** O_grow over the grid: the median of the last k grows on any site, or the initial estimate. */
    public synchronized Duration estimate() {
        return median(all);
    }

    /**
     * Per site, the grows each estimate is the median of, oldest first: what a runner keeps so that
     * one started again in its place {@link #record records} them again and estimates the same.
     */
    public synchronized Map<String, List<Duration>> recent() {
        Map<String, List<Duration>> copy = new java.util.TreeMap<>();
        bySite.forEach((site, grows) -> copy.put(site, List.copyOf(grows)));
        return copy;
    }

    /** How many grows on {@code site} the estimate is made of (at most k). */
    public synchronized int samples(String site) {
        return bySite.getOrDefault(site, new ArrayDeque<>()).size();
    }

    private void push(Deque<Duration> recent, Duration growTime) {
        recent.addLast(growTime);
        if (recent.size() > window) {
            recent.removeFirst();
        }
    }

    private Duration median(Deque<Duration> recent) {
        if (recent.isEmpty()) {
            return initial;
        }
        List<Duration> sorted = new ArrayList<>(recent);
        sorted.sort(null);
        int middle = sorted.size() / 2;
        if (sorted.size() % 2 == 1) {
            return sorted.get(middle);
        }
        return sorted.get(middle - 1).plus(sorted.get(middle)).dividedBy(2);
    }
}
