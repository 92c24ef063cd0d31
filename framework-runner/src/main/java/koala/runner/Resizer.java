package koala.runner;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import koala.api.runner.RunnerMessages;
import koala.api.runner.RunnerMessages.OrchestratorPlace;
import koala.api.runner.RunnerMessages.Refusal;
import koala.api.runner.RunnerMessages.ShrinkResult;
import koala.api.scheduler.GrowResult;
import koala.common.failure.Conflict;
import koala.common.failure.Unavailable;
import koala.provisioning.GrowOverhead;
import koala.provisioning.OrchestratorDecision;
import koala.provisioning.OrchestratorPolicy;
import koala.provisioning.PolicyKind;
import koala.provisioning.WorkerDecision;
import koala.provisioning.WorkerLayer;
import koala.provisioning.WorkerPolicy;

/**
 * Resizing: carries out what the provisioning policies decide — on the framework's grow, shrink
 * and orchestrator requests, and on each sample — by asking for nodes ({@link Grows}) and giving
 * them back ({@link Releases}). The decisions themselves are the {@code provisioning} module's.
 *
 * <p>A decision that may grow is a <em>step</em>: it is taken only once the grows of the steps before
 * it have their answers, so that it counts their nodes (F_max, the starting workers, the orchestrator
 * layer) as a decision under one lock did. Only the request whose step waits is held up; a shrink or
 * a release is decided at once (it concerns running nodes, which no grow in flight changes). Lives on
 * the runner's loop.
 */
