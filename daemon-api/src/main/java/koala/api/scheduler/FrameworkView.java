package koala.api.scheduler;

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
 * @param settings     the instance's provisioning settings in force and where each came from, as the
 *                     scheduler resolves them (the JDF's values over its home site's defaults over the
 *                     built-in ones: what {@code koala config --jdf} shows); empty when they cannot be
 *                     resolved. Added after the other fields, as {@code share} and {@code owner} were: a
 *                     client of an earlier release, whose reader refuses unknown fields, needs upgrading
 *                     with the scheduler (they ship together)
 * @param constraints  the instance's placement constraints, role by role, as its runner sent them when it
 *                     opened its allocation (its JDF's); empty for none
 * @param brokenNow    the constraints (its own and those of other work in force on its nodes) that where its
 *                     nodes are now breaks, each with where: a soft one broken because nothing else fitted, or
 *                     one broken after the fact (a target that ended); a node counted on its host once known (arrived or
 *                     pinned), on its site before
 * @param roleSizes    what each node of a role asks of its host, from the instance's JDF, for the roles that ask
 *                     for any cores, memory or GPUs (in the JDF's order); empty when none does
 */
public record FrameworkView(long id, String name, String policy, Map<String, String> parameters, String runner,
                            String state, List<String> sites, MasterAddress master, Map<String, Integer> nodesPerRole,
                            Instant registeredAt, List<TransitionView> history, ShareLine share, String owner,
                            String runnerState, List<Setting> settings, List<ConstraintLine> constraints,
                            List<String> brokenNow, List<RoleSize> roleSizes) {
    public FrameworkView {
        settings = settings == null ? List.of() : List.copyOf(settings);
        constraints = constraints == null ? List.of() : List.copyOf(constraints);
        brokenNow = brokenNow == null ? List.of() : List.copyOf(brokenNow);
        roleSizes = roleSizes == null ? List.of() : List.copyOf(roleSizes);
    }

    /** An instance as shown before its roles' sizes were: with none. */
    public FrameworkView(long id, String name, String policy, Map<String, String> parameters, String runner,
                         String state, List<String> sites, MasterAddress master, Map<String, Integer> nodesPerRole,
                         Instant registeredAt, List<TransitionView> history, ShareLine share, String owner,
                         String runnerState, List<Setting> settings, List<ConstraintLine> constraints,
                         List<String> brokenNow) {
        this(id, name, policy, parameters, runner, state, sites, master, nodesPerRole, registeredAt, history, share,
                owner, runnerState, settings, constraints, brokenNow, List.of());
    }

    /**
     * What each node of one role asks of its host, as its JDF says: {@code worker}, 4 cores, 8192 MiB, 1 GPU.
     *
     * @param memoryMiB 0 when the role gives no memory
     */
    public record RoleSize(String role, int cores, long memoryMiB, int gpus) {
    }

    /** An instance as shown before its constraints were: with none. */
    public FrameworkView(long id, String name, String policy, Map<String, String> parameters, String runner,
                         String state, List<String> sites, MasterAddress master, Map<String, Integer> nodesPerRole,
                         Instant registeredAt, List<TransitionView> history, ShareLine share, String owner,
                         String runnerState, List<Setting> settings) {
        this(id, name, policy, parameters, runner, state, sites, master, nodesPerRole, registeredAt, history, share,
                owner, runnerState, settings, List.of(), List.of());
    }

    /**
     * One placement constraint of an instance: {@code worker}, {@code "cardinality 0..2 role=worker host"},
     * hard, and how the scheduler keeps it ({@code "hard cardinality 0..2 of {...} to {...} over host"}).
     *
     * @param role       the role whose nodes are its subject
     * @param constraint as the JDF writes it
     * @param hard       never broken (a grow no site can take is refused) when true
     * @param kept       the constraint in the scheduler's terms, the tags of its subject and target spelt out
     */
    public record ConstraintLine(String role, String constraint, boolean hard, String kept) {
    }

    /** An instance as shown before its settings were: with none. */
    public FrameworkView(long id, String name, String policy, Map<String, String> parameters, String runner,
                         String state, List<String> sites, MasterAddress master, Map<String, Integer> nodesPerRole,
                         Instant registeredAt, List<TransitionView> history, ShareLine share, String owner,
                         String runnerState) {
        this(id, name, policy, parameters, runner, state, sites, master, nodesPerRole, registeredAt, history, share,
                owner, runnerState, List.of());
    }

    /**
     * One provisioning setting in force: {@code fMax}, {@code "16"}, {@code "site fs0 cap (jdf asked 30)"}.
     *
     * @param key    the key a JDF or the grid configuration gives it ({@code fMax}, {@code tIdle}, ...)
     * @param value  its value as a user reads it ({@code "20"}, {@code "6 × O_grow"}, {@code "40%"})
     * @param origin where the value came from: {@code default}, {@code site fs0}, {@code site fs0 cap} or
     *               {@code jdf}, with a note in parentheses when there is one
     */
    public record Setting(String key, String value, String origin) {
    }

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
