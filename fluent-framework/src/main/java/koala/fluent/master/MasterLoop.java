package koala.fluent.master;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import koala.common.failure.Unavailable;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The one thread the master's state lives on, as the runner's loop is. Clients' jobs and reads, the
 * DeviceManagers' hellos and reports and the tick are queued onto it ({@link #call}, {@link #every});
 * what its calls to the runner and to DeviceManagers bring back, made off it, comes back to it as events
 * ({@link #post}). Nothing on it waits on the network or on the disk, so a DeviceManager that hangs for
 * its 20 s time-out holds up no client.
 *
 * <p>A caller's answer leaves through {@link #answerThrough} (the journal's line: once what the work
 * wrote is on disk), never before. A caller waits for its work within a bound: work not begun by then is
 * dropped and the caller told so (503: nothing was done); work that has begun gets a little longer.
 *
 * <p>Worked examples run it on the caller's own thread ({@link #direct}), one caller at a time:
 * everything happens in order, at once, on the test's clock, and an event posted from work on the loop
 * runs at once, inside it, as the calls that brought it back were made.
 */
final class MasterLoop implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(MasterLoop.class);

    /** Callers wait 20 s for their work to begin and end, and 5 s more once it has begun: less than a client's 30 s. */
    static final Duration WAIT_FOR = Duration.ofSeconds(20);
    static final Duration GRACE = Duration.ofSeconds(5);

    private static final int WAITING = 0;
    private static final int BEGUN = 1;
    private static final int DROPPED = 2;

    /** The loop's thread; null when direct. */
    private final ScheduledExecutorService thread;
    /** One caller at a time on a direct loop (reentrant: an event posted from its work runs inside it). */
    private final ReentrantLock direct;
    private volatile Thread owner;
    private volatile Executor answers = Runnable::run;

    private MasterLoop(ScheduledExecutorService thread, ReentrantLock direct) {
        this.thread = thread;
        this.direct = direct;
    }

    /**
     * A loop on a thread of its own, named {@code name}: not a daemon, since the master's process lives as
     * long as its loop does ({@code MasterMain} returns once it has started it).
     */
    static MasterLoop threaded(String name) {
        MasterLoop[] loop = new MasterLoop[1];
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            loop[0].owner = t;
            return t;
        });
        loop[0] = new MasterLoop(thread, null);
        return loop[0];
    }

    /** Work runs on the caller's thread, at once, one caller at a time: for worked examples. */
    static MasterLoop direct() {
        return new MasterLoop(null, new ReentrantLock());
    }

    /** Answers to callers go through {@code gate} (they are handed over once what the work wrote is durable). */
    void answerThrough(Executor gate) {
        this.answers = gate;
    }

    /** Runs {@code work} every {@code period} on the loop, the first time after one period. */
    void every(Duration period, Runnable work) {
        if (thread == null) {
            throw new IllegalStateException("a direct loop has no clock of its own: the test runs the ticks");
        }
        thread.scheduleWithFixedDelay(() -> run(work, "tick"), period.toMillis(), period.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** Queues {@code work} onto the loop without waiting for it: how an outcome from off the loop comes back. */
    void post(Runnable work) {
        if (thread == null) {
            direct.lock();
            try {
                work.run(); // a worked example sees a failure where it happened
            } finally {
                direct.unlock();
            }
            return;
        }
        try {
            thread.execute(() -> run(work, "event"));
        } catch (RejectedExecutionException stopping) {
            LOG.debug("the master's loop has stopped; an event is dropped");
        }
    }

    /** Whether the caller is on the loop (its thread, or a direct loop's caller). */
    boolean onLoop() {
        return thread == null ? direct.isHeldByCurrentThread() : Thread.currentThread() == owner;
    }

    /**
     * Runs {@code work} on the loop and returns its result, once what it wrote is durable; a failure it
     * throws reaches the caller. Work not begun within {@link #WAIT_FOR} is dropped (503, nothing was done).
     */
    <T> T call(Supplier<T> work) {
        if (thread == null || onLoop()) {
            if (thread == null) {
                direct.lock();
            }
            try {
                return work.get(); // a direct loop's journal is direct too: written when this returns
            } finally {
                if (thread == null) {
                    direct.unlock();
                }
            }
        }
        AtomicInteger state = new AtomicInteger(WAITING);
        CompletableFuture<T> answer = new CompletableFuture<>();
        try {
            thread.execute(() -> run(() -> {
                if (!state.compareAndSet(WAITING, BEGUN)) {
                    return; // its caller was told nothing was done
                }
                try {
                    T value = work.get();
                    answers.execute(() -> answer.complete(value));
                } catch (RuntimeException e) {
                    answer.completeExceptionally(e); // a refusal is its caller's answer, not the loop's trouble
                }
            }, "call"));
        } catch (RejectedExecutionException stopping) {
            throw new Unavailable("the master is stopping; nothing was done");
        }
        return await(answer, state);
    }

    private static <T> T await(CompletableFuture<T> answer, AtomicInteger state) {
        long start = System.nanoTime();
        try {
            try {
                return answer.get(WAIT_FOR.toNanos(), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                if (state.compareAndSet(WAITING, DROPPED)) {
                    throw new Unavailable("the master is busy; nothing was done; try again");
                }
                long left = WAIT_FOR.plus(GRACE).toNanos() - (System.nanoTime() - start);
                return answer.get(Math.max(0, left), TimeUnit.NANOSECONDS);
            }
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new Unavailable("the master is still at it; ask again");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Unavailable("interrupted");
        }
    }

    private static void run(Runnable work, String what) {
        try {
            work.run();
        } catch (RuntimeException e) {
            LOG.error("master " + what + " failed; carrying on", e);
        }
    }

    @Override
    public void close() {
        if (thread != null) {
            thread.shutdownNow();
        }
    }
}
