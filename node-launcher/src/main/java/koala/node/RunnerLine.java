package koala.node;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import koala.api.runner.RunnerMessages.HeartbeatReply;
import koala.api.runner.RunnerMessages.Hello;
import koala.api.runner.RunnerMessages.Orders;
import koala.api.runner.RunnerMessages.Startup;
import koala.http.PlainJsonClient;

/**
 * The launcher's calls to its runner ({@code /nodes/{id}/...}), spoken with {@link PlainJsonClient}
 * for the reason {@link SchedulerLine} gives. The same wire as {@link koala.api.runner.RunnerClient}.
 * The first hello presents the instance's token from the node's claim; its answer gives the node's
 * key, which every later call presents instead ({@code X-Koala-Node-Key}): the token may be replaced
 * meanwhile, and the answers to keyed calls say which is in force.
 */
class RunnerLine {
    /**
     * A runner answers a beat in milliseconds; one silent this long is counted silent, and a silent runner's
     * launcher asks the scheduler where it serves now ({@link EntityRun}). A beat into a relay whose far end
     * went (the runner's host cut off) hangs until this passes: at 30 s the entities of an instance on a remote
     * site reached the runner started in the old one's place some 50 s after the take-over.
     */
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    static final String NODE_KEY = "X-Koala-Node-Key";

    private volatile URI runner;
    private final String token;
    private volatile String nodeKey;

    RunnerLine(URI runner, String token) {
        this.runner = runner;
        this.token = token;
    }

    URI address() {
        return runner;
    }

    /** From now on, calls go to {@code runner} (a runner started elsewhere in the place of the silent one). */
    void moveTo(URI runner) {
        this.runner = runner;
    }

    private PlainJsonClient http() {
        String key = nodeKey;
        return new PlainJsonClient(runner, TIMEOUT, key != null ? Map.of(NODE_KEY, key)
                : Map.of("Authorization", "Bearer " + token));
    }

    Orders hello(String node, Hello hello) {
        Map<String, Object> f = http().call("POST", "/nodes/" + node + "/hello", fields(hello));
        Orders orders = new Orders(number(f, "heartbeatMillis"), number(f, "runnerGoneMillis"),
                (String) f.get("nodeKey"), token(f));
        if (orders.nodeKey() != null) {
            nodeKey = orders.nodeKey();
        }
        return orders;
    }

    HeartbeatReply heartbeat(String node, double cpuPercent) {
        Map<String, Object> f = http().call("POST", "/nodes/" + node + "/heartbeat", Map.of("cpuPercent", cpuPercent));
        return new HeartbeatReply((String) f.get("action"), number(f, "heartbeatMillis"), token(f));
    }

    /** Reports the entity's exit; the runner answers STOP (give the node back) or RESTART (start the command again here). */
    HeartbeatReply exited(String node, int status) {
        Map<String, Object> f = http().call("POST", "/nodes/" + node + "/exit", Map.of("status", status));
        return new HeartbeatReply(f == null ? HeartbeatReply.STOP : (String) f.get("action"), number(f == null ? Map.of() : f,
                "heartbeatMillis"), f == null ? null : token(f));
    }

    private static String token(Map<String, Object> fields) {
        return fields.get("token") instanceof String token ? token : null;
    }

    static Map<String, Object> fields(Hello hello) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("site", hello.site());
        fields.put("host", hello.host());
        fields.put("port", hello.port());
        fields.put("pid", hello.pid());
        fields.put("startup", hello.startup() == null ? null : fields(hello.startup()));
        return fields;
    }

    private static Map<String, Object> fields(Startup s) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("launcherStarted", s.launcherStarted());
        fields.put("launcherMain", s.launcherMain());
        fields.put("arrived", s.arrived());
        fields.put("told", s.told());
        fields.put("entityStarted", s.entityStarted());
        fields.put("reportedAt", s.reportedAt());
        return fields;
    }

    private static long number(Map<String, Object> fields, String name) {
        Object value = fields.get(name);
        return value instanceof Number n ? n.longValue() : 0;
    }
}
