package koala.api.scheduler;

import java.time.Instant;

/**
 * The scheduler's answer to a runner's {@link ShareReport}: the arbitration policy, what it holds
 * the instance to now, and the workers the instance is asked to give back, if any.
 *
 * @param policy     the grid's arbitration policy (fcfs, static-partition, fair, performance)
 * @param holds      worker nodes the scheduler holds for the instance
 * @param share      the nodes the policy holds it to now; null when the policy counts no nodes
 * @param shareText  why that share, in words
 * @param giveBack   the workers it is asked to give back by when; null when none
 * @param takenBack  its worker nodes KOALA ended for the grid's arbitration lately (idle ones taken
 *                   back, busy ones ended after the grace), newest last: a runner that keeps a
 *                   floor asks for these again only when it needs them
 */
public record ShareOrders(String policy, int holds, Integer share, String shareText, GiveBack giveBack,
                          java.util.List<String> takenBack) {
    public ShareOrders {
        takenBack = takenBack == null ? java.util.List.of() : java.util.List.copyOf(takenBack);
    }

    /** Whether nodes are ever taken back: not under fcfs. */
    public boolean arbitrated() {
        return policy != null && !policy.equals("fcfs");
    }

    /**
     * Give back {@code workers} workers of the framework's choosing by {@code by}; after it KOALA
     * ends those still held, idle ones first.
     */
    public record GiveBack(int workers, Instant by, String reason) {
    }
}
