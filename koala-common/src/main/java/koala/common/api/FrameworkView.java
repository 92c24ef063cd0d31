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
 */
public record FrameworkView(long id, String name, String policy, Map<String, String> parameters, String runner,
                            String state, List<String> sites, MasterAddress master, Map<String, Integer> nodesPerRole,
                            Instant registeredAt, List<TransitionView> history) {
}
