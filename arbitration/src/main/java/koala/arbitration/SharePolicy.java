package koala.arbitration;

import java.util.List;
import java.util.Map;

/**
 * One rule for sharing a full grid: what each instance is entitled to, and, when an instance asks
 * for more than the free nodes, from whom to take how many. The {@link Arbiter} applies the rules
 * every policy shares (idle workers first, a grace period, the bound per round, minimum shares,
 * the stabilization window); a policy only ranks and counts. Chosen by name through {@link ShareRule}.
 */
interface SharePolicy {

    ShareRule rule();

    /** What the policy holds each instance to, by id. */
    Map<String, Share> shares(ShareView view);

    /**
     * The most nodes {@code tenant} may hold (held and owed) through grants from free nodes;
     * {@link Integer#MAX_VALUE} when free nodes go to whoever asks (every policy but static-partition).
     */
    default int freeLimit(ShareView view, Map<String, Share> shares, ShareView.Standing tenant) {
        return Integer.MAX_VALUE;
    }

    /**
     * Whom to take from so that {@code taker}, holding {@code holds} nodes once granted what is
     * free, gets {@code shortfall} more.
     */
    Plan plan(ShareView view, Map<String, Share> shares, ShareView.Standing taker, int holds, int shortfall);

    /**
     * A policy's answer: the taker may take {@code entitled} of its shortfall, from these donors in
     * this order, each up to a count (before the arbiter's own bounds); {@code limit} says why not
     * more when {@code entitled} is below the shortfall.
     */
    record Plan(int entitled, List<Donation> donations, ShareReason limit) {
        public Plan {
            donations = List.copyOf(donations);
        }

        static Plan none(ShareReason why) {
            return new Plan(0, List.of(), why);
        }
    }

    /** Take up to {@code upTo} nodes from {@code donor}. */
    record Donation(String donor, int upTo) {
    }
}
