package koala.fluent.device;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The RL application, a video filter: it smooths synthetic frames with a 3×3 box filter for its
 * duration. Its CPU load changes every load period to a level drawn uniformly from 50%–150% of
 * its mean (capped at 100%, seeded by the application id so a rerun repeats it), and is held by
 * duty cycle: in each 100 ms slice it filters frames for load × 100 ms and rests for the rest.
 */
final class VideoFilter {
    static final Duration SLICE = Duration.ofMillis(100);
    private static final int SIDE = 96;

    private final String app;
    private final Duration duration;
    private final double meanLoad;
    private final Duration loadPeriod;
    private final InstantSource clock;
    private final SplittableRandom random;
    private float[] frame = new float[SIDE * SIDE];
    private float[] filtered = new float[SIDE * SIDE];
    private Instant start;
    private Instant periodStart;
    private double load;
    private long frames;
    private double loadSum;
    private int periods;
    private ScheduledFuture<?> slices;

    VideoFilter(String app, Duration duration, double meanPercent, Duration loadPeriod, InstantSource clock) {
        this.app = app;
        this.duration = duration;
        this.meanLoad = meanPercent / 100;
        this.loadPeriod = loadPeriod;
        this.clock = clock;
        this.random = new SplittableRandom(app.hashCode());
        for (int i = 0; i < frame.length; i++) {
            frame[i] = random.nextInt(256);
        }
    }

    /** Runs on {@code executor}; {@code done} gets the result once the duration has passed. */
    void start(ScheduledExecutorService executor, Consumer<Map<String, Object>> done) {
        start = clock.instant();
        nextLoad(start);
        slices = executor.scheduleAtFixedRate(() -> slice(done), 0, SLICE.toMillis(), TimeUnit.MILLISECONDS);
    }

    void stop() {
        if (slices != null) {
            slices.cancel(false);
        }
    }

    private void slice(Consumer<Map<String, Object>> done) {
        Instant now = clock.instant();
        if (!now.isBefore(start.plus(duration))) {
            slices.cancel(false);
            done.accept(Map.of("frames", frames, "meanLoadPercent", Math.round(100 * loadSum / periods),
                    "loadChanges", periods - 1, "seconds", Duration.between(start, now).toMillis() / 1000.0));
            return;
        }
        if (!now.isBefore(periodStart.plus(loadPeriod))) {
            nextLoad(now);
        }
        Instant until = now.plusNanos((long) (load * SLICE.toNanos()));
        while (clock.instant().isBefore(until)) {
            filterOneFrame();
        }
    }

    private void nextLoad(Instant now) {
        periodStart = now;
        load = Math.min(1, meanLoad * (0.5 + random.nextDouble()));
        loadSum += load;
        periods++;
    }

    private void filterOneFrame() {
        for (int y = 1; y < SIDE - 1; y++) {
            for (int x = 1; x < SIDE - 1; x++) {
                float sum = 0;
                for (int dy = -1; dy <= 1; dy++) {
                    int row = (y + dy) * SIDE + x;
                    sum += frame[row - 1] + frame[row] + frame[row + 1];
                }
                filtered[y * SIDE + x] = sum / 9;
            }
        }
        float[] swap = frame;
        frame = filtered;
        filtered = swap;
        frames++;
    }

    @Override
    public String toString() {
        return app + " (rl, " + duration.toSeconds() + " s, mean load " + Math.round(meanLoad * 100) + "%)";
    }
}
