package koala.api.runner;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import koala.api.runner.RunnerMessages.Activity;
import koala.api.runner.RunnerMessages.Exit;
import koala.api.runner.RunnerMessages.Grow;
import koala.api.runner.RunnerMessages.GrowResult;
import koala.api.runner.RunnerMessages.Heartbeat;
import koala.api.runner.RunnerMessages.HeartbeatReply;
import koala.api.runner.RunnerMessages.Hello;
import koala.api.runner.RunnerMessages.OrchestratorPlace;
import koala.api.runner.RunnerMessages.Orders;
import koala.api.runner.RunnerMessages.Shrink;
import koala.api.runner.RunnerMessages.ShrinkResult;
import koala.api.runner.RunnerMessages.Status;
import koala.http.JsonHttpClient;

/**
 * A framework instance's line to its runner: grow and shrink the workers, place orchestrators,
 * read the status. Every entity finds the runner's address in {@code KOALA_RUNNER_URL} and the
 * instance's secret in {@code KOALA_RUNNER_TOKEN}, the secret as it is now in the file
 * {@code KOALA_RUNNER_TOKEN_FILE} names (the runner rotates it; the entity's launcher keeps the file
 * up to date), the runner's address as it is now in the file {@code KOALA_RUNNER_URL_FILE} names (a
 * runner started on another host in the place of one whose host went serves elsewhere: the launcher
 * rewrites the file); {@link #fromEnvironment()} reads them, each call the files as they are then, and a
 * call refused with a secret that has since been rotated is made again once with the new one. A
 * refused call throws {@link koala.http.ApiException} with the status (401 bad token, 409
 * a node that is not the instance's, 400 a malformed request naming the field) and the reason.
 */
public final class RunnerClient {
    public static final String URL_VARIABLE = "KOALA_RUNNER_URL";
    public static final String TOKEN_VARIABLE = "KOALA_RUNNER_TOKEN";
    /** The file holding the instance's token as it is now (its launcher rewrites it when the runner rotates it). */
    public static final String TOKEN_FILE_VARIABLE = "KOALA_RUNNER_TOKEN_FILE";
    /** The file holding the runner's address in force (its launcher rewrites it when the runner moves). */
    public static final String URL_FILE_VARIABLE = "KOALA_RUNNER_URL_FILE";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final java.util.function.Supplier<URI> runner;
    private final TokenSource token;
    /** The client for the address last called, made again when the address changes. */
    private volatile JsonHttpClient http;

    public RunnerClient(URI runner, String token) {
        this(runner, TokenSource.fixed(token));
    }

    public RunnerClient(URI runner, TokenSource token) {
        this(() -> runner, token);
    }

    /** A client of the runner at the address {@code runner} gives at each call. */
    public RunnerClient(java.util.function.Supplier<URI> runner, TokenSource token) {
        this.runner = runner;
        this.token = token;
    }

    private JsonHttpClient http() {
        URI now = runner.get();
        JsonHttpClient h = http;
        if (h == null || !h.base().equals(now)) {
            h = new JsonHttpClient(now, TIMEOUT);
            http = h;
        }
        return h;
    }

    /**
     * The address in {@code file} as it is now; {@code given} when the file cannot be read or holds none (a
     * launcher of an older build writes none).
     */
    static URI addressIn(java.nio.file.Path file, URI given) {
        try {
            String url = java.nio.file.Files.readString(file).strip();
            return url.isEmpty() ? given : URI.create(url);
        } catch (java.io.IOException | IllegalArgumentException e) {
            return given;
        }
    }

    public static RunnerClient fromEnvironment() {
        String url = System.getenv(URL_VARIABLE);
        java.util.Optional<TokenSource> token = TokenSource.fromEnvironment(System.getenv(), TOKEN_FILE_VARIABLE,
                TOKEN_VARIABLE);
        if (url == null || token.isEmpty()) {
            throw new IllegalStateException(URL_VARIABLE + " and " + TOKEN_VARIABLE + " are set only for framework entities");
        }
        URI given = URI.create(url);
        String file = System.getenv(URL_FILE_VARIABLE);
        return file == null ? new RunnerClient(given, token.get())
                : new RunnerClient(() -> addressIn(java.nio.file.Path.of(file), given), token.get());
    }

