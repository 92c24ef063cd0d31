package koala.api.runner;

import java.time.Instant;
import java.util.List;

/** What a framework runner's HTTP API carries: the framework's RPC, and its node launchers' calls. */
public final class RunnerMessages {
    private RunnerMessages() {
    }

    /**
     * RPC {@code grow}: {@code nodes} more workers (the only role a framework grows directly).
     *
     * @param requestId the caller's name for this grow, or null: a grow repeated with the same id (its
     *                  answer was cut off, say by a runner's restart) gets the first answer and no more nodes
     */
    public record Grow(Integer nodes, String role, String requestId) {
        public Grow(Integer nodes, String role) {
            this(nodes, role, null);
        }
    }

    /** The runner's unauthenticated liveness answer: which instance it serves, from which process. */
    public record Health(long instance, String state, long pid) {
    }

    /** What a grow got: {@code granted} may be less than asked (a partial grant), with the reason. */
    public record GrowResult(int requested, int granted, List<String> nodes, String reason) {
        public GrowResult {
            nodes = nodes == null ? List.of() : List.copyOf(nodes);
        }
    }

    /** RPC {@code shrink}: release the named workers, or with {@code idle} true those idle at least t_idle. */
    public record Shrink(List<String> nodes, Boolean idle) {
    }

    /**
     * How well the framework does now, for the grid's {@code performance} arbitration: a slowdown,
     * 1 = as well served as if alone, higher = worse (e.g. 1 / (1 − the share of applications
     * rejected over a window)).
     */
    public record Figure(Double value, Double rejectRate) {
        /** A figure with no reject rate. */
        public Figure(Double value) {
            this(value, null);
        }
    }

    /** What KOALA asks the framework to give back now (ask null: nothing). */
    public record GiveBackAsk(koala.api.scheduler.ShareOrders.GiveBack ask) {
    }

    /** A worker a shrink named that stays, and why. */
    public record Refusal(String node, String reason) {
    }

    public record ShrinkResult(List<String> released, List<Refusal> refused, String reason) {
        public ShrinkResult {
            released = released == null ? List.of() : List.copyOf(released);
            refused = refused == null ? List.of() : List.copyOf(refused);
        }
    }

    /** RPC {@code orchestrator}: the orchestrator node a new orchestrator goes to; {@code newNode} when one was grown. */
    public record OrchestratorPlace(String node, boolean newNode, String reason) {
    }

    /**
     * One entity of an instance as its runner sees it.
     *
     * @param lastBeat when its launcher's heartbeat last reached the runner (null before the first)
     */
    public record Entity(String node, String role, String site, String host, String state, boolean busy,
                         double cpuPercent, Instant idleSince, int orchestrators, Instant lastBeat) {
    }

    /**
     * RPC {@code activity}: the framework says whether a worker runs anything, and since when. Once
     * told, the runner takes the framework's word over the worker's CPU use for its t_idle timer.
     */
    public record Activity(Boolean busy, Instant since) {
    }

    /**
     * RPC status: the instance, its settings with their origins, entities and recent decisions.
     *
     * @param tIdleMillis        t_idle in force now (a factor of O_grow resolved with the current estimate)
     * @param samplePeriodMillis how often the runner samples, and the launchers beat
     * @param waiting            what the instance waits for and why: its master or its orchestrator node
     *                           refused by the scheduler, asked for again (empty when it waits for nothing)
     */
    public record Status(long instance, String name, String state, String policy, List<String> settings,
                         String master, List<Entity> entities, List<String> events, long tIdleMillis,
                         long samplePeriodMillis, List<String> waiting) {
        public Status {
            settings = List.copyOf(settings);
            entities = List.copyOf(entities);
            events = List.copyOf(events);
            waiting = waiting == null ? List.of() : List.copyOf(waiting);
        }

        /** An instance that waits for nothing. */
        public Status(long instance, String name, String state, String policy, List<String> settings, String master,
                      List<Entity> entities, List<String> events, long tIdleMillis, long samplePeriodMillis) {
            this(instance, name, state, policy, settings, master, entities, events, tIdleMillis, samplePeriodMillis,
                    List.of());
        }

        public List<Entity> role(String role) {
            return entities.stream().filter(e -> e.role().equals(role)).toList();
        }
    }

    /** A node launcher has started its entity: on which site and host it runs, and the port it was given. */
    public record Hello(String site, String host, int port, long pid, Startup startup) {
        public Hello(String site, String host, int port, long pid) {
            this(site, host, port, pid, null);
        }
    }

    /**
     * When each step of a node's start happened, as the node's launcher saw them, and when its
     * runner heard the entity report in: what a grow's overhead is made of (SGE's dispatch ends at
     * {@code launcherStarted}, the JVM's start at {@code launcherMain}). The runner fills in
     * {@code reportedAt}.
     */
    public record Startup(Instant launcherStarted, Instant launcherMain, Instant arrived, Instant told,
                          Instant entityStarted, Instant reportedAt) {
        public Startup reported(Instant at) {
            return new Startup(launcherStarted, launcherMain, arrived, told, entityStarted, at);
        }
    }

    /**
     * How often the launcher beats, and after how long without its runner it gives the node back.
     *
     * @param nodeKey the node's own key, which its launcher presents ({@code X-Koala-Node-Key}) on every later
     *                call about the node instead of the instance's token; null from a runner without keys
     * @param token   the instance's token in force, for the entity's token file; null from a runner without keys
     */
    public record Orders(long heartbeatMillis, long runnerGoneMillis, String nodeKey, String token) {
        public Orders(long heartbeatMillis, long runnerGoneMillis) {
            this(heartbeatMillis, runnerGoneMillis, null, null);
        }
    }

    public record Heartbeat(double cpuPercent) {
    }

    /**
     * KEEP running (beating every {@code heartbeatMillis} from now on), or STOP the entity and give the node back.
     *
     * @param token the instance's token in force (the runner replaces it when one of its nodes is lost or
     *              a node not its own used it), to a launcher that proved its node with the node's key;
     *              else null. The launcher keeps its entity's token file
     *              ({@link RunnerClient#TOKEN_FILE_VARIABLE}) up to date with it.
     */
    public record HeartbeatReply(String action, long heartbeatMillis, String token) {
        public HeartbeatReply(String action, long heartbeatMillis) {
            this(action, heartbeatMillis, null);
        }

        public static final String KEEP = "KEEP";
        public static final String STOP = "STOP";
        /** The answer to an exit: start the entity's command again on this node (a master the runner restarts). */
        public static final String RESTART = "RESTART";

        public boolean stop() {
            return STOP.equals(action);
        }
    }

    public record Exit(int status) {
    }
}
