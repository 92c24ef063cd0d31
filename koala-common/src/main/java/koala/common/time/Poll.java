package koala.common.time;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition outside this process (a daemon answering, a file appearing) that sends no
 * signal when it becomes true, so the only way to learn is to look again. Used by set-up code, not
 * by the scheduling paths, which are driven by injected executors.
 */
public final class Poll {
    private final InstantSource clock;
    private final Duration every;

    public Poll(InstantSource clock, Duration every) {
        this.clock = clock;
        this.every = every;
    }

    public static Poll system() {
        return new Poll(InstantSource.system(), Duration.ofMillis(200));
    }

    /** True once {@code condition} holds, false if {@code timeout} passed first. */
    public boolean until(BooleanSupplier condition, Duration timeout) {
        Instant deadline = clock.instant().plus(timeout);
        while (!condition.getAsBoolean()) {
            if (!clock.instant().isBefore(deadline)) {
                return false;
            }
            LockSupport.parkNanos(every.toNanos());
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
        }
        return true;
    }
}
