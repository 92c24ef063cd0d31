package koala.runner;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import koala.common.http.ApiException;
import koala.common.api.GrowResult;
import koala.common.failure.Conflict;
import koala.common.failure.Unavailable;
import koala.common.runner.RunnerMessages;
import koala.common.runner.RunnerMessages.OrchestratorPlace;
import koala.common.runner.RunnerMessages.Refusal;
import koala.common.runner.RunnerMessages.ShrinkResult;
import koala.provisioning.GrowOverhead;
import koala.provisioning.OrchestratorDecision;
import koala.provisioning.OrchestratorPolicy;
import koala.provisioning.WorkerDecision;
import koala.provisioning.WorkerLayer;
import koala.provisioning.WorkerPolicy;

/**
 * Resizing: carries out what the provisioning policies decide — on the framework's grow, shrink
 * and orchestrator requests, and on each sample tick — by asking the scheduler for nodes and
 * giving them back. The decisions themselves are the {@code provisioning} module's. Called under
 * the runner's lock.
 */
final class Resizer {
    private final Entities entities;
    private final Schedd schedd;
    private final Deployd deployd;
    private final Events events;
    private final GrowOverhead growOverhead;
    private WorkerPolicy workers;
    /** On a grid shared by arbitration a grow is not capped by the free nodes: the arbiter may take back for it. */
    private boolean arbitrated;
    private OrchestratorPolicy orchestrators;
    private String home = "";
    private WorkerDecision.Kind lastKeep;
    /** Kept durably before a grow is asked of the scheduler, so that a runner started again asks again under its id. */
    private Runnable persist = () -> { };
    private RunnerState.InFlight inFlight;
    /** The framework's latest grows by its request id: one it repeats (its runner restarted under it) is answered again. */
    private final Map<String, RunnerState.Answer> answered = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, RunnerState.Answer> eldest) {
            return size() > ANSWERS_KEPT;
        }
    };
    private static final int ANSWERS_KEPT = 16;

    Resizer(Entities entities, Schedd schedd, Deployd deployd, Events events, GrowOverhead growOverhead) {
        this.entities = entities;
        this.schedd = schedd;
        this.deployd = deployd;
        this.events = events;
        this.growOverhead = growOverhead;
    }

    void policies(WorkerPolicy worker, OrchestratorPolicy orchestrator) {
        this.workers = worker;
        this.orchestrators = orchestrator;
    }

    /** The instance's home site, whose recent grows give O_grow. */
    void home(String site) {
        this.home = site;
    }

    void arbitrated(boolean shared) {
        this.arbitrated = shared;
    }

    WorkerPolicy policy() {
        return workers;
    }

    /** t_idle in force now, with the home site's current O_grow estimate. */
    Duration idleTime() {
        return workers.settings().idleTime(growOverhead.estimate(home));
    }

    /** Called before a grow is asked of the scheduler and whenever the durable state must be written now. */
    void persistWith(Runnable write) {
        this.persist = write;
    }

    /**
     * The framework's grow. With a {@code requestId} it has used before, the earlier answer again
     * and no more nodes: the framework repeats a grow whose answer a runner's death cut off.
     */
    RunnerMessages.GrowResult grow(int requested, String requestId, Instant now) {
        RunnerState.Answer earlier = requestId == null ? null : answered.get(requestId);
        if (earlier != null) {
            return new RunnerMessages.GrowResult(earlier.requested(), earlier.granted(), earlier.nodes(), earlier.reason());
        }
        RunnerMessages.GrowResult result = decideGrow(requested, requestId, now);
        if (requestId != null) {
            answered.put(requestId, new RunnerState.Answer(requested, result.granted(), result.nodes(), result.reason()));
        }
        return result;
    }

    private RunnerMessages.GrowResult decideGrow(int requested, String requestId, Instant now) {
        WorkerDecision decision = workers.onGrowRequest(layer(true), requested);
        if (decision instanceof WorkerDecision.Grow g) {
            GrowResult result = deploy(Entities.WORKER, g.workers(), "grow request: " + g.reason(), now, 0, requestId,
                    requested);
            String reason = g.workers() < requested ? g.reason() : null;
            if (result.reason() != null) {
                reason = (reason == null ? "" : reason + "; ") + result.reason();
            }
            return new RunnerMessages.GrowResult(requested, result.granted(), result.nodes(), reason);
        }
        events.add(now, EventKind.GROW_REFUSED, "grow request for " + requested + " refused: " + decision.reason(),
                Map.of("count", requested, "decision", decision.kind().name()));
        return new RunnerMessages.GrowResult(requested, 0, List.of(), decision.reason());
    }

    ShrinkResult shrink(List<String> nodes, Instant now) {
        for (String node : nodes) {
            if (entities.get(node).filter(e -> e.is(Entities.WORKER)).isEmpty()) {
                throw new Conflict("node " + node + " is not a worker of instance " + schedd.instance(),
                        "nodes");
            }
        }
        return apply(workers.onShrinkRequest(layer(false), nodes, now), now);
    }

    ShrinkResult shrinkIdle(Instant now) {
        return apply(workers.onIdleReleaseRequest(layer(false), now), now);
    }

    /** A sample period has passed: the worker policy and the orchestrator layer's idle rule. */
    void sample(Instant now) {
        WorkerDecision decision = workers.onSample(layer(workers.kind().growsOnSample()), now);
        if (decision instanceof WorkerDecision.Grow g) {
            deploy(Entities.WORKER, g.workers(), g.reason(), now, 0);
        } else if (decision instanceof WorkerDecision.Release) {
            apply(decision, now);
        }
        keeping(decision, now);
        OrchestratorDecision idle = orchestrators.releaseIdle(entities.orchestratorLayer(growOverhead.estimate(home)), now);
        if (idle instanceof OrchestratorDecision.Release r) {
            release(r.nodes(), r.reason(), now);
        }
    }

    /**
     * Logs a sample's Keep when it keeps for a new kind of reason, so that the log shows why a
     * Proactive instance does not move without a line every sample.
     */
    private void keeping(WorkerDecision decision, Instant now) {
        WorkerDecision.Kind kind = decision instanceof WorkerDecision.Keep ? decision.kind() : null;
        if (kind != null && kind != lastKeep) {
            events.add(now, EventKind.KEEP, decision.reason(), Map.of("decision", kind.name()));
        }
        lastKeep = kind;
    }

    OrchestratorPlace placeOrchestrator(Instant now) {
        OrchestratorDecision decision = orchestrators.place(entities.orchestratorLayer(growOverhead.estimate(home)));
        if (decision instanceof OrchestratorDecision.UseNode use) {
            Entity node = entities.get(use.node()).orElseThrow();
            entities.put(node.hosting(node.orchestrators() + 1, now));
            events.add(now, EventKind.ORCHESTRATOR, "orchestrator on " + use.node() + ": " + use.reason(),
                    Map.of("node", use.node()));
            return new OrchestratorPlace(use.node(), false, use.reason());
        }
        GrowResult result = deploy(Entities.ORCHESTRATOR, 1, decision.reason(), now, 1);
        if (result.granted() == 0) {
            throw new Unavailable("no orchestrator node: " + decision.reason() + ", but " + result.reason());
        }
        return new OrchestratorPlace(result.nodes().get(0), true, decision.reason());
    }

    OrchestratorPlace orchestratorDone(String node, Instant now) {
        Entity e = entities.get(node).filter(n -> n.is(Entities.ORCHESTRATOR)).orElseThrow(() -> new Conflict(
                "node " + node + " is not an orchestrator node of instance " + schedd.instance(), "node"));
        if (e.orchestrators() == 0) {
            throw new Conflict("orchestrator node " + node + " hosts no orchestrator", "node");
        }
        entities.put(e.hosting(e.orchestrators() - 1, now));
        return new OrchestratorPlace(node, false, node + " hosts " + (e.orchestrators() - 1) + " orchestrators");
    }

    /** Asks the scheduler for {@code count} nodes of {@code role}; they start as STARTING entities. */
    GrowResult deploy(String role, int count, String reason, Instant now, int orchestratorsEach) {
        return deploy(role, count, reason, now, orchestratorsEach, null, count);
    }

    /**
     * As {@link #deploy(String, int, String, Instant, int)}, for the framework's request
     * {@code rpcRequest} (null for the runner's own). The grow is kept durably as in flight, under
     * an id of its own, until the scheduler has answered.
     */
    private GrowResult deploy(String role, int count, String reason, Instant now, int orchestratorsEach,
                              String rpcRequest, int requested) {
        inFlight = new RunnerState.InFlight(UUID.randomUUID().toString(), role, count, reason, now, orchestratorsEach,
                rpcRequest, requested);
        persist.run();
        GrowResult result;
        try {
            result = schedd.grow(deployd.request(role, count, reason).withRequestId(inFlight.requestId()));
        } finally {
            inFlight = null;
        }
        granted(result, role, reason, now, orchestratorsEach);
        return result;
    }

    private void granted(GrowResult result, String role, String reason, Instant now, int orchestratorsEach) {
        entities.starting(result.nodes().stream().filter(n -> entities.get(n).isEmpty()).toList(), role, now,
                orchestratorsEach);
        if (result.granted() == 0) {
            events.add(now, EventKind.NO_NODE, "no " + role + " node: " + result.reason() + " (" + reason + ")",
                    Map.of("role", role, "count", result.requested()));
        } else {
            events.add(now, EventKind.GROW, "grow " + result.granted() + " " + role + (result.granted() == 1 ? "" : "s")
                    + " " + result.nodes() + ": " + reason + (result.reason() == null ? "" : "; " + result.reason()),
                    Map.of("role", role, "count", result.granted(), "nodes", result.nodes()));
        }
    }

    /** The grow in flight, if any: what the durable state keeps of it. */
    RunnerState.InFlight inFlight() {
        return inFlight;
    }

    Map<String, RunnerState.Answer> answered() {
        return new LinkedHashMap<>(answered);
    }

    /**
     * A runner started again takes back its predecessor's grow in flight: it asks the scheduler again
     * under the same id, which gives the first grant's nodes if the first request arrived, and grows
     * (or refuses) now if it did not. The framework's request it was for gets that answer.
     */
    void resume(RunnerState.InFlight grow, Map<String, RunnerState.Answer> earlier, Instant now) {
        answered.putAll(earlier);
        if (grow == null) {
            return;
        }
        GrowResult result;
        try {
            result = schedd.grow(deployd.request(grow.role(), grow.nodes(), grow.reason())
                    .withRequestId(grow.requestId()));
        } catch (ApiException e) {
            events.add(now, "the grow in flight when the runner before this one died (" + grow.nodes() + " "
                    + grow.role() + ") is refused: " + e.getMessage());
            result = new GrowResult(schedd.instance(), grow.nodes(), 0, List.of(), e.getMessage());
        }
        granted(result, grow.role(), "in flight when the runner before this one died: " + grow.reason(), grow.at(),
                grow.orchestratorsEach());
        if (grow.rpcRequest() != null) {
            answered.put(grow.rpcRequest(), new RunnerState.Answer(grow.requested(), result.granted(), result.nodes(),
                    result.reason()));
        }
    }

    void release(List<String> nodes, String reason, Instant now) {
        schedd.release(nodes, reason);
        nodes.forEach(entities::remove);
        events.add(now, EventKind.RELEASE, "release " + nodes + ": " + reason, Map.of("nodes", nodes));
    }

    private ShrinkResult apply(WorkerDecision decision, Instant now) {
        List<Refusal> refused = new ArrayList<>();
        decision.refused().forEach(r -> refused.add(new Refusal(r.worker(), r.reason())));
        if (decision instanceof WorkerDecision.Release r) {
            release(r.workers(), r.reason(), now);
            return new ShrinkResult(r.workers(), refused, r.reason());
        }
        events.add(now, EventKind.SHRINK_REFUSED, "shrink: " + decision.reason(),
                Map.of("decision", decision.kind().name()));
        return new ShrinkResult(List.of(), refused, decision.reason());
    }

    private WorkerLayer layer(boolean withGrid) {
        return entities.workerLayer(withGrid && !arbitrated ? schedd.idleNodes() : -1, growOverhead.estimate(home));
    }
}
