package koala.scheduler;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import koala.common.failure.Unavailable;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The one thread the scheduler's state lives on. API calls and the periodic tick are queued onto
 * it; after each, waiting long-polls are woken to look again.
 */
final class SchedulerLoop implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(SchedulerLoop.class);

    private final ScheduledExecutorService thread;
    private final Object changes = new Object();

    SchedulerLoop(ScheduledExecutorService thread) {
        this.thread = thread;
    }

    void every(Duration period, Runnable work) {
        thread.scheduleWithFixedDelay(() -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                LOG.error("scheduler round failed; carrying on", e);
            }
            changed();
        }, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs {@code work} on the loop and returns its result; a Failure it throws reaches the caller. */
    <T> T call(Callable<T> work) {
        T result = look(work);
        changed();
        return result;
    }

    /**
     * As {@link #call}, without waking the long-polls afterwards: for a long-poll's own look at its
     * node, which changes nothing another poll waits for. (Were it to wake them, two polls would
     * wake each other for ever and keep the loop thread busy.)
     */
    <T> T look(Callable<T> work) {
        try {
            return thread.submit(work).get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new Unavailable("the scheduler is busy; try again");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unavailable("interrupted");
        }
    }

    /** Blocks the calling (HTTP) thread until the loop has done something, or {@code millis} pass. */
    void awaitChange(long millis) throws InterruptedException {
        synchronized (changes) {
            changes.wait(millis);
        }
    }

    private void changed() {
        synchronized (changes) {
            changes.notifyAll();
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
