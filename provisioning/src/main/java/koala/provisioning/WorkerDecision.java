package koala.provisioning;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link WorkerPolicy} decided, with a reason a user reads in {@code koala status} or the
 * framework reads in the RPC reply. The runner carries it out: asks the scheduler for {@link Grow#workers()}
 * nodes, stops the workers of a {@link Release}, or does nothing.
 */
public sealed interface WorkerDecision permits WorkerDecision.Grow, WorkerDecision.Release, WorkerDecision.Keep {

    /**
     * What a decision or a refusal is about, for programs; the reason's words are for people. A
     * decision bounded by F_max or the grid (a partial grow, a refused one) has the bound's kind;
     * otherwise the kind says what moved the policy.
     */
    enum Kind {
        /** Grow: every worker asked for. */
        REQUESTED,
        /** Grow fewer than asked, or none: F_max (running and starting workers count) is the bound. */
        AT_FMAX,
        /** Grow fewer than asked, or none: the grid's free nodes are the bound. */
        GRID_FULL,
        /** Proactive grow: mean CPU above U_max. */
        ABOVE_U_MAX,
        /** Proactive release: mean CPU below U_min. */
        BELOW_U_MIN,
        /** Proactive keep: mean CPU within U_min–U_max. */
        WITHIN_BAND,
        /** Proactive keep: no running worker has a CPU sample yet. */
        NO_SAMPLES,
        /** Proactive keep: CPU is high, but workers of the last grow still start. */
        STILL_STARTING,
        /** Proactive keep: CPU is low, but the layer is at its initial size. */
        AT_INITIAL,
        /** Release of workers idle at least t_idle, or outside the warm reserve or pool. */
        IDLE,
        /** Keep, or a worker refused: idle, but for less than t_idle. */
        NOT_IDLE_LONG,
        /** Keep: the idle workers are the warm reserve or pool; a worker refused: it is in it. */
        IN_RESERVE,
        /** A worker refused: it runs something. */
        BUSY,
        /** A worker refused: not a worker of this instance. */
        NOT_A_WORKER,
        /** Shrink refused: every named worker stays, each refusal with its own kind. */
        ALL_REFUSED,
        /** The request itself is wrong: fewer than 1 worker, or no workers named. */
        BAD_REQUEST,
        /** Refused: this policy does not resize when the framework asks (Static, Proactive). */
        NOT_ON_REQUEST,
        /** Sample keep: this policy does not resize on samples (Static, OnDemand, Reserve, Pool). */
        NOT_ON_SAMPLE
    }

    Kind kind();

    String reason();

    /** Workers named in a shrink request that stay, each with why; empty for other decisions. */
    List<Refusal> refused();

    /**
     * Add {@code workers} workers, e.g. "grow 4 of 6 requested: F_max 20 leaves room for 4". A
     * partial grant is a Grow with the reason saying so; the scheduler may still give fewer.
     */
    record Grow(Kind kind, int workers, String reason) implements WorkerDecision {
        public Grow {
            Objects.requireNonNull(kind, "kind");
            if (workers < 1) {
                throw new IllegalArgumentException("a grow adds at least 1 worker, not " + workers);
            }
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public List<Refusal> refused() {
            return List.of();
        }
    }

    /**
     * Release these workers, in this order, e.g. "release w3: idle since 10:02:00, 240 s >= t_idle 180 s".
     *
     * @param refused the workers a shrink request named that stay
     */
    record Release(Kind kind, List<String> workers, String reason, List<Refusal> refused) implements WorkerDecision {
        public Release {
            Objects.requireNonNull(kind, "kind");
            workers = List.copyOf(workers);
            refused = List.copyOf(refused);
            if (workers.isEmpty()) {
                throw new IllegalArgumentException("a release names at least 1 worker");
            }
            Objects.requireNonNull(reason, "reason");
        }

        public Release(Kind kind, List<String> workers, String reason) {
            this(kind, workers, reason, List.of());
        }
    }

    /**
     * Change nothing, e.g. "keep: mean CPU 46% within 40%–50%" or "grow refused: F_max 20 reached (20 workers)".
     *
     * @param refused for a refused shrink request, each named worker and why it stays
     */
    record Keep(Kind kind, String reason, List<Refusal> refused) implements WorkerDecision {
        public Keep {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(reason, "reason");
            refused = List.copyOf(refused);
        }

        public Keep(Kind kind, String reason) {
            this(kind, reason, List.of());
        }
    }

    /** A worker a shrink request named that is not released, e.g. w1 BUSY "busy". Reads as "w1 busy". */
    record Refusal(String worker, Kind kind, String reason) {
        public Refusal {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public String toString() {
            return worker + " " + reason;
        }
    }
}
