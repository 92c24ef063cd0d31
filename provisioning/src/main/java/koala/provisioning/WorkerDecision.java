package koala.provisioning;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link WorkerPolicy} decided, with a reason a user reads in {@code koala status} or the
 * framework reads in the RPC reply. The runner carries it out: asks the scheduler for {@link Grow#workers()}
 * nodes, stops the workers of a {@link Release}, or does nothing.
 */
public sealed interface WorkerDecision permits WorkerDecision.Grow, WorkerDecision.Release, WorkerDecision.Keep {

    String reason();

    /** Workers named in a shrink request that stay, each with why; empty for other decisions. */
    List<Refusal> refused();

    /**
     * Add {@code workers} workers, e.g. "grow 4 of 6 requested: F_max 20 leaves room for 4". A
     * partial grant is a Grow with the reason saying so; the scheduler may still give fewer.
     */
    record Grow(int workers, String reason) implements WorkerDecision {
        public Grow {
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
    record Release(List<String> workers, String reason, List<Refusal> refused) implements WorkerDecision {
        public Release {
            workers = List.copyOf(workers);
            refused = List.copyOf(refused);
            if (workers.isEmpty()) {
                throw new IllegalArgumentException("a release names at least 1 worker");
            }
            Objects.requireNonNull(reason, "reason");
        }

        public Release(List<String> workers, String reason) {
            this(workers, reason, List.of());
        }
    }

    /**
     * Change nothing, e.g. "keep: mean CPU 46% within 40%–50%" or "grow refused: F_max 20 reached (20 workers)".
     *
     * @param refused for a refused shrink request, each named worker and why it stays
     */
    record Keep(String reason, List<Refusal> refused) implements WorkerDecision {
        public Keep {
            Objects.requireNonNull(reason, "reason");
            refused = List.copyOf(refused);
        }

        public Keep(String reason) {
            this(reason, List.of());
        }
    }

    /** A worker a shrink request named that is not released, e.g. w1 "busy". Reads as "w1 busy". */
    record Refusal(String worker, String reason) {
        @Override
        public String toString() {
            return worker + " " + reason;
        }
    }
}
