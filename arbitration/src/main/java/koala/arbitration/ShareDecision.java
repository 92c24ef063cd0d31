package koala.arbitration;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the arbiter decided for one instance, with its reason. The scheduler carries these out in
 * the order given: it ends the workers of {@link ReleaseIdle} and {@link EndWorkers} (their nodes
 * come free), tells the runner of a {@link AskShrink}, grants the nodes of a {@link Grant}, and
 * answers the grow request with its {@link Grant}, {@link Promised} and {@link Refuse}.
 */
public sealed interface ShareDecision permits ShareDecision.Grant, ShareDecision.Promised, ShareDecision.Refuse,
        ShareDecision.ReleaseIdle, ShareDecision.AskShrink, ShareDecision.EndWorkers {

    /** The instance this decision is about. */
    String tenant();

    ShareReason reason();

    /** Hands this decision to the method of {@code by} for its kind. */
    void carriedOutBy(CarryOut by);

    /**
     * How the decisions are carried out, a method for each kind: whoever carries them out implements
     * it, so that a new kind of decision does not compile until each of them says what it does with it.
     */
    interface CarryOut {
        void grant(Grant d);

        void promised(Promised d);

        void refuse(Refuse d);

        void releaseIdle(ReleaseIdle d);

        void askShrink(AskShrink d);

        void endWorkers(EndWorkers d);
    }

    /** Give the instance {@code nodes} nodes now, placed as any grow is. */
    record Grant(String tenant, int nodes, ShareReason reason) implements ShareDecision {
        public Grant {
            positive(tenant, nodes, reason);
        }

        @Override
        public void carriedOutBy(CarryOut by) {
            by.grant(this);
        }
    }

    /**
     * {@code nodes} more nodes are being taken back for the instance; they come as a later
     * {@link Grant} (or, if they do not come free by {@code by} and a round, a {@link Refuse}).
     * The framework may wait for them.
     */
    record Promised(String tenant, int nodes, Instant by, ShareReason reason) implements ShareDecision {
        public Promised {
            positive(tenant, nodes, reason);
            Objects.requireNonNull(by, "by");
        }

        @Override
        public void carriedOutBy(CarryOut by) {
            by.promised(this);
        }
    }

    /** {@code nodes} of what the instance asked for (or was promised) it will not get. */
    record Refuse(String tenant, int nodes, ShareReason reason) implements ShareDecision {
        public Refuse {
            positive(tenant, nodes, reason);
        }

        @Override
        public void carriedOutBy(CarryOut by) {
            by.refuse(this);
        }
    }

    /** End these idle workers of the instance now: it holds more than its share and they run nothing. */
    record ReleaseIdle(String tenant, List<String> workers, ShareReason reason) implements ShareDecision {
        public ReleaseIdle {
            workers = List.copyOf(workers);
            positive(tenant, workers.size(), reason);
        }

        @Override
        public void carriedOutBy(CarryOut by) {
            by.releaseIdle(this);
        }
    }

    /**
     * Ask the instance to give back {@code nodes} workers of its choosing by {@code deadline}
     * (now + the grace period); after it KOALA ends the ones still owed ({@link EndWorkers}).
     */
    record AskShrink(String tenant, int nodes, Instant deadline, ShareReason reason) implements ShareDecision {
        public AskShrink {
            positive(tenant, nodes, reason);
            Objects.requireNonNull(deadline, "deadline");
        }

        @Override
        public void carriedOutBy(CarryOut by) {
            by.askShrink(this);
        }
    }

    /** End these workers, busy or not: the grace period of an {@link AskShrink} is over. */
    record EndWorkers(String tenant, List<String> workers, ShareReason reason) implements ShareDecision {
        public EndWorkers {
            workers = List.copyOf(workers);
            positive(tenant, workers.size(), reason);
        }

        @Override
        public void carriedOutBy(CarryOut by) {
            by.endWorkers(this);
        }
    }

    private static void positive(String tenant, int nodes, ShareReason reason) {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(reason, "reason");
        if (nodes < 1) {
            throw new IllegalArgumentException(tenant + ": a decision is about at least 1 node, not " + nodes);
        }
    }
}
