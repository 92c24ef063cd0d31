package koala.provisioning;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The orchestrator-layer rule (the paper's steps 5–7), whatever the worker policy. The framework
 * asks for an orchestrator for each new application; with N orchestrator nodes hosting O
 * orchestrators in all:
 * <ul>
 *   <li>if (O + 1) / N &le; the threshold (45), the orchestrator goes on an existing node: the
 *       least loaded, ties by id — so empty nodes are reused before any is asked for;</li>
 *   <li>otherwise a new orchestrator node is asked for, and the orchestrator goes there.</li>
 * </ul>
 * With one node hosting 45, the 46th would make the average 46 &gt; 45: it spills to a new node;
 * with two nodes hosting 45 and 44, the next makes the average 45 and goes on the second.
 *
 * <p>An orchestrator node that has hosted no orchestrator for t_idle (the worker layer's t_idle)
 * is given back, longest empty first, ties by id — but one node always stays, even empty, so
 * the next application finds an orchestrator node at once.
 */
public final class OrchestratorPolicy {
    private final ProvisioningSettings settings;

    public OrchestratorPolicy(ProvisioningSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** Where a new orchestrator goes: a UseNode or a NewNode. */
    public OrchestratorDecision place(OrchestratorLayer layer) {
        List<OrchestratorNode> nodes = layer.nodes();
        if (nodes.isEmpty()) {
            return new OrchestratorDecision.NewNode("new orchestrator node: the instance has none");
        }
        int after = layer.orchestrators() + 1;
        double average = (double) after / nodes.size();
        String load = Texts.count(after, "orchestrator") + " on " + Texts.count(nodes.size(), "node");
        String threshold = "threshold " + Texts.number(settings.orchestratorThreshold());
        if (average > settings.orchestratorThreshold()) {
            return new OrchestratorDecision.NewNode("new orchestrator node: " + load + " would average "
                    + Texts.number(average) + " > " + threshold);
        }
        OrchestratorNode least = nodes.stream().min(Comparator.comparingInt(OrchestratorNode::orchestrators)
                .thenComparing(OrchestratorNode::id, NaturalOrder.IDS)).orElseThrow();
        return new OrchestratorDecision.UseNode(least.id(), "use " + least.id() + ", the least loaded ("
                + least.orchestrators() + "): " + load + " average " + Texts.number(average) + " <= " + threshold);
    }

    /** The empty orchestrator nodes to give back at {@code now}: a Release or a Keep. */
    public OrchestratorDecision releaseIdle(OrchestratorLayer layer, Instant now) {
        IdleLimit limit = IdleLimit.of(settings.tIdle(), layer.growOverhead());
        List<IdleLimit.Idle> empty = layer.nodes().stream().filter(n -> n.orchestrators() == 0)
                .map(n -> new IdleLimit.Idle(n.id(), n.emptySince())).toList();
        List<IdleLimit.Idle> reached = limit.reachedLongestFirst(empty, now);
        if (reached.isEmpty()) {
            return new OrchestratorDecision.Keep("keep: no orchestrator node empty >= " + limit.text());
        }
        int mayGo = layer.nodes().size() - 1;
        if (mayGo == 0) {
            return new OrchestratorDecision.Keep("keep: " + reached.get(0).id() + " " + limit.describe(reached, "empty", now)
                    + ", but one orchestrator node always stays");
        }
        List<IdleLimit.Idle> released = reached.subList(0, Math.min(mayGo, reached.size()));
        List<String> ids = released.stream().map(IdleLimit.Idle::id).toList();
        String reason = "return " + Texts.list(ids) + ": " + limit.describe(released, "empty", now);
        if (reached.size() > mayGo) {
            reason += "; " + reached.get(mayGo).id() + " stays: one orchestrator node always stays";
        }
        return new OrchestratorDecision.Release(ids, reason);
    }
}