final class Resizer {
    private final Entities entities;
    private final Grows grows;
    private final Releases releases;
    private final SchedulerCalls calls;
    private final Deployd deployd;
    private final Events events;
    private final GrowOverhead growOverhead;
    private final InstantSource clock;
    private final Lifecycle lifecycle;
    private WorkerPolicy workers;
    /**
     * On a grid shared by arbitration a grow is not capped by the free nodes: the arbiter may take back for
     * it. Until the scheduler's first answer to a share report says whether the grid is shared, a grow is
     * not capped here either and the scheduler decides it: a grow asked within a second of the deployment
     * was refused "the grid has no free nodes" by the runner alone on a grid that would have taken back for it.
     */
    private boolean arbitrated = true;
    private OrchestratorPolicy orchestrators;
    private String home = "";
    private WorkerDecision.Kind lastKeep;
    /** The framework's latest grows by its request id: one it repeats (its runner restarted under it) is answered again. */
    private final Map<String, RunnerState.Answer> answered = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, RunnerState.Answer> eldest) {
            return size() > ANSWERS_KEPT;
        }
    };
    private static final int ANSWERS_KEPT = 16;
    /** The framework's grows not answered yet, by request id: one repeated meanwhile waits for the same answer. */
    private final Map<String, Asking> asking = new HashMap<>();

    /** A framework's grow of {@code requested} workers at the scheduler, its answer to come. */
    private record Asking(int requested, CompletableFuture<RunnerMessages.GrowResult> answer) {
    }
    private final Deque<Runnable> steps = new ArrayDeque<>();
    private boolean stepping;

    Resizer(Entities entities, Grows grows, Releases releases, SchedulerCalls calls, Deployd deployd, Events events,
            GrowOverhead growOverhead, InstantSource clock, Lifecycle lifecycle) {
        this.entities = entities;
        this.grows = grows;
        this.releases = releases;
        this.calls = calls;
        this.deployd = deployd;
        this.events = events;
        this.growOverhead = growOverhead;
        this.clock = clock;
        this.lifecycle = lifecycle;
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

    /**
     * The framework's grow. With a {@code requestId} it has used before, the earlier answer again
     * and no more nodes: the framework repeats a grow whose answer a runner's death cut off, or one
     * it stopped waiting for (then it waits for the same answer).
     */
    CompletableFuture<RunnerMessages.GrowResult> grow(int requested, String requestId) {
        RunnerState.Answer earlier = requestId == null ? null : answered.get(requestId);
        if (earlier != null) {
            sameGrow(requestId, earlier.requested(), requested, "granted " + earlier.granted());
            return CompletableFuture.completedFuture(new RunnerMessages.GrowResult(earlier.requested(),
                    earlier.granted(), earlier.nodes(), earlier.reason()));
        }
        Asking same = requestId == null ? null : asking.get(requestId);
        if (same != null) {
            sameGrow(requestId, same.requested(), requested, "still at the scheduler");
            return same.answer();
        }
        CompletableFuture<RunnerMessages.GrowResult> answer = step(() -> decideGrow(requested, requestId));
        if (requestId != null && !answer.isDone()) {
            asking.put(requestId, new Asking(requested, answer));
        }
        return answer.whenComplete((result, failure) -> {
            if (requestId != null) {
                asking.remove(requestId);
                if (result != null) {
                    answered.put(requestId, new RunnerState.Answer(requested, result.granted(), result.nodes(),
                            result.reason()));
                }
            }
        });
    }

    /**
     * A request id names one grow, as an idempotency key does: used again for another number of
     * workers it is refused, naming the grow it was used for, rather than answered with that grow's
     * answer as if it were this one's.
     */
    private static void sameGrow(String requestId, int first, int requested, String state) {
        if (first != requested) {
            throw new Conflict("request id '" + requestId + "' was used for a grow of " + first + " worker"
                    + (first == 1 ? "" : "s") + " (" + state + "), not " + requested + ": a request id names one "
                    + "grow, and a retry repeats it unchanged; ask for a different grow under a new id", "requestId");
        }
    }

    private CompletableFuture<RunnerMessages.GrowResult> decideGrow(int requested, String requestId) {
        return gridIdle(true).thenCompose(idle -> {
            Instant now = clock.instant();
            WorkerDecision decision = workers.onGrowRequest(layer(idle), requested);
            if (decision instanceof WorkerDecision.Grow g) {
                return grows.ask(Entities.WORKER, g.workers(), "grow request: " + g.reason(), now, 0, requestId,
                        requested).thenApply(result -> {
                            String reason = g.workers() < requested ? g.reason() : null;
                            if (result.reason() != null) {
                                reason = (reason == null ? "" : reason + "; ") + result.reason();
                            }
                            return new RunnerMessages.GrowResult(requested, result.granted(), result.nodes(), reason);
                        });
            }
            events.add(now, EventKind.GROW_REFUSED, "grow request for " + requested + " refused: " + decision.reason(),
                    Map.of("count", requested, "decision", decision.kind().name()));
            return CompletableFuture.completedFuture(new RunnerMessages.GrowResult(requested, 0, List.of(),
                    decision.reason()));
        });
    }

    ShrinkResult shrink(List<String> nodes, Instant now) {
        for (String node : nodes) {
            if (entities.get(node).filter(e -> e.is(Entities.WORKER)).isEmpty()) {
                throw new Conflict("node " + node + " is not a worker of instance " + calls.instance(),
                        "nodes");
            }
        }
        return apply(workers.onShrinkRequest(layer(-1), nodes, now), now);
    }

    ShrinkResult shrinkIdle(Instant now) {
        return apply(workers.onIdleReleaseRequest(layer(-1), now), now);
    }

    /**
     * A sample period has passed: the worker policy and the orchestrator layer's idle rule, then the
     * floors ({@link #keepFloors}); a step, so taken once the grows before it are answered.
     */
    CompletableFuture<Void> sample(GridShare share) {
        return step(() -> gridIdle(workers.kind().growsOnSample()).thenCompose(idle -> {
            Instant now = clock.instant();
            WorkerDecision decision = workers.onSample(layer(idle), now);
            CompletableFuture<?> grown = CompletableFuture.completedFuture(null);
            if (decision instanceof WorkerDecision.Grow g) {
                grown = grows.ask(Entities.WORKER, g.workers(), g.reason(), now, 0, null, g.workers());
            } else if (decision instanceof WorkerDecision.Release) {
                apply(decision, now);
            }
            keeping(decision, now);
            OrchestratorDecision idleNodes = orchestrators.releaseIdle(entities.orchestratorLayer(
                    growOverhead.estimate(home)), now);
            if (idleNodes instanceof OrchestratorDecision.Release r) {
                release(r.nodes(), r.reason(), now);
            }
            return settled(grown).thenCompose(x -> keepFloors(share));
        }));
    }

    /**
     * Static and Proactive never run below their initial workers (see PolicyKind); an instance always
     * has an orchestrator node. Workers the grid's arbitration took back are asked for again one at a
     * time, only when all workers are busy (docs/sharing.md).
     */
    private CompletableFuture<Void> keepFloors(GridShare share) {
        Instant now = clock.instant();
        PolicyKind kind = workers.kind();
        int initial = deployd.initial(Entities.WORKER);
        int missing = initial - entities.role(Entities.WORKER).size();
        int taken = share.floorTaken(missing);
        List<CompletableFuture<?>> asked = new ArrayList<>();
        String keeps = kind.name().toLowerCase() + " keeps its " + initial + " initial workers: ";
        if (taken > 0 && kind.keepsInitialWorkers() && allWorkersBusy()) {
            asked.add(grows.ask(Entities.WORKER, 1, keeps + "all busy, one of the " + taken + " taken back asked for "
                    + "again", now, 0, null, 1).thenAccept(result -> {
                        if (result.granted() > 0) {
                            share.askedAgain();
                        }
                    }));
        }
        // the one asked for again, if granted, is one fewer taken and one fewer missing: what is left to ask is the same
        int left = missing - taken;
        if (left > 0 && kind.keepsInitialWorkers()) {
            asked.add(grows.ask(Entities.WORKER, left, keeps + left + " missing", now, 0, null, left));
        }
        if (entities.role(Entities.ORCHESTRATOR).isEmpty()) {
            asked.add(grows.ask(Entities.ORCHESTRATOR, 1, "an instance keeps one orchestrator node", now, 0, null, 1));
        }
        return CompletableFuture.allOf(asked.stream().map(Resizer::settled).toArray(CompletableFuture[]::new));
    }

    /** No worker idle by the runner's samples and none starting: an arriving application would find none free. */
    private boolean allWorkersBusy() {
        return entities.role(Entities.WORKER).stream().allMatch(e -> e.running() && e.idleSince() == null);
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

    /** Where the framework's new orchestrator goes: a node that has room, or a new one (a step: it may grow). */
    CompletableFuture<OrchestratorPlace> placeOrchestrator() {
        return step(() -> {
            Instant now = clock.instant();
            OrchestratorDecision decision = orchestrators.place(entities.orchestratorLayer(
                    growOverhead.estimate(home)));
            if (decision instanceof OrchestratorDecision.UseNode use) {
                Entity node = entities.get(use.node()).orElseThrow();
                entities.put(node.hosting(node.orchestrators() + 1, now));
                events.add(now, EventKind.ORCHESTRATOR, "orchestrator on " + use.node() + ": " + use.reason(),
                        Map.of("node", use.node()));
                return CompletableFuture.completedFuture(new OrchestratorPlace(use.node(), false, use.reason()));
            }
            return grows.ask(Entities.ORCHESTRATOR, 1, decision.reason(), now, 1, null, 1).thenApply(result -> {
                if (result.granted() == 0) {
                    throw new Unavailable("no orchestrator node: " + decision.reason() + ", but " + result.reason());
                }
                return new OrchestratorPlace(result.nodes().get(0), true, decision.reason());
            });
        });
    }

    OrchestratorPlace orchestratorDone(String node, Instant now) {
        Entity e = entities.get(node).filter(n -> n.is(Entities.ORCHESTRATOR)).orElseThrow(() -> new Conflict(
                "node " + node + " is not an orchestrator node of instance " + calls.instance(), "node"));
        if (e.orchestrators() == 0) {
            throw new Conflict("orchestrator node " + node + " hosts no orchestrator", "node");
        }
        entities.put(e.hosting(e.orchestrators() - 1, now));
        return new OrchestratorPlace(node, false, node + " hosts " + (e.orchestrators() - 1) + " orchestrators");
    }

    /** The runner's own grow of {@code count} nodes of {@code role} (a step); they start as STARTING entities. */
    CompletableFuture<GrowResult> deploy(String role, int count, String reason) {
        return step(() -> grows.ask(role, count, reason, clock.instant(), 0, null, count));
    }

    Map<String, RunnerState.Answer> answered() {
        return new LinkedHashMap<>(answered);
    }

    /**
     * A runner started again takes back its predecessor's answers and its grow in flight, asked
     * again under the same id ({@link Grows#resume}); the framework's request it was for gets that answer.
     */
    void resume(RunnerState.InFlight grow, Map<String, RunnerState.Answer> earlier) {
        answered.putAll(earlier);
        if (grow == null) {
            return;
        }
        CompletableFuture<GrowResult> result = step(() -> grows.resume(grow));
        if (grow.rpcRequest() == null) {
            return;
        }
        CompletableFuture<RunnerMessages.GrowResult> answer = result.thenApply(r -> new RunnerMessages.GrowResult(
                grow.requested(), r.granted(), r.nodes(), r.reason()));
        if (!answer.isDone()) {
            asking.put(grow.rpcRequest(), new Asking(grow.requested(), answer));
        }
        answer.thenAccept(r -> {
            asking.remove(grow.rpcRequest());
            answered.put(grow.rpcRequest(), new RunnerState.Answer(r.requested(), r.granted(), r.nodes(), r.reason()));
        });
    }

    /** Gives {@code nodes} back now: the book forgets them, the scheduler is told off the loop. */
    void release(List<String> nodes, String reason, Instant now) {
        nodes.forEach(entities::remove);
        releases.giveBack(nodes, reason);
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

    private WorkerLayer layer(int gridFreeNodes) {
        return entities.workerLayer(gridFreeNodes, growOverhead.estimate(home));
    }

    /** The grid's idle nodes when {@code withGrid} and the grid is not shared by arbitration; -1 otherwise. */
    private CompletableFuture<Integer> gridIdle(boolean withGrid) {
        if (!withGrid || arbitrated) {
            return CompletableFuture.completedFuture(-1);
        }
        CompletableFuture<Integer> idle = new CompletableFuture<>();
        calls.ask(Schedd::idleNodes, outcome -> {
            if (outcome.answered()) {
                idle.complete(outcome.value());
            } else {
                idle.completeExceptionally(outcome.failure());
            }
        });
        return idle;
    }

    /**
     * Takes {@code decision} once the steps before it are done; what it returns completes when its
     * grows have their answers. A step taken after the instance ended is refused, as a resize then is.
     */
    private <T> CompletableFuture<T> step(Supplier<CompletableFuture<T>> decision) {
        CompletableFuture<T> done = new CompletableFuture<>();
        steps.addLast(() -> {
            CompletableFuture<T> taken;
            if (lifecycle.ended()) {
                taken = CompletableFuture.failedFuture(new Conflict("instance is " + lifecycle.state()
                        + "; it can be resized while RUNNING"));
            } else {
                try {
                    taken = decision.get();
                } catch (RuntimeException e) {
                    taken = CompletableFuture.failedFuture(e);
                }
            }
            taken.whenComplete((value, failure) -> {
                if (failure == null) {
                    done.complete(value);
                } else {
                    done.completeExceptionally(unwrap(failure));
                }
                nextStep();
            });
        });
        if (!stepping) {
            nextStep();
        }
        return done;
    }

    private void nextStep() {
        Runnable next = steps.pollFirst();
        stepping = next != null;
        if (next != null) {
            next.run();
        }
    }

    /** Completes when {@code future} does, whether or not it failed (a failed grow has told its event). */
    private static CompletableFuture<Void> settled(CompletableFuture<?> future) {
        return future.handle((r, e) -> null);
    }

    static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
