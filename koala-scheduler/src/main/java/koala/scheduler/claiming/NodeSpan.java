package koala.scheduler.claiming;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The time one pilot of a node held its node, for accounting: from its arrival (the pilot runs and
 * its launcher called back) to its end. A node placed again keeps its id and gets a span per
 * attempt that arrived; a pilot that never started has none.
 *
 * @param startedAt  when its command (a component's, an entity's, an MPI daemon) started; null if it never did
 * @param endedAt    null while the node is held
 * @param endedAs    how it ended: EXITED (its command ended), LOST (its pilot was found gone), RELEASED (KOALA
 *                   gave it back as its job ended, was cancelled or was placed again) or {@link #GIVEN_BACK}
 *                   (taken from a running allocation: a shrink, or the grid's arbitration)
 * @param cpuSeconds the CPU time its launcher reported its command used; null if none was reported
 */
public record NodeSpan(String node, int attempt, long job, int component, String site, Instant arrivedAt,
                       Instant startedAt, Instant endedAt, String endedAs, Double cpuSeconds) {
    public static final String GIVEN_BACK = "GIVEN_BACK";

    public boolean open() {
        return endedAt == null;
    }

    /** Seconds held: up to its end, or up to {@code now} while it is held. */
    public double heldSeconds(Instant now) {
        return seconds(arrivedAt, endedAt != null ? endedAt : now);
    }

    /** Seconds its command ran: from its start to the node's end (or {@code now}); 0 if it never started. */
    public double busySeconds(Instant now) {
        return startedAt == null ? 0 : seconds(startedAt, endedAt != null ? endedAt : now);
    }

    public NodeSpan measured(Double cpu) {
        return new NodeSpan(node, attempt, job, component, site, arrivedAt, startedAt, endedAt, endedAs, cpu);
    }

    private static double seconds(Instant from, Instant to) {
        return Math.max(0, Duration.between(from, to).toMillis() / 1000.0);
    }

    /**
     * What a node's change from {@code before} to {@code after} at {@code now} does to its current
     * attempt's span {@code span} (null if it has none): a node that arrives (or is found running)
     * opens one; its command's start is noted once; an end (exited, released, lost) closes it.
     * Empty when the span does not change.
     *
     * @param allocationRunning whether the node's job is a running allocation, whose nodes released now are
     *                          {@link #GIVEN_BACK}
     */
    public static Optional<NodeSpan> follow(NodeSpan span, NodeClaim after, Instant now, boolean allocationRunning) {
        boolean occupied = after.state() == NodeState.ARRIVED || after.state() == NodeState.RUNNING;
        if (span == null) {
            return occupied ? Optional.of(new NodeSpan(after.id(), after.attempt(), after.job(), after.component(),
                    after.site(), now, after.state() == NodeState.RUNNING ? now : null, null, null, null))
                    : Optional.empty();
        }
        if (!span.open()) {
            return Optional.empty();
        }
        if (after.state() == NodeState.RUNNING && span.startedAt() == null) {
            return Optional.of(new NodeSpan(span.node(), span.attempt(), span.job(), span.component(), span.site(),
                    span.arrivedAt(), now, null, null, span.cpuSeconds()));
        }
        if (!after.state().held()) {
            String as = after.state() == NodeState.RELEASED && allocationRunning ? GIVEN_BACK : after.state().name();
            return Optional.of(new NodeSpan(span.node(), span.attempt(), span.job(), span.component(), span.site(),
                    span.arrivedAt(), span.startedAt(), now, as, span.cpuSeconds()));
        }
        return Optional.empty();
    }
}
