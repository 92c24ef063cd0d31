package koala.site;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A scheduled executor and the clock it runs by, for tests: nothing runs until the test calls
 * {@link #advance}, which moves the clock and runs, in time order, every task that falls due on
 * the way (a task scheduled by a running task runs too if it falls due in the same stretch).
 */
final class ManualTimer extends AbstractExecutorService implements ScheduledExecutorService, InstantSource {
    private final class Task extends FutureTask<Object> implements ScheduledFuture<Object> {
        private final long seq;
        private final long periodMillis; // > 0 fixed rate, < 0 fixed delay, 0 once
        private Instant due;

        Task(Callable<Object> work, Instant due, long periodMillis) {
            super(work);
            this.due = due;
            this.periodMillis = periodMillis;
            this.seq = sequence++;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(Duration.between(now, due).toMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(getDelay(TimeUnit.MILLISECONDS), other.getDelay(TimeUnit.MILLISECONDS));
        }

        void fire() {
            if (periodMillis == 0) {
                run();
            } else if (runAndReset()) {
                due = periodMillis > 0 ? due.plusMillis(periodMillis) : now.plusMillis(-periodMillis);
                queue.add(this);
            }
        }
    }

    private final PriorityQueue<Task> queue = new PriorityQueue<>(Comparator.<Task, Instant>comparing(t -> t.due)
            .thenComparingLong(t -> t.seq));
    private Instant now;
    private long sequence;
    private boolean shutdown;

    ManualTimer(Instant start) {
        this.now = start;
    }

    @Override
    public synchronized Instant instant() {
        return now;
    }

    /** Moves the clock forward by {@code d}, running every task due on the way, at its own time. */
    void advance(Duration d) {
        Instant end;
        synchronized (this) {
            end = now.plus(d);
        }
        while (true) {
            Task next;
            synchronized (this) {
                next = queue.peek();
                if (next == null || next.due.isAfter(end)) {
                    now = end;
                    return;
                }
                queue.poll();
                now = next.due;
            }
            if (!next.isCancelled()) {
                next.fire();
            }
        }
    }

    private synchronized Task add(Callable<Object> work, long delayMillis, long periodMillis) {
        Task task = new Task(work, now.plusMillis(Math.max(0, delayMillis)), periodMillis);
        if (!shutdown) {
            queue.add(task);
        }
        return task;
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return add(java.util.concurrent.Executors.callable(command), unit.toMillis(delay), 0);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return (ScheduledFuture<V>) add((Callable<Object>) callable, unit.toMillis(delay), 0);
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return add(java.util.concurrent.Executors.callable(command), unit.toMillis(initialDelay), unit.toMillis(period));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return add(java.util.concurrent.Executors.callable(command), unit.toMillis(initialDelay), -unit.toMillis(delay));
    }

    @Override
    public void execute(Runnable command) {
        schedule(command, 0, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
    }

    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> pending = new ArrayList<>(queue);
        queue.clear();
        return pending;
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return shutdown && queue.isEmpty();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return isTerminated();
    }
}
