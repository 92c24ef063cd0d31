package koala.runner;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import koala.api.runner.RunnerMessages;
import koala.provisioning.OrchestratorLayer;
import koala.provisioning.OrchestratorNode;
import koala.provisioning.WorkerLayer;
import koala.provisioning.WorkerReport;

/**
 * The runner's book of its instance's entities, by node. A worker is busy while its CPU use is
 * at least {@link WorkerReport#isBusy its CPU threshold}, until its framework reports its activity itself.
 * It counts the changes to which nodes it holds ({@link #mark()}): a look at the scheduler's allocation
 * asked before a node came or went says nothing about that node. Not thread-safe: it lives on the
 * runner's loop. Time is always a parameter.
 */
final class Entities {
    static final String MASTER = "master";
    static final String ORCHESTRATOR = "orchestrator";
    static final String WORKER = "worker";

    private final Map<String, Entity> byNode = new LinkedHashMap<>();
    /** Workers whose framework reports their activity: for them CPU use no longer decides busy or idle. */
    private final Set<String> frameworkReported = new HashSet<>();
    /** Changes to which nodes the book holds (or the runner gives back), so far; and the latest of each node. */
    private long changes;
    private final Map<String, Long> changedAt = new HashMap<>();
    /**
     * Entities whose launchers beat to the address of the runner this one replaced, and when each is taken as
     * silent at the earliest: they find this one only once that runner is silent to them.
     */
    private final Map<String, Instant> awaitedUntil = new HashMap<>();

    /** Nodes asked for; a new orchestrator node may already have orchestrators sent to it. */
    void starting(List<String> nodes, String role, Instant at, int orchestrators) {
        for (String node : nodes) {
            byNode.put(node, Entity.starting(node, role, at, orchestrators));
            touched(node);
        }
    }

    Optional<Entity> get(String node) {
        return Optional.ofNullable(byNode.get(node));
    }

    Collection<Entity> all() {
        return List.copyOf(byNode.values());
    }

    List<Entity> role(String role) {
        return byNode.values().stream().filter(e -> e.is(role)).toList();
    }

    Optional<Entity> master() {
        return role(MASTER).stream().findFirst();
    }

    void put(Entity entity) {
        byNode.put(entity.node(), entity);
    }

    Optional<Entity> remove(String node) {
        frameworkReported.remove(node);
        awaitedUntil.remove(node);
        Optional<Entity> gone = Optional.ofNullable(byNode.remove(node));
        gone.ifPresent(e -> touched(node));
        return gone;
    }

    /** The changes so far: what a look at the allocation asked now is judged against. */
    long mark() {
        return changes;
    }

    /** Whether {@code node} came, went or was given back after {@code mark}. */
    boolean changedSince(String node, long mark) {
        Long at = changedAt.get(node);
        return at != null && at > mark;
    }

    /** {@code node} changed hands now (the scheduler took it back, say) though the book itself did not change. */
    void touched(String node) {
        changedAt.put(node, ++changes);
    }

    /** Forgets the changes up to {@code mark}: no look at the allocation asked before it is still to be judged. */
    void settledUpTo(long mark) {
        changedAt.values().removeIf(at -> at <= mark);
    }

    /**
     * Running entities that missed two heartbeats: silent for twice the period their launcher was told, and,
     * for those awaited at a new address ({@link #awaitAtNewAddress}), past the time they are awaited.
     */
    List<Entity> silent(Instant now) {
        return byNode.values().stream().filter(Entity::running)
                .filter(e -> !now.isBefore(e.lastBeat().plus(e.beatPeriod().multipliedBy(2))))
                .filter(e -> !now.isBefore(awaitedUntil.getOrDefault(e.node(), Instant.MIN))).toList();
    }

    /**
     * This runner serves at another address than the one its running entities' launchers beat to: each is
     * awaited until {@code now} plus its launcher's {@code wait} for a silent runner (past it, a launcher that
     * found no runner has ended its entity), not two periods. Answers when each is awaited until.
     */
    Map<String, Instant> awaitAtNewAddress(Instant now, java.util.function.Function<Entity, Duration> wait) {
        byNode.values().stream().filter(Entity::running)
                .forEach(e -> awaitedUntil.put(e.node(), now.plus(wait.apply(e))));
        return Map.copyOf(awaitedUntil);
    }

    Entity beat(Entity e, double cpu, Duration period, Instant now) {
        awaitedUntil.remove(e.node());
        boolean busy = frameworkReported.contains(e.node()) ? e.idleSince() == null
                : !e.is(WORKER) || WorkerReport.isBusy(cpu);
        Entity beaten = e.beat(cpu, busy, period, now);
        put(beaten);
        return beaten;
    }

    /**
     * The framework says worker {@code e} is busy, or idle since {@code since}; an idle-since in the
     * future or before the worker reported in is taken as now or as its report-in.
     */
    Entity activity(Entity e, boolean busy, Instant since, Instant now) {
        Instant from = since.isAfter(now) ? now : since.isBefore(e.requestedAt()) ? e.requestedAt() : since;
        Entity reported = e.activity(busy, from);
        frameworkReported.add(e.node());
        put(reported);
        return reported;
    }

    /** The worker layer as the policies see it; {@code gridFreeNodes} -1 when not known. */
    WorkerLayer workerLayer(int gridFreeNodes, Duration growOverhead) {
        return WorkerReport.layer(role(WORKER).stream()
                .map(e -> new WorkerReport(e.node(), e.running(), e.cpuPercent(), e.running() ? e.idleSince() : null))
                .toList(), gridFreeNodes, growOverhead);
    }

    OrchestratorLayer orchestratorLayer(Duration growOverhead) {
        return new OrchestratorLayer(role(ORCHESTRATOR).stream()
                .map(e -> new OrchestratorNode(e.node(), e.orchestrators(), e.emptySince())).toList(), growOverhead);
    }

    /** The book as it is kept durably: what the next heartbeats would not tell again. */
    List<RunnerState.Saved> saved() {
        return byNode.values().stream().map(e -> new RunnerState.Saved(e.node(), e.role(), e.site(), e.state().name(),
                e.requestedAt(), e.host(), e.port(), e.beatPeriod() == null ? 0 : e.beatPeriod().toMillis(),
                e.idleSince(), e.orchestrators(), e.emptySince(), frameworkReported.contains(e.node()))).toList();
    }

    /**
     * Takes back a book kept by {@link #saved()}, at {@code now}: a running entity counts as heard
     * from now, so that its launcher has two periods to reach the restarted runner.
     */
    void restore(List<RunnerState.Saved> saved, Instant now) {
        for (RunnerState.Saved s : saved) {
            Entity.State state = Entity.State.valueOf(s.state());
            Duration period = s.beatMillis() == 0 ? null : Duration.ofMillis(s.beatMillis());
            byNode.put(s.node(), new Entity(s.node(), s.role(), s.site(), state, s.requestedAt(), s.host(), s.port(),
                    state == Entity.State.RUNNING ? now : null, period, 0, s.idleSince(), s.orchestrators(),
                    s.emptySince()));
            if (s.frameworkReported()) {
                frameworkReported.add(s.node());
            }
        }
    }

    List<RunnerMessages.Entity> views() {
        return byNode.values().stream().map(e -> new RunnerMessages.Entity(e.node(), e.role(), e.site(), e.host(),
                e.state().name(), e.idleSince() == null && e.running(), e.cpuPercent(), e.idleSince(),
                e.orchestrators(), e.lastBeat())).toList();
    }
}
