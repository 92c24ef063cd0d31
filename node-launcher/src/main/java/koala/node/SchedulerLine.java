package koala.node;

import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import koala.api.scheduler.NodeReport;
import koala.api.scheduler.NodeTask;
import koala.http.PlainJsonClient;

/**
 * The launcher's calls to the scheduler ({@code /nodes/{id}/...}), spoken with {@link PlainJsonClient}:
 * they are on the path of every grow, and a JVM that has just started pays hundreds of milliseconds
 * for Jackson before its first request. The same wire as {@link koala.api.scheduler.SchedulerClient}.
 */
class SchedulerLine {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final PlainJsonClient http;

    SchedulerLine(URI scheduler) {
        this.http = new PlainJsonClient(scheduler, TIMEOUT, Map.of());
    }

    NodeTask arrive(String node, NodeReport report) {
        return task(http.call("POST", "/nodes/" + node + "/arrive", fields(report)));
    }

    NodeTask task(String node, String token, Duration wait) {
        return task(http.call("GET", "/nodes/" + node + "/task?token=" + token + "&waitMs=" + wait.toMillis(), null, wait));
    }

    NodeTask exited(String node, NodeReport report) {
        return task(http.call("POST", "/nodes/" + node + "/exit", fields(report)));
    }

    static Map<String, Object> fields(NodeReport report) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("token", report.token());
        fields.put("host", report.host());
        fields.put("exitStatus", report.exitStatus());
        if (report.detail() != null) {
            fields.put("detail", report.detail());
        }
        return fields;
    }

    @SuppressWarnings("unchecked")
    static NodeTask task(Map<String, Object> f) {
        return new NodeTask((String) f.get("action"), (String) f.get("executable"), (List<String>) f.get("arguments"),
                (Map<String, String>) f.get("environment"), (String) f.get("directory"), (String) f.get("stdout"),
                (String) f.get("stderr"), f.get("maxWallSeconds") instanceof Number n ? n.longValue() : null,
                (List<String>) f.get("mpiHosts"), apps(f.get("mpiApps")));
    }

    @SuppressWarnings("unchecked")
    private static List<NodeTask.MpiApp> apps(Object field) {
        if (!(field instanceof List<?> list)) {
            return null;
        }
        return list.stream().map(a -> (Map<String, Object>) a).map(a -> new NodeTask.MpiApp(
                ((Number) a.get("ranks")).intValue(), (String) a.get("executable"), (List<String>) a.get("arguments")))
                .toList();
    }
}
