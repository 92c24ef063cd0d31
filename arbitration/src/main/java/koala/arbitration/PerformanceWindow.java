package koala.arbitration;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The figure an instance reports to the performance policy, over a sliding window: the mean of the
 * values recorded in the last {@code window}. What a value is belongs to the framework: an instance
 * that rejects applications records 0 for each one served and 1 for each rejected (or killed) and
 * reports {@link #stretch} of the mean; one whose jobs queue records each finished job's slowdown.
 * Time is always given, never read.
 */
public final class PerformanceWindow {
    /** A figure above this is reported as this: an instance that loses everything does not report infinity. */
    public static final double MAX_STRETCH = 100;

    private record Value(Instant at, double value) {
    }

    private final Duration window;
    private final Deque<Value> values = new ArrayDeque<>();
    private double sum;

    public PerformanceWindow(Duration window) {
        if (window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("a window of " + window + "; it must be positive");
        }
        this.window = window;
    }

    /** Records {@code value} at {@code at}; values must come in time order. */
    public void record(Instant at, double value) {
        Objects.requireNonNull(at, "at");
        if (!values.isEmpty() && at.isBefore(values.peekLast().at())) {
            throw new IllegalArgumentException("time went back from " + values.peekLast().at() + " to " + at);
        }
        values.addLast(new Value(at, value));
        sum += value;
    }

    /** The mean of the values recorded after {@code now − window}; empty when there are none. */
    public OptionalDouble mean(Instant now) {
        Instant after = now.minus(window);
        while (!values.isEmpty() && !values.peekFirst().at().isAfter(after)) {
            sum -= values.removeFirst().value();
        }
        return values.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(sum / values.size());
    }

    /** Values in the window at the last {@link #mean} call. */
    public int size() {
        return values.size();
    }

    /**
     * The slowdown of an instance that loses this share of its applications: 1 / (1 − lost), so 1
     * when it loses none and 2 when it loses half — as if each application served took the time
     * of 1 / (1 − lost) offered. At most {@link #MAX_STRETCH}.
     */
    public static double stretch(double lostShare) {
        if (!(lostShare >= 0 && lostShare <= 1)) {
            throw new IllegalArgumentException("a share lost of " + lostShare + "; it is between 0 and 1");
        }
        return lostShare >= 1 - 1 / MAX_STRETCH ? MAX_STRETCH : 1 / (1 - lostShare);
    }
}
