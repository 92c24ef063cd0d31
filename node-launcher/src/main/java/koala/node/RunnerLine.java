package koala.node;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import koala.common.http.PlainJsonClient;
import koala.common.runner.RunnerMessages.HeartbeatReply;
import koala.common.runner.RunnerMessages.Hello;
import koala.common.runner.RunnerMessages.Orders;
import koala.common.runner.RunnerMessages.Startup;

/**
 * The launcher's calls to its runner ({@code /nodes/{id}/...} with the instance's token), spoken with
 * {@link PlainJsonClient} for the reason {@link SchedulerLine} gives. The same wire as
 * {@link koala.common.runner.RunnerClient}.
 */
class RunnerLine {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final PlainJsonClient http;

    RunnerLine(URI runner, String token) {
        this.http = new PlainJsonClient(runner, TIMEOUT, Map.of("Authorization", "Bearer " + token));
    }

    Orders hello(String node, Hello hello) {
        Map<String, Object> f = http.call("POST", "/nodes/" + node + "/hello", fields(hello));
        return new Orders(number(f, "heartbeatMillis"), number(f, "runnerGoneMillis"));
    }

    HeartbeatReply heartbeat(String node, double cpuPercent) {
        Map<String, Object> f = http.call("POST", "/nodes/" + node + "/heartbeat", Map.of("cpuPercent", cpuPercent));
        return new HeartbeatReply((String) f.get("action"), number(f, "heartbeatMillis"));
    }

    /** Reports the entity's exit; the runner answers STOP (give the node back) or RESTART (start the command again here). */
    HeartbeatReply exited(String node, int status) {
        Map<String, Object> f = http.call("POST", "/nodes/" + node + "/exit", Map.of("status", status));
        return new HeartbeatReply(f == null ? HeartbeatReply.STOP : (String) f.get("action"), number(f == null ? Map.of() : f,
                "heartbeatMillis"));
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