    /** {@code call} with the token as it is now; refused with one the runner has since rotated, once more with the new one. */
    private <T> T call(java.util.function.Function<JsonHttpClient, T> call) {
        String now = token.get();
        try {
            return call.apply(http().withBearer(now));
        } catch (koala.http.ApiException e) {
            if (e.status() != 401) {
                throw e;
            }
            String rotated = token.changedFrom(now, java.time.InstantSource.system(), TokenSource.ROTATION_WAIT)
                    .orElseThrow(() -> e);
            return call.apply(http().withBearer(rotated));
        }
    }

    public GrowResult grow(int workers) {
        return call(h -> h.post("/grow", new Grow(workers, "worker"), GrowResult.class));
    }

    /**
     * A grow named {@code requestId}: repeated with the same id — its answer was lost, say while the
     * runner was started again — it gets the first answer and no more nodes.
     */
    public GrowResult grow(int workers, String requestId) {
        return call(h -> h.post("/grow", new Grow(workers, "worker", requestId), GrowResult.class));
    }

    public ShrinkResult shrink(List<String> workers) {
        return call(h -> h.post("/shrink", new Shrink(workers, null), ShrinkResult.class));
    }

    /** Reports how well the framework does now (a slowdown, 1 = as if alone), for the grid's arbitration. */
    public void figure(double slowdown) {
        figure(slowdown, null);
    }

    /**
     * As {@link #figure(double)}, with the share of its work the framework rejected lately (0 to 1;
     * null for none), which the scheduler shows in its metrics.
     */
    public void figure(double slowdown, Double rejectRate) {
        call(h -> h.post("/figure", new RunnerMessages.Figure(slowdown, rejectRate), Map.class));
    }

    /** What the grid's arbitration asks the instance to give back now; null for nothing. */
    public koala.api.scheduler.ShareOrders.GiveBack giveBack() {
        return call(h -> h.get("/give-back", RunnerMessages.GiveBackAsk.class).ask());
    }

    /** Gives back these workers, the framework's choice, at the grid's request. */
    public ShrinkResult giveBack(List<String> workers) {
        return call(h -> h.post("/give-back", new Shrink(workers, null), ShrinkResult.class));
    }

    /** Releases whichever workers have been idle at least t_idle. */
    public ShrinkResult shrinkIdle() {
        return call(h -> h.post("/shrink", new Shrink(null, true), ShrinkResult.class));
    }

    /** Where a new orchestrator goes: an existing orchestrator node, or a new one grown for it. */
    public OrchestratorPlace orchestrator() {
        return call(h -> h.post("/orchestrators", Map.of(), OrchestratorPlace.class));
    }

    /** An orchestrator on {@code node} has ended (its application finished). */
    public OrchestratorPlace orchestratorDone(String node) {
        return call(h -> h.post("/orchestrators/" + node + "/done", Map.of(), OrchestratorPlace.class));
    }

    /** Tells the runner that worker {@code node} runs something ({@code busy}) or has run nothing since {@code since}. */
    public void activity(String node, boolean busy, Instant since) {
        call(h -> h.post("/workers/" + node + "/activity", new Activity(busy, since), Map.class));
    }

    public Status status() {
        return call(h -> h.get("/status", Status.class));
    }

    /** How the node's start went, step by step; 404 for a node that has not reported in (or left). */
    public RunnerMessages.Startup startup(String node) {
        return call(h -> h.get("/nodes/" + node + "/startup", RunnerMessages.Startup.class));
    }

    public Orders hello(String node, Hello hello) {
        return call(h -> h.post("/nodes/" + node + "/hello", hello, Orders.class));
    }

    public HeartbeatReply heartbeat(String node, double cpuPercent) {
        return call(h -> h.post("/nodes/" + node + "/heartbeat", new Heartbeat(cpuPercent), HeartbeatReply.class));
    }

    public void exited(String node, int status) {
        call(h -> h.post("/nodes/" + node + "/exit", new Exit(status), HeartbeatReply.class));
    }
}
