package koala.runner;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import koala.common.failure.Unavailable;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The one thread a runner's state lives on, as the scheduler's loop is. The API's calls, the
 * launchers' hellos and heartbeats and the periodic tick are queued onto it; the outcomes of calls to
 * the scheduler, made off it ({@link SchedulerCalls}), come back to it as events. Nothing on it waits
 * on the network, so a slow scheduler holds up no heartbeat. After each piece of work {@code
 * afterEach} runs (the runner writes its durable state if it changed) and those waiting for a change
 * ({@link #until}) look again.
 *
 * <p>A caller waits for its work within a bound: work not begun by then is dropped and the caller
 * told so (503: nothing was done); work that has begun gets a little longer. Work whose answer comes
 * only after calls to the scheduler ({@link #ask}, a grow waiting for its grant) is given its
 * {@link Reply} and answers through it; only that caller waits for it.
 *
 * <p>Worked examples run it on the caller's own thread ({@link #direct}): everything happens in
 * order, at once, on the test's clock.
 */
final class RunnerLoop implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(RunnerLoop.class);

    /** Callers wait 20 s for their work to begin and end, and 5 s more once it has begun: less than a client's 30 s. */
    static final Duration WAIT_FOR = Duration.ofSeconds(20);
    static final Duration GRACE = Duration.ofSeconds(5);

    private final Executor thread;
    private final ScheduledExecutorService timer;
    private final Duration waitFor;
    private final Duration grace;
    private final Object changes = new Object();
    private volatile Runnable afterEach = () -> { };
    /** Pieces of work done so far: what {@link #until} waits to see move. */
    private volatile long version;
    /** Pieces of work under way on the loop (nested on a direct loop), and the answers they gave, held until they are done. */
    private int depth;
    private final List<Runnable> answers = new ArrayList<>();

    private RunnerLoop(Executor thread, ScheduledExecutorService timer, Duration waitFor, Duration grace) {
        this.thread = thread;
        this.timer = timer;
        this.waitFor = waitFor;
        this.grace = grace;
    }

    /** A loop on a thread of its own, named {@code name}. */
    static RunnerLoop threaded(String name) {
        return on(java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        }), WAIT_FOR, GRACE);
    }

    /** A loop on {@code thread}, whose callers wait {@code waitFor} for their work and {@code grace} more once it began. */
    static RunnerLoop on(ScheduledExecutorService thread, Duration waitFor, Duration grace) {
        return new RunnerLoop(thread, thread, waitFor, grace);
    }

    /** Work runs on the caller's thread, at once: for worked examples on a clock the test moves. */
    static RunnerLoop direct() {
        return new RunnerLoop(Runnable::run, null, WAIT_FOR, GRACE);
    }

    /** What runs after each piece of work (the runner's durable state is written there). */
    void afterEach(Runnable hook) {
        this.afterEach = hook;
    }

    /** Runs {@code work} every {@code period} on the loop, the first time after one period. */
    void every(Duration period, Runnable work) {
        if (timer == null) {
            throw new IllegalStateException("a direct loop has no clock of its own: the test runs the ticks");
        }
        timer.scheduleWithFixedDelay(() -> run(work, "tick"), period.toMillis(), period.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** Queues {@code work} onto the loop without waiting for it: how an outcome from off the loop comes back. */
    void post(Runnable work) {
        try {
            thread.execute(() -> run(work, "event"));
        } catch (RejectedExecutionException stopping) {
            LOG.debug("the loop has stopped; an event is dropped");
        }
    }

    /** Runs {@code work} on the loop and returns its result; a failure it throws reaches the caller. */
    <T> T call(Callable<T> work) {
        return ask(reply -> {
            if (!reply.begin()) {
                return;
            }
            try {
                reply.give(work.call());
            } catch (RuntimeException e) {
                reply.fail(e);
            } catch (Exception e) {
                reply.fail(new IllegalStateException(e));
            }
        }, waitFor.plus(grace), "the runner is still at it; ask again");
    }

    /**
     * Starts {@code work} on the loop with a {@link Reply} it answers through, now or once calls to
     * the scheduler have come back, and waits for the answer. The work {@link Reply#begin begins}
     * where it would change something, and only while the caller still waits: work not begun within
     * {@link #waitFor} is dropped (503, nothing was done); work that has begun is waited for until
     * {@code within} in all, then the caller is told {@code stillAtIt} (503) while the work goes on.
     */
    <T> T ask(Consumer<Reply<T>> work, Duration within, String stillAtIt) {
        Reply<T> reply = new Reply<>(this);
        try {
            thread.execute(() -> run(() -> {
                try {
                    work.accept(reply);
                } catch (RuntimeException e) {
                    if (reply.begin()) {
                        reply.fail(e); // a refusal (a Failure) is the caller's answer, not the loop's trouble
                    }
                }
            }, "call"));
        } catch (RejectedExecutionException stopping) {
            throw new Unavailable("the runner is stopping; nothing was done");
        }
        return reply.await(waitFor, within, stillAtIt);
    }

    /**
     * Waits until {@code condition}, looked at on the loop after each change, holds; false if
     * {@code timeout} passed first. For set-up code (the initial deployment), never on the loop itself.
     */
    boolean until(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long seen = version;
            if (look(condition)) {
                return true;
            }
            synchronized (changes) {
                while (version == seen) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    TimeUnit.NANOSECONDS.timedWait(changes, left);
                }
            }
        }
    }

    /** {@code condition} on the loop: a look that changes nothing, so it wakes no one. */
    private boolean look(BooleanSupplier condition) {
        Reply<Boolean> reply = new Reply<>(this);
        try {
            thread.execute(() -> {
                if (reply.begin()) {
                    try {
                        reply.give(condition.getAsBoolean());
                    } catch (RuntimeException e) {
                        reply.fail(e);
                    }
                }
            });
        } catch (RejectedExecutionException stopping) {
            throw new Unavailable("the runner is stopping");
        }
        return reply.await(waitFor, waitFor.plus(grace), "the runner is still at it");
    }

    private void run(Runnable work, String what) {
        depth++;
        try {
            work.run();
        } catch (RuntimeException e) {
            LOG.error("runner " + what + " failed; carrying on", e);
        } finally {
            try {
                afterEach.run();
            } catch (RuntimeException e) {
                LOG.error("after a runner " + what + ": carrying on", e);
            }
            if (--depth == 0) {
                List<Runnable> now = List.copyOf(answers);
                answers.clear();
                now.forEach(Runnable::run);
            }
            synchronized (changes) {
                version++;
                changes.notifyAll();
            }
        }
    }

    /**
     * Gives an answer to its caller once the work that made it is done and its state written
     * ({@code afterEach}): a caller is never told of a change a restart would not find.
     */
    private void answer(Runnable delivery) {
        if (depth == 0) {
            delivery.run();
        } else {
            answers.add(delivery);
        }
    }

    @Override
    public void close() {
        if (thread instanceof ExecutorService service) {
            service.shutdownNow();
        }
    }

    /**
     * An answer a caller waits for. The loop {@link #begin begins} the work only while the caller
     * still waits; a caller that stopped waiting before that has been told nothing was done, and
     * nothing is. Given at most once, on the loop.
     */
    static final class Reply<T> {
        private static final int WAITING = 0;
        private static final int BEGUN = 1;
        private static final int DROPPED = 2;
        private final AtomicInteger state = new AtomicInteger(WAITING);
        private final CompletableFuture<T> answer = new CompletableFuture<>();
        private final RunnerLoop loop;

        private Reply(RunnerLoop loop) {
            this.loop = loop;
        }

        /** True when the caller still waits: the work is begun and will be answered. */
        boolean begin() {
            return state.compareAndSet(WAITING, BEGUN) || state.get() == BEGUN;
        }

        /** The answer, handed to the caller once the work that gave it is done and its state written. */
        void give(T value) {
            loop.answer(() -> answer.complete(value));
        }

        void fail(RuntimeException failure) {
            loop.answer(() -> answer.completeExceptionally(failure));
        }

        /** Gives what {@code future} gives, when it does (on the thread that completes it: the loop). */
        void follow(CompletableFuture<T> future) {
            future.whenComplete((value, failure) -> {
                if (failure == null) {
                    give(value);
                } else {
                    fail(unwrap(failure));
                }
            });
        }

        private T await(Duration waitFor, Duration within, String stillAtIt) {
            long start = System.nanoTime();
            try {
                try {
                    return answer.get(waitFor.toNanos(), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    if (state.compareAndSet(WAITING, DROPPED)) {
                        // not begun: it never will be, so the caller is told truly that nothing was done
                        throw new Unavailable("the runner is busy; nothing was done; try again");
                    }
                    long left = within.toNanos() - (System.nanoTime() - start);
                    return answer.get(Math.max(0, left), TimeUnit.NANOSECONDS);
                }
            } catch (ExecutionException e) {
                throw unwrap(e.getCause());
            } catch (TimeoutException e) {
                throw new Unavailable(stillAtIt);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Unavailable("interrupted");
            }
        }

        private static RuntimeException unwrap(Throwable failure) {
            Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            return cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
        }
    }
}
