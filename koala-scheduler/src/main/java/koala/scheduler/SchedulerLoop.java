package koala.scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import koala.common.failure.Unavailable;
import koala.scheduler.storage.UnitOfWork;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The one thread the scheduler's state lives on. API calls, events posted from other threads and
 * the periodic round are queued onto it; after work that may have changed something, waiting
 * long-polls are woken to look again.
 *
 * <p><b>Units of work.</b> The work queued by the time the loop takes it up — up to
 * {@value #MOST_IN_ONE_UNIT} pieces, each a call, an event or a round — runs as one unit of work of
 * the store ({@link UnitOfWork#inTransaction}): everything the pieces wrote is committed together,
 * and only then is each call's answer handed to its caller (a group commit). So a caller told that
 * something was done can count on it across a {@code kill -9}, and a busy scheduler pays for one
 * commit per batch of calls instead of one per call, or one per statement as it did. A lone call
 * is a batch of one: it waits for no other.
 *
 * <p>A piece that throws has its writes committed all the same, with the others', before its
 * failure reaches its caller: the changes it made in memory before it failed stay (memory is the
 * scheduler's state, and there is no undoing them), and the store must not fall behind what the
 * next answers are made from, as it did not when each statement committed on its own. Only when
 * the commit itself fails is the unit undone, and every caller of the batch told it failed.
 */
final class SchedulerLoop implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(SchedulerLoop.class);
    /** The most pieces of work one commit carries, so that no caller waits long for the others'. */
    static final int MOST_IN_ONE_UNIT = 64;

    private final ScheduledExecutorService thread;
    private final UnitOfWork units;
    private final Queue<Piece<?>> queued = new ConcurrentLinkedQueue<>();
    /** A drain of {@link #queued} is on its way to the loop thread. */
    private final AtomicBoolean draining = new AtomicBoolean();
    private final Object changes = new Object();
    private final Duration waitFor;
    private final Duration grace;
    /** How soon work whose unit could not begin is tried again. */
    static final Duration BEGIN_AGAIN_AFTER = Duration.ofMillis(100);
    /** Units in a row that could not begin; on the loop thread only. */
    private int notBegunInARow;
    /** Hears every commit that failed: the work's changes stay in memory, which is now ahead of the store. */
    private volatile java.util.function.Consumer<Throwable> undone = e -> { };

    /** Callers wait 20 s for their work to begin and end, and 5 s more once it has begun: less than a client's 30 s. */
    SchedulerLoop(ScheduledExecutorService thread, UnitOfWork units) {
        this(thread, units, Duration.ofSeconds(20), Duration.ofSeconds(5));
    }

    /** A loop whose work keeps nothing (tests of the loop itself and of code with no store). */
    SchedulerLoop(ScheduledExecutorService thread) {
        this(thread, UnitOfWork.NONE);
    }

    SchedulerLoop(ScheduledExecutorService thread, Duration waitFor, Duration grace) {
        this(thread, UnitOfWork.NONE, waitFor, grace);
    }

    /**
     * @param units   where the writes of the work taken up together are committed together
     * @param waitFor how long a caller waits for its work; work not begun by then is dropped (503)
     * @param grace   how much longer it waits for work that has begun (then 504)
     */
    SchedulerLoop(ScheduledExecutorService thread, UnitOfWork units, Duration waitFor, Duration grace) {
        this.thread = thread;
        this.units = units;
        this.waitFor = waitFor;
        this.grace = grace;
    }

    /** Queues {@code work} every {@code period}, unless the last one queued has not begun yet. */
    void every(Duration period, Runnable work) {
        AtomicBoolean waiting = new AtomicBoolean();
        thread.scheduleWithFixedDelay(() -> {
            if (waiting.compareAndSet(false, true)) {
                queue(new Piece<>(() -> {
                    waiting.set(false);
                    work.run();
                    return null;
                }, true, "scheduler round failed; carrying on"));
            }
        }, 0, period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Runs {@code work} on the loop and returns its result once it is kept; a Failure it throws reaches the caller. */
    <T> T call(Callable<T> work) {
        return await(queue(new Piece<>(work, true, null)));
    }

    /**
     * As {@link #call}, without waking the long-polls afterwards: for a long-poll's own look at its
     * node, which changes nothing another poll waits for. (Were it to wake them, two polls would
     * wake each other for ever and keep the loop thread busy.)
     */
    <T> T look(Callable<T> work) {
        return await(queue(new Piece<>(work, false, null)));
    }

    /**
     * Queues {@code work} onto the loop without waiting for it: how the outcome of work done off the
     * loop (a pilot's submission, a relay made on a remote head node) comes back as an event.
     */
    void post(Runnable work) {
        try {
            queue(new Piece<>(() -> {
                work.run();
                return null;
            }, true, "scheduler event failed; carrying on"));
        } catch (RejectedExecutionException stopping) {
            LOG.debug("the loop has stopped; an event is dropped");
        }
    }

    /** Blocks the calling (HTTP) thread until the loop has done something, or {@code millis} pass. */
    void awaitChange(long millis) throws InterruptedException {
        synchronized (changes) {
            changes.wait(millis);
        }
    }

    private <T> Piece<T> queue(Piece<T> piece) {
        queued.add(piece);
        if (draining.compareAndSet(false, true)) {
            try {
                thread.execute(this::drain);
            } catch (RejectedExecutionException stopping) {
                queued.remove(piece);
                draining.set(false);
                throw stopping;
            }
        }
        return piece;
    }

    /**
     * On the loop: runs the work queued, up to {@link #MOST_IN_ONE_UNIT} pieces, as one unit; once it
     * is committed, answers the callers, and wakes the long-polls if any piece may have changed
     * something.
     */
    private void drain() {
        draining.set(false); // what is queued from now on asks for a drain of its own
        if (queued.isEmpty()) {
            return; // an earlier drain took it up
        }
        List<Piece<?>> ran = new ArrayList<>();
        Throwable failed = null;
        try {
            units.inTransaction(() -> {
                Piece<?> next;
                while (ran.size() < MOST_IN_ONE_UNIT && (next = queued.poll()) != null) {
                    if (next.run()) {
                        ran.add(next);
                    }
                }
            });
        } catch (RuntimeException | Error e) {
            failed = e;
        }
        boolean begun = failed == null || !ran.isEmpty();
        storeAnswered(begun, failed);
        for (Piece<?> piece : ran) {
            piece.settle(failed);
        }
        if (failed != null && !ran.isEmpty()) {
            LOG.error("the scheduler could not keep what {} pieces of work did; their callers are told so", ran.size(),
                    failed);
            undone.accept(failed);
        }
        if (ran.stream().anyMatch(p -> p.wakes)) {
            changed();
        }
        if (!queued.isEmpty() && draining.compareAndSet(false, true)) {
            if (begun) {
                thread.execute(this::drain);
            } else {
                thread.schedule(this::drain, BEGIN_AGAIN_AFTER.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
        if (failed instanceof Error e) {
            throw e;
        }
    }

    /**
     * A unit that could not begin (the store does not answer) ran nothing, so memory is as the store has it:
     * its work waits in the queue and is tried again after {@link #BEGIN_AGAIN_AFTER}, and the log says when
     * the store stopped and started answering, not every try.
     */
    private void storeAnswered(boolean begun, Throwable failed) {
        if (!begun) {
            if (notBegunInARow++ == 0) {
                LOG.warn("the store does not answer ({}); the work queued waits, tried again every {} ms",
                        failed.getMessage(), BEGIN_AGAIN_AFTER.toMillis());
            }
        } else if (notBegunInARow > 0) {
            LOG.info("the store answers again, after {} tries", notBegunInARow);
            notBegunInARow = 0;
        }
    }

    /** {@code undone} hears each unit whose commit failed, on the loop thread, after its callers were told. */
    void whenUndone(java.util.function.Consumer<Throwable> undone) {
        this.undone = undone;
    }

    private <T> T await(Piece<T> piece) {
        try {
            try {
                return piece.answer.get(waitFor.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (piece.begun.compareAndSet(Piece.WAITING, Piece.DROPPED)) {
                    // not begun: it never will be, so the caller is told truly that nothing was done
                    throw new Unavailable("the scheduler is busy; nothing was done; try again");
                }
                // begun: its answer is worth a little more of the caller's time
                return piece.answer.get(grace.toMillis(), TimeUnit.MILLISECONDS);
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

    private void changed() {
        synchronized (changes) {
            changes.notifyAll();
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
        Piece<?> left;
        while ((left = queued.poll()) != null) {
            left.answer.completeExceptionally(new Unavailable("the scheduler is stopping; nothing was done"));
        }
    }

    /**
     * A piece of work on its way through the loop. Whichever of the loop and the caller moves
     * {@link #begun} first decides whether it runs: a caller that gave up before it began is told
     * nothing was done, and it never is.
     *
     * @param wakes   whether it may change what long-polls wait for
     * @param onError for work no caller waits for: what its failure is logged as
     */
    private static final class Piece<T> {
        static final int WAITING = 0;
        static final int BEGUN = 1;
        static final int DROPPED = 2;

        final Callable<T> work;
        final boolean wakes;
        final String onError;
        final AtomicInteger begun = new AtomicInteger(WAITING);
        final CompletableFuture<T> answer = new CompletableFuture<>();
        private T value;
        private Exception failure;

        Piece(Callable<T> work, boolean wakes, String onError) {
            this.work = work;
            this.wakes = wakes;
            this.onError = onError;
        }

        /** Runs the work unless its caller gave up on it; a failure is kept for its caller, after the commit. */
        boolean run() {
            if (!begun.compareAndSet(WAITING, BEGUN)) {
                return false;
            }
            try {
                value = work.call();
            } catch (Exception e) {
                failure = e;
            }
            return true;
        }

        /** Once the unit is committed ({@code commitFailed} null) or undone: the caller gets the outcome. */
        void settle(Throwable commitFailed) {
            if (commitFailed != null) {
                answer.completeExceptionally(commitFailed);
            } else if (failure != null) {
                if (onError != null) {
                    LOG.error(onError, failure);
                }
                answer.completeExceptionally(failure);
            } else {
                answer.complete(value);
            }
        }
    }
}
