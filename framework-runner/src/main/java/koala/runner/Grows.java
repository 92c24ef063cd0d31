package koala.runner;

import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import koala.api.scheduler.GrowResult;
import koala.common.failure.Failure;

/**
 * The grows the runner asks of the scheduler: one at a time, on the grows' lane off the loop
 * ({@link SchedulerCalls}), in the order asked. The one at the scheduler is kept durably as in flight
 * ({@link RunnerState.InFlight}, written before it is asked) under an id of its own, so that a runner
 * started again asks again under that id and is given the first grant, never a second. A grant's
 * nodes join the book as STARTING, requested when the grow was decided. Lives on the loop; each
 * grow's future completes there.
 */
final class Grows {
    /** A grow: what is asked (and kept durably while it is at the scheduler), and the reason its events give. */
    private record Grow(RunnerState.InFlight what, String told, boolean resumed, CompletableFuture<GrowResult> done) {
    }

    private final Entities entities;
    private final Events events;
    private final Deployd deployd;
    private final SchedulerCalls calls;
    private final InstantSource clock;
    private final Runnable persist;
    private final Deque<Grow> queued = new ArrayDeque<>();
    private Grow asked;
    /** Per role, why its last grow got no node (the scheduler's words), until one of its grows gets one. */
    private final Map<String, String> refused = new java.util.HashMap<>();

    /** @param persist writes the durable state now: before a grow goes to the scheduler */
    Grows(Entities entities, Events events, Deployd deployd, SchedulerCalls calls, InstantSource clock,
          Runnable persist) {
        this.entities = entities;
        this.events = events;
        this.deployd = deployd;
        this.calls = calls;
        this.clock = clock;
        this.persist = persist;
    }

    /**
     * Asks for {@code count} nodes of {@code role}, decided at {@code at} for {@code reason}, each new
     * orchestrator node hosting {@code orchestratorsEach}; for the framework's request {@code rpcRequest}
     * (null for the runner's own) of {@code requested}. Completes with the grant, or with the
     * scheduler's refusal or silence (a {@link Failure}).
     */
    CompletableFuture<GrowResult> ask(String role, int count, String reason, Instant at, int orchestratorsEach,
                                      String rpcRequest, int requested) {
        RunnerState.InFlight what = new RunnerState.InFlight(UUID.randomUUID().toString(), role, count, reason, at,
                orchestratorsEach, rpcRequest, requested);
        return enqueue(new Grow(what, reason, false, new CompletableFuture<>()));
    }

    /**
     * The grow a runner before this one had in flight when it died, asked again under the same id:
     * the scheduler gives the first grant's nodes if the first request arrived, and grows (or refuses)
     * now if it did not. A refusal is an answer of no nodes, with the scheduler's reason.
     */
    CompletableFuture<GrowResult> resume(RunnerState.InFlight grow) {
        return enqueue(new Grow(grow, "in flight when the runner before this one died: " + grow.reason(), true,
                new CompletableFuture<>()));
    }

    /** The grow at the scheduler, if any: what the durable state keeps of it. */
    RunnerState.InFlight inFlight() {
        return asked == null ? null : asked.what();
    }

    /** Whether a grow is at the scheduler or waiting to go. */
    boolean busy() {
        return asked != null || !queued.isEmpty();
    }

    /** Why the last grow of {@code role} got no node, if it got none (and none of that role's has since). */
    java.util.Optional<String> refused(String role) {
        return java.util.Optional.ofNullable(refused.get(role));
    }

    /** Completes once every grow asked so far has its answer (granted or not). */
    CompletableFuture<Void> settled() {
        List<CompletableFuture<GrowResult>> all = new ArrayList<>();
        if (asked != null) {
            all.add(asked.done());
        }
        queued.forEach(g -> all.add(g.done()));
        return CompletableFuture.allOf(all.stream().map(f -> f.handle((r, e) -> r)).toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<GrowResult> enqueue(Grow grow) {
        queued.addLast(grow);
        next();
        return grow.done();
    }

    private void next() {
        if (asked != null || queued.isEmpty()) {
            return;
        }
        Grow grow = queued.pollFirst();
        asked = grow;
        persist.run();
        RunnerState.InFlight what = grow.what();
        calls.grow(s -> s.grow(deployd.request(what.role(), what.nodes(), what.reason())
                .withRequestId(what.requestId())), outcome -> {
                    asked = null;
                    landed(grow, outcome);
                    next();
                });
    }

    private void landed(Grow grow, SchedulerCalls.Outcome<GrowResult> outcome) {
        RunnerState.InFlight what = grow.what();
        if (outcome.answered()) {
            granted(outcome.value(), what, grow.told());
            grow.done().complete(outcome.value());
            return;
        }
        Failure e = outcome.failure();
        if (grow.resumed()) {
            events.add(clock.instant(), "the grow in flight when the runner before this one died (" + what.nodes()
                    + " " + what.role() + ") is refused: " + e.getMessage());
            GrowResult none = new GrowResult(calls.instance(), what.nodes(), 0, List.of(), e.getMessage());
            granted(none, what, grow.told());
            grow.done().complete(none);
            return;
        }
        if (!e.getMessage().equals(refused.put(what.role(), e.getMessage())) || what.role().equals(Entities.WORKER)) {
            events.add(clock.instant(), EventKind.NO_NODE, "no " + what.role() + " node: the scheduler did not grant "
                    + "the grow (" + e.getMessage() + ") (" + what.reason() + ")", Map.of("role", what.role(), "count",
                    what.nodes()));
        }
        grow.done().completeExceptionally(e);
    }

    private void granted(GrowResult result, RunnerState.InFlight what, String reason) {
        String role = what.role();
        entities.starting(result.nodes().stream().filter(n -> entities.get(n).isEmpty()).toList(), role, what.at(),
                what.orchestratorsEach());
        Instant now = clock.instant();
        if (result.granted() == 0) {
            String why = String.valueOf(result.reason());
            // a grow asked again for the same want (a master waiting for a node) says a refusal once, not at each ask
            if (!why.equals(refused.put(role, why)) || role.equals(Entities.WORKER)) {
                events.add(now, EventKind.NO_NODE, "no " + role + " node: " + result.reason() + " (" + reason + ")",
                        Map.of("role", role, "count", result.requested()));
            }
        } else {
            refused.remove(role);
            events.add(now, EventKind.GROW, "grow " + result.granted() + " " + role + (result.granted() == 1 ? "" : "s")
                    + deployd.sizeOf(role) + " " + result.nodes() + ": " + reason + (result.reason() == null ? "" : "; " + result.reason()),
                    Map.of("role", role, "count", result.granted(), "nodes", result.nodes()));
        }
    }
}
