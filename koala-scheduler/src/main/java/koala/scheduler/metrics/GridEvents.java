package koala.scheduler.metrics;

import java.time.Duration;
import koala.scheduler.state.JobState;

/**
 * What happens on the grid, as the scheduler's loop tells it to whoever keeps count (the metrics):
 * one method per kind of happening, so that a new kind does not compile until every listener has
 * it. Every call comes from the loop thread, after the change it tells of; a listener must not
 * block it. Reasons are kinds, never words: an arbiter's {@code koala.arbitration.ShareReason.Kind} or
 * a {@link GridReason}, so that what is counted by reason stays a short list.
 */
public interface GridEvents {
    /** A node's pilot was submitted on {@code site}: a claim began (a re-placed node's claim too). */
    void claimBegun(String site);

    /** A node's claim on {@code site} failed. */
    void claimFailed(String site, ClaimFailure why);

    /** A node that had arrived on {@code site} was lost: its pilot left the cell with no word from its launcher. */
    void nodeLost(String site);

    /** A node an instance grew by arrived on {@code site}, {@code latency} after its grow was granted (O_grow). */
    void grownNodeArrived(String site, Duration latency);

    /** The scheduler answered an instance's grow request: {@code reason} is why it got what it got. */
    void grew(GrowOutcome outcome, Enum<?> reason);

    /** {@code nodes} nodes were granted to an instance (by its own grow, or owed ones by a later round). */
    void nodesGranted(Enum<?> reason, int nodes);

    /** An instance shrank, or was asked to, by {@code nodes} nodes. */
    void shrank(ShrinkOutcome outcome, Enum<?> reason, int nodes);

    /** A job was submitted. */
    void jobSubmitted();

    /** A job (not an allocation) ended in {@code state}. */
    void jobEnded(JobState state);

    /** The runner of an instance was started again by the supervisor. */
    void runnerRestarted(long instance);

    /** The runner of an instance could not be started again: the instance failed. */
    void runnerGaveUp(long instance);

    /** A scheduling round ended after {@code took}; {@code reading} is the grid as it left it. */
    void roundEnded(Duration took, GridReading reading);

    /** How a claim failed. */
    enum ClaimFailure {
        /** The site refused the pilot. */
        REFUSED,
        /** The pilot left its cell before its node arrived. */
        ENDED_EARLY,
        /** The pilot had not started within the claim time-out: the node was released. */
        TIMED_OUT
    }

    /** What a grow request got. */
    enum GrowOutcome {
        /** Every node asked for. */
        GRANTED,
        /** Some now; the rest promised or refused. */
        PARTIAL,
        /** None now; nodes are being taken back for it. */
        PROMISED,
        /** None. */
        REFUSED
    }

    /** What a shrink did. */
    enum ShrinkOutcome {
        /** The instance gave nodes back itself. */
        RELEASED,
        /** KOALA ended the instance's workers for the grid's arbitration. */
        ENDED,
        /** The instance was asked to give workers back within a grace period. */
        ASKED
    }

    /** Reasons the scheduler gives itself, beside the arbiter's kinds. */
    enum GridReason {
        /** A grow named a site that cannot be reached now. */
        SITE_UNREACHABLE,
        /** No site asked for is on the network of the instance's nodes. */
        OTHER_NETWORK,
        /** The instance gave back nodes it chose. */
        OWNER,
        /** The arbiter granted nodes none of which could be placed (or did not answer the grow). */
        NOT_PLACED
    }

    /** Keeps no count. */
    GridEvents NONE = new GridEvents() {
        @Override
        public void claimBegun(String site) {
        }

        @Override
        public void claimFailed(String site, ClaimFailure why) {
        }

        @Override
        public void nodeLost(String site) {
        }

        @Override
        public void grownNodeArrived(String site, Duration latency) {
        }

        @Override
        public void grew(GrowOutcome outcome, Enum<?> reason) {
        }

        @Override
        public void nodesGranted(Enum<?> reason, int nodes) {
        }

        @Override
        public void shrank(ShrinkOutcome outcome, Enum<?> reason, int nodes) {
        }

        @Override
        public void jobSubmitted() {
        }

        @Override
        public void jobEnded(JobState state) {
        }

        @Override
        public void runnerRestarted(long instance) {
        }

        @Override
        public void runnerGaveUp(long instance) {
        }

        @Override
        public void roundEnded(Duration took, GridReading reading) {
        }
    };
}
