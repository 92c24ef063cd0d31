package koala.runner;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import koala.runner.FrameworkRunner.State;

/**
 * The instance's life as its runner sees it, as a transition table:
 * <pre>
 * DEPLOYING → RUNNING   the master and the initial entities reported in (or the deployment timed out, going on)
 * DEPLOYING → FAILED    the master did not report in; the master was lost
 * any live  → ENDED     its allocation ended at the scheduler
 * any live  → FAILED    the master could not be restarted; the scheduler was silent too long
 * </pre>
 * ENDED and FAILED are final. The state is read from any thread (the supervisor's health check), set
 * only on the runner's loop. {@link #closed()} says the scheduler has been told the end, or could not be.
 */
final class Lifecycle {
    private static final Map<State, Set<State>> NEXT = Map.of(
            State.DEPLOYING, EnumSet.of(State.RUNNING, State.ENDED, State.FAILED),
            State.RUNNING, EnumSet.of(State.ENDED, State.FAILED),
            State.ENDED, EnumSet.noneOf(State.class),
            State.FAILED, EnumSet.noneOf(State.class));

    private volatile State state = State.DEPLOYING;
    private final CountDownLatch closed = new CountDownLatch(1);

    State state() {
        return state;
    }

    boolean is(State s) {
        return state == s;
    }

    boolean ended() {
        return state == State.ENDED || state == State.FAILED;
    }

    /** Moves to {@code next}; one the table does not allow is a bug. */
    void move(State next) {
        if (!NEXT.get(state).contains(next)) {
            throw new IllegalStateException("instance cannot go from " + state + " to " + next);
        }
        state = next;
    }

    /** The state a runner before this one kept (a runner taking the instance over). */
    void restore(State kept) {
        state = kept;
    }

    /** The end has been told to the scheduler (or could not be): {@link #awaitEnd} returns. */
    void closed() {
        closed.countDown();
    }

    boolean awaitEnd(Duration timeout) throws InterruptedException {
        return closed.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
