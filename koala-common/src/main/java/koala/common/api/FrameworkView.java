package koala.common.api;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A framework instance as {@code koala frameworks} shows it: the FrameworkJobManager's record with
 * what its allocation says now.
 *
 * @param state        the allocation's state (RUNNING while the instance lives)
 * @param nodesPerRole nodes held (or being claimed) per role: master, orchestrator, worker
 * @param history      the allocation's grows, shrinks and refusals, with their reasons
 * @param share        how the grid's arbitration sees it now; null for an instance that has not
 *                     reported yet or has ended
 * @param owner        whose instance it is (its allocation's owner); null for one that predates owners
 * @param runnerState  the runner's state file ({@code runner-ID.json}, its log beside it), where its
 *                     submitter's KOALA home put it (an admin's for an instance started with
 *                     {@code --as}); null for a runner that keeps none
 */
public record FrameworkView(long id, String name, String policy, Map<String, String> parameters, String runner,
                            String state, List<String> sites, MasterAddress master, Map<String, Integer> nodesPerRole,
                            Instant registeredAt, List<TransitionView> history, ShareLine share, String owner,
                            String runnerState) {

    /**
     * One instance's place in the shared grid.
     *
     * @param holds      worker nodes it holds
     * @param uses       of those, the ones busy or starting as its runner last reported (idle ones are
     *                   the first taken back)
     * @param share      the nodes the policy holds it to; null when the policy counts no nodes (fcfs)
     * @param fairShare  its weighted max-min fair share of the worker nodes, whatever the policy
     * @param why        the policy's account of its share
     * @param lastShrunk why nodes were last taken back from it (asked to give back, idle taken,
     *                   ended after the grace); null if never
     */
    public record ShareLine(int holds, int uses, Integer share, int fairShare, String why, String lastShrunk) {
    }
}
