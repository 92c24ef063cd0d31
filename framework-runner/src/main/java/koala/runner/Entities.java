package koala.runner;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import koala.common.runner.RunnerMessages;
import koala.provisioning.OrchestratorLayer;
import koala.provisioning.OrchestratorNode;
import koala.provisioning.Worker;
import koala.provisioning.WorkerLayer;

/**
 * The runner's book of its instance's entities, by node. A worker is busy while its CPU use is
 * at least {@link #BUSY_CPU_PERCENT}, until its framework reports its activity itself. Not thread-safe: the runner calls it
 * under its own lock. Time is always a parameter.
 */
final class Entities {
    static final String MASTER = "master";
    static final String ORCHESTRATOR = "orchestrator";
    static final String WORKER = "worker";
    /** A worker using at least this much of its node's CPU is busy; below, idle (its t_idle timer runs). */
    static final double BUSY_CPU_PERCENT = 5;

    private final Map<String, Entity> byNode = new LinkedHashMap<>();
    /** Workers whose framework reports their activity: for them CPU use no longer decides busy or idle. */
    private final Set<String> frameworkReported = new HashSet<>();

    /** Nodes asked for; a new orchestrator node may already have orchestrators sent to it. */
    void starting(List<String> nodes, String role, Instant at, int orchestrators) {
        for (String node : nodes) {
            byNode.put(node, Entity.starting(node, role, at, orchestrators));
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
        return Optional.ofNullable(byNode.remove(node));
    }

    /** Running entities that missed two heartbeats: silent for twice the period their launcher was told. */
    List<Entity> silent(Instant now) {
        return byNode.values().stream().filter(Entity::running)
                .filter(e -> !now.isBefore(e.lastBeat().plus(e.beatPeriod().multipliedBy(2)))).toList();
    }

    Entity beat(Entity e, double cpu, Duration period, Instant now) {
        boolean busy = frameworkReported.contains(e.node()) ? e.idleSince() == null : !e.is(WORKER) || cpu >= BUSY_CPU_PERCENT;
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

    WorkerLayer workerLayer(int gridFreeNodes, Duration growOverhead) {
        List<Worker> running = new ArrayList<>();
        int starting = 0;
        for (Entity e : role(WORKER)) {
            if (!e.running()) {
                starting++;
            } else if (e.idleSince() == null) {
                running.add(Worker.busy(e.node(), e.cpuPercent()));
            } else {
                running.add(Worker.idle(e.node(), e.idleSince(), e.cpuPercent()));
            }
        }
        WorkerLayer layer = new WorkerLayer(running, starting, java.util.OptionalInt.empty(), growOverhead);
        return gridFreeNodes < 0 ? layer : layer.withGridFreeNodes(gridFreeNodes);
    }

    OrchestratorLayer orchestratorLayer(Duration growOverhead) {
        return new OrchestratorLayer(role(ORCHESTRATOR).stream()
                .map(e -> new OrchestratorNode(e.node(), e.orchestrators(), e.emptySince())).toList(), growOverhead);
    }

    List<RunnerMessages.Entity> views() {
        return byNode.values().stream().map(e -> new RunnerMessages.Entity(e.node(), e.role(), e.site(), e.host(),
                e.state().name(), e.idleSince() == null && e.running(), e.cpuPercent(), e.idleSince(),
                e.orchestrators())).toList();
    }
}
