package koala.fjm;

import java.util.List;
import java.util.Optional;
import koala.api.scheduler.FrameworkView;
import koala.api.scheduler.TransitionView;

/**
 * What the FrameworkJobManager reads of the allocation an instance holds. The allocation is the
 * scheduler's (its nodes, state and history change with every grow and shrink); the scheduler hands
 * it in as it is now whenever it asks for a view, and none of it is copied into the registry.
 *
 * @param state       the allocation's state, as {@code koala jobs} names it (RUNNING while the instance lives)
 * @param ended       whether that state is an end: an ended instance has no share and breaks no constraint now
 * @param owner       whose allocation it is; null for one that predates owners
 * @param nodes       its nodes, held or not (a master's node released since it reported is among them)
 * @param history     its grows, shrinks and refusals, with their reasons
 * @param constraints its roles' placement constraints, as its runner sent them and as the scheduler keeps them
 */
public record HeldAllocation(String state, boolean ended, String owner, List<Node> nodes, List<TransitionView> history,
                             List<FrameworkView.ConstraintLine> constraints) {
    public HeldAllocation {
        nodes = List.copyOf(nodes);
        history = history == null ? List.of() : List.copyOf(history);
        constraints = constraints == null ? List.of() : List.copyOf(constraints);
    }

    /**
     * One node of the allocation.
     *
     * @param role what its component says it is for (master, orchestrator, worker); null when it says
     *             nothing, which a view counts as a worker
     * @param held whether it is held or being claimed still (not released, lost or ended)
     */
    public record Node(String id, String site, String role, boolean held) {
    }

    /** The node named {@code id}, held or not; empty when it is none of this allocation's. */
    public Optional<Node> node(String id) {
        return nodes.stream().filter(n -> n.id().equals(id)).findFirst();
    }

    /** The nodes held or being claimed now. */
    public List<Node> held() {
        return nodes.stream().filter(Node::held).toList();
    }
}
