package koala.runner;

import java.time.InstantSource;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import koala.api.runner.RunnerMessages.Activity;
import koala.api.runner.RunnerMessages.Exit;
import koala.api.runner.RunnerMessages.Grow;
import koala.api.runner.RunnerMessages.Heartbeat;
import koala.api.runner.RunnerMessages.Hello;
import koala.api.runner.RunnerMessages.Shrink;
import koala.http.ApiException;
import koala.http.JsonHttpServer;
import koala.http.Request;
import koala.http.Response;

/**
 * The runner's HTTP/JSON API. For the framework: {@code POST /grow {nodes, role}},
 * {@code POST /shrink {nodes: [ids]}} (or {@code {idle: true}}), {@code POST /orchestrators},
 * {@code POST /orchestrators/{node}/done}, {@code POST /workers/{node}/activity {busy, since}},
 * {@code GET /status}. For the scheduler's supervisor, without a token: {@code GET /health}. For its node launchers:
 * {@code POST /nodes/{id}/hello|heartbeat|exit}. Every call needs the instance's token in force as
 * {@code Authorization: Bearer TOKEN} (401 otherwise); a launcher, once its node's first hello got the
 * node's key, presents that key ({@code X-Koala-Node-Key}) instead, and its heartbeats' answers carry
 * the token in force (see {@link InstanceSecrets}). A malformed body is a 400 naming the field; a node
 * that is not the instance's a 409 (410 to a launcher). A refused call changes nothing.
 *
 * <p>It never locks the runner: each call is posted to the runner's loop and its answer waited for
 * within a bound ({@link RunnerLoop}); a loop too busy to begin it in time answers 503 with nothing
 * done. A grow (or an orchestrator needing a new node) waits for its grant, at most
 * {@link FrameworkRunner#GROW_WAIT}, then 503: asked again under the same {@code requestId} it gets that
 * grow's answer. Heartbeats, hellos and the status are answered meanwhile. The token and the nodes'
 * keys are checked on the caller's thread ({@link InstanceSecrets}).
 */
final class RunnerApi {
    /** The header a launcher proves its node with, once the node's first hello gave it the node's key. */
    static final String NODE_KEY = "X-Koala-Node-Key";

    private final FrameworkRunner runner;
    private final InstanceSecrets secrets;
    private final InstantSource clock;

    RunnerApi(FrameworkRunner runner, InstantSource clock) {
        this.runner = runner;
        this.secrets = runner.secrets();
        this.clock = clock;
    }

    void routes(JsonHttpServer server) {
        server.route("POST", "/grow", r -> authorized(r, () -> grow(r.body(Grow.class))))
                .route("POST", "/shrink", r -> authorized(r, () -> shrink(r.body(Shrink.class))))
                .route("POST", "/orchestrators", r -> authorized(r, runner::placeOrchestrator))
                .route("POST", "/orchestrators/{node}/done", r -> authorized(r, () ->
                        runner.orchestratorDone(r.param("node"))))
                .route("POST", "/workers/{node}/activity", r -> authorized(r, () -> activity(r.param("node"),
                        r.body(Activity.class))))
                .route("POST", "/figure", r -> authorized(r, () -> figure(r.body(koala.api.runner.RunnerMessages.Figure.class))))
                .route("GET", "/give-back", r -> authorized(r, () -> new koala.api.runner.RunnerMessages.GiveBackAsk(runner.giveBackAsk())))
                .route("POST", "/give-back", r -> authorized(r, () -> giveBack(r.body(Shrink.class))))
                .route("GET", "/status", r -> authorized(r, runner::status))
                // for the scheduler's supervisor: says only that the runner serves, and whom
                .route("GET", "/health", r -> Response.ok(runner.health()))
                .route("GET", "/nodes/{node}/startup", r -> authorized(r, () -> runner.startup(r.param("node"))
                        .orElseThrow(() -> new ApiException(404, "node " + r.param("node") + ": no start reported"))))
                .route("POST", "/nodes/{node}/hello", r -> hello(r))
                .route("POST", "/nodes/{node}/heartbeat", r -> fromNode(r, keyed ->
                        runner.heartbeat(r.param("node"), r.body(Heartbeat.class).cpuPercent(), keyed)))
                .route("POST", "/nodes/{node}/exit", r -> fromNode(r, keyed ->
                        runner.exited(r.param("node"), r.body(Exit.class).status(), keyed)));
    }

