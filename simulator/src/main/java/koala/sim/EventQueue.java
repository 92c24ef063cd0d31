package koala.sim;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * Virtual time: a queue of actions, each due at an instant, run in time order. Actions due at the
 * same instant run in the order they were scheduled, so a run is deterministic. It is also the
 * {@link InstantSource} of everything simulated: the policies are given {@link #instant()} as
 * {@code now}, exactly as the runner gives them its clock's.
 */
public final class EventQueue implements InstantSource {
    private record Due(long atMillis, long seq, Runnable action) implements Comparable<Due> {
        @Override
        public int compareTo(Due o) {
            int c = Long.compare(atMillis, o.atMillis);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    private final PriorityQueue<Due> queue = new PriorityQueue<>();
    private long nowMillis;
    private long seq;
    private long processed;

    public EventQueue(Instant start) {
        this.nowMillis = start.toEpochMilli();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(nowMillis);
    }

    /** Runs {@code action} at {@code when}; an instant in the past means now (after what is due now). */
    public void at(Instant when, Runnable action) {
        Objects.requireNonNull(action, "action");
        queue.add(new Due(Math.max(nowMillis, when.toEpochMilli()), seq++, action));
    }

    public void after(Duration delay, Runnable action) {
        at(instant().plus(delay), action);
    }

    /** Runs every action due before {@code end}, then sets the time to {@code end}. */
    public void runUntil(Instant end) {
        long endMillis = end.toEpochMilli();
        while (!queue.isEmpty() && queue.peek().atMillis() < endMillis) {
            Due next = queue.poll();
            nowMillis = next.atMillis();
            processed++;
            next.action().run();
        }
        nowMillis = Math.max(nowMillis, endMillis);
    }

    /** Actions run so far: the simulator's unit of work, for the speed benchmark. */
    public long processed() {
        return processed;
    }
}
