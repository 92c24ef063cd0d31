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
    private final Duration waitFor;
    private final Duration grace;

    /** Callers wait 20 s for their work to begin and end, and 5 s more once it has begun: less than a client's 30 s. */
    SchedulerLoop(ScheduledExecutorService thread) {
        this(thread, Duration.ofSeconds(20), Duration.ofSeconds(5));
    }

    /**
     * @param waitFor how long a caller waits for its work; work not begun by then is dropped (503)
     * @param grace   how much longer it waits for work that has begun (then 504)
     */
    SchedulerLoop(ScheduledExecutorService thread, Duration waitFor, Duration grace) {
        this.thread = thread;
        this.waitFor = waitFor;
        this.grace = grace;
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
        // 0 waiting, 1 begun, 2 dropped: whichever of the loop and the caller moves it first decides
        java.util.concurrent.atomic.AtomicInteger state = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.Future<T> done = thread.submit(() -> state.compareAndSet(0, 1) ? work.call() : null);
        try {
            try {
                return done.get(waitFor.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (state.compareAndSet(0, 2)) {
                    // not begun: it never will be, so the caller is told truly that nothing was done
                    throw new Unavailable("the scheduler is busy; nothing was done; try again");
                }
                // begun: its answer is worth a little more of the caller's time
                return done.get(grace.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new Unavailable("the scheduler is still at it; ask again with the same request id to learn "
                    + "what it did");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unavailable("interrupted");
        }
    }

    /**
     * Queues {@code work} onto the loop without waiting for it: how the outcome of work done off the
     * loop (a pilot's submission, a relay made on a remote head node) comes back as an event.
     */
    void post(Runnable work) {
        try {
            thread.execute(() -> {
                try {
                    work.run();
                } catch (RuntimeException e) {
                    LOG.error("scheduler event failed; carrying on", e);
                }
                changed();
            });
        } catch (java.util.concurrent.RejectedExecutionException stopping) {
            LOG.debug("the loop has stopped; an event is dropped");
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
