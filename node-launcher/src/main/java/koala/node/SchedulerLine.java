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

    /** Every scheduler that may lead, the one that started the pilot first. */
    private final List<PlainJsonClient> schedulers;
    /** The one called now; the next after a call that did not reach a leader. */
    private int current;

    SchedulerLine(List<URI> schedulers) {
        if (schedulers.isEmpty()) {
            throw new IllegalArgumentException("no scheduler to call");
        }
        List<PlainJsonClient> clients = new java.util.ArrayList<>();
        for (URI u : schedulers) {
            clients.add(new PlainJsonClient(u, TIMEOUT, Map.of()));
        }
        this.schedulers = List.copyOf(clients);
    }

    /** {@code --scheduler URL[,URL...]}: the addresses of the schedulers that share the grid's store. */
    static List<URI> addresses(String option) {
        List<URI> addresses = new java.util.ArrayList<>();
        for (String a : option.split(",")) {
            if (!a.isBlank()) {
                addresses.add(URI.create(a.strip()));
            }
        }
        return List.copyOf(addresses);
    }

    NodeTask arrive(String node, NodeReport report) {
        return task(call("POST", "/nodes/" + node + "/arrive", fields(report), Duration.ZERO));
    }

    NodeTask task(String node, String token, Duration wait) {
        return task(call("GET", "/nodes/" + node + "/task?token=" + token + "&waitMs=" + wait.toMillis(), null, wait));
    }

    NodeTask exited(String node, NodeReport report) {
        return task(call("POST", "/nodes/" + node + "/exit", fields(report), Duration.ZERO));
    }

    /**
     * The call, to the scheduler called now; one that did not reach a leader (nothing listens there,
     * no answer in time, or a standby's 503) moves the line to the next scheduler for the caller's retry.
     * No lambda on the way: the launcher's first call is made while the JDK links its lambda machinery
     * on a thread of its own ({@link NodeLauncher}).
     */
    private Map<String, Object> call(String method, String path, Map<String, ?> body, Duration extra) {
        int at;
        synchronized (this) {
            at = current;
        }
        try {
            return schedulers.get(at).call(method, path, body, extra);
        } catch (koala.http.ApiException e) {
            if (e.transientFailure() && schedulers.size() > 1) {
                synchronized (this) {
                    if (current == at) {
                        current = (at + 1) % schedulers.size();
                    }
                }
            }
            throw e;
        }
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