    private Object grow(Grow grow) {
        if (grow.nodes() == null || grow.nodes() < 1) {
            throw ApiException.badRequest("nodes", grow.nodes() == null ? "missing: how many workers"
                    : grow.nodes() + ": ask for at least 1 worker");
        }
        if (grow.role() != null && !grow.role().equals(Entities.WORKER)) {
            throw ApiException.badRequest("role", "'" + grow.role() + "': the framework grows workers; "
                    + "orchestrator nodes come through POST /orchestrators, the master is fixed");
        }
        return runner.grow(grow.nodes(), grow.requestId());
    }

    private Object activity(String node, Activity activity) {
        if (activity.busy() == null) {
            throw ApiException.badRequest("busy", "missing: true while the worker runs anything, false once it is idle");
        }
        if (!activity.busy() && activity.since() == null) {
            throw ApiException.badRequest("since", "missing: since when the worker has been idle");
        }
        runner.activity(node, activity.busy(), activity.busy() ? clock.instant() : activity.since());
        return java.util.Map.of("node", node, "busy", activity.busy());
    }

    private Object shrink(Shrink shrink) {
        boolean idle = Boolean.TRUE.equals(shrink.idle());
        List<String> nodes = shrink.nodes() == null ? List.of() : shrink.nodes();
        if (idle == !nodes.isEmpty()) {
            throw ApiException.badRequest("nodes", idle ? "give either nodes or idle, not both"
                    : "missing: name the workers to release, or send {\"idle\": true}");
        }
        return idle ? runner.shrinkIdle() : runner.shrink(nodes);
    }

    private Object figure(koala.api.runner.RunnerMessages.Figure figure) {
        Double v = figure.value();
        if (v == null || !(v >= 0) || v.isInfinite()) {
            throw ApiException.badRequest("value", v == null ? "missing: the framework's slowdown, 1 = as if alone"
                    : v + " is not a finite number of at least 0");
        }
        Double rejected = figure.rejectRate();
        if (rejected != null && !(rejected >= 0 && rejected <= 1)) {
            throw ApiException.badRequest("rejectRate", rejected + " is not a share between 0 and 1");
        }
        runner.figure(v, rejected);
        return rejected == null ? java.util.Map.of("value", v) : java.util.Map.of("value", v, "rejectRate", rejected);
    }

    private Object giveBack(Shrink shrink) {
        if (shrink.nodes() == null || shrink.nodes().isEmpty()) {
            throw ApiException.badRequest("nodes", "missing: name the workers to give back");
        }
        return runner.giveBack(shrink.nodes());
    }

    private Response authorized(Request request, Supplier<Object> call) {
        String given = bearer(request);
        if (!secrets.current(given)) {
            throw new ApiException(401, given.isEmpty() ? "missing token: send Authorization: Bearer <the instance's "
                    + "token>" : "wrong token for this instance (it may have been replaced: read it again)");
        }
        return Response.ok(call.get());
    }

    /**
     * A first hello presents a token: the one in force, or one it replaced (the grid may start a node
     * granted from a request made before the rotation). A hello again (a master restarted on its node)
     * presents the node's key.
     */
    private Response hello(Request request) {
        String node = request.param("node");
        Optional<String> key = request.header(NODE_KEY);
        if (key.isPresent()) {
            return fromNode(request, keyed -> runner.hello(node, request.body(Hello.class), true, false));
        }
        String given = bearer(request);
        if (!secrets.known(given)) {
            throw new ApiException(401, given.isEmpty() ? "missing token: send Authorization: Bearer <the instance's "
                    + "token>" : "wrong token for this instance");
        }
        return Response.ok(runner.hello(node, request.body(Hello.class), false, secrets.current(given)));
    }

    /**
     * A launcher's call about its node: with the node's key, or — from a launcher of a node that has
     * none (one started before the runner gave keys) — with the token in force.
     */
    private Response fromNode(Request request, Function<Boolean, Object> call) {
        String node = request.param("node");
        Optional<String> key = request.header(NODE_KEY);
        if (key.isPresent()) {
            if (!secrets.keyed(node)) { // its launcher still runs: the exit of an entity stopped at a shrink
                throw new ApiException(410, "node " + node + " is not this instance's now (given back or lost)", NODE_KEY);
            }
            if (!secrets.keyMatches(node, key.get())) {
                throw new ApiException(401, "wrong key for node " + node, NODE_KEY);
            }
            return Response.ok(call.apply(true));
        }
        if (secrets.keyed(node)) {
            throw new ApiException(401, "node " + node + " proves itself with its key (" + NODE_KEY + ")", NODE_KEY);
        }
        return authorized(request, () -> call.apply(false));
    }

    private static String bearer(Request request) {
        return request.header("Authorization").map(h -> h.replaceFirst("^Bearer\\s+", "").trim()).orElse("");
    }
}
