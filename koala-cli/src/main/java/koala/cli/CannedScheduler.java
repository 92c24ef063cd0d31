package koala.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import koala.api.scheduler.JobView;
import koala.api.scheduler.NodeView;
import koala.api.scheduler.SiteStatus;
import koala.api.scheduler.SubmitRequest;
import koala.api.scheduler.TransitionView;
import koala.common.json.Json;
import koala.http.ApiError;

/**
 * A stand-in for the scheduler's API as the user commands call it, answering at once with made-up
 * jobs and sites, on a free loopback port: for the training run of the command line's class-data
 * archive ({@link CliTraining}) and for the commands' tests. A submitted job is QUEUED with the next
 * id; a file named in {@link #refuse} is refused with a 400, as the scheduler refuses a bad job.
 */
final class CannedScheduler implements AutoCloseable {
    private static final Instant AT = Instant.parse("2025-01-01T12:00:00Z");

    private final HttpServer server;
    private final AtomicLong ids = new AtomicLong();
    private final List<SubmitRequest> submitted = new ArrayList<>();
    private final Map<String, String> refusals = new ConcurrentHashMap<>();
    private final Set<Long> forgotten = ConcurrentHashMap.newKeySet();
    private final List<Long> cancelled = new ArrayList<>();

    private CannedScheduler(HttpServer server) {
        this.server = server;
    }

    static CannedScheduler start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        CannedScheduler canned = new CannedScheduler(server);
        server.createContext("/", canned::handle);
        server.start();
        return canned;
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Submissions of {@code file} are refused with this reason. */
    void refuse(String file, String reason) {
        refusals.put(file, reason);
    }

    /** Job {@code id} is not known: asked for or cancelled, it is a 404, as the scheduler answers. */
    void forget(long id) {
        forgotten.add(id);
    }

    /** The jobs cancelled, in order. */
    synchronized List<Long> cancelled() {
        return List.copyOf(cancelled);
    }

    /** What was submitted, in order. */
    synchronized List<SubmitRequest> submitted() {
        return List.copyOf(submitted);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String route = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
            if (route.equals("POST /jobs")) {
                submit(exchange, Json.mapper().readValue(exchange.getRequestBody(), SubmitRequest.class));
            } else if (route.equals("GET /jobs")) {
                reply(exchange, 200, List.of(job(1, "QUEUED"), job(2, "RUNNING")));
            } else if (route.matches("(GET|DELETE) /jobs/\\d+") && forgotten.contains(id(route))) {
                reply(exchange, 404, new ApiError("job " + id(route) + " not found", null));
            } else if (route.matches("GET /jobs/\\d+")) {
                reply(exchange, 200, job(id(route), "RUNNING"));
            } else if (route.matches("DELETE /jobs/\\d+")) {
                synchronized (this) {
                    cancelled.add(id(route));
                }
                reply(exchange, 200, job(id(route), "CANCELLED"));
            } else if (route.equals("GET /sites")) {
                reply(exchange, 200, List.of(new SiteStatus("fs0", 16, 12, 2, 1, 1, "UP", null, AT,
                                new koala.api.scheduler.SiteResources(16, 16, 12, 131072L, 98304L, 0, 0)),
                        new SiteStatus("fs1", 8, 0, 0, 0, 0, "DOWN", "no answer from its agent", AT)));
            } else {
                reply(exchange, 404, new ApiError(route + " not found", null));
            }
        }
    }

    private void submit(HttpExchange exchange, SubmitRequest request) throws IOException {
        String refusal = refusals.get(request.file());
        if (refusal != null) {
            reply(exchange, 400, new ApiError(refusal, null));
            return;
        }
        synchronized (this) {
            submitted.add(request);
        }
        reply(exchange, 201, job(ids.incrementAndGet(), "QUEUED"));
    }

    private static long id(String route) {
        return Long.parseLong(route.substring(route.lastIndexOf('/') + 1));
    }

    private static JobView job(long id, String state) {
        boolean placed = !state.equals("QUEUED");
        return new JobView(id, "job-" + id, "alice", "NON_FIXED", state, "worst-fit", "LOW", 1, 0,
                placed ? null : "component 0 needs 2 nodes, fs0 has 1 idle", AT,
                placed ? List.of(new NodeView(id + ".0.0", 0, 0, "fs0", "RUNNING", "17", "fs0-n1", null, null)) : List.of(),
                List.of(new TransitionView(AT, "NEW", "QUEUED", "SUBMIT", null)));
    }

    private static void reply(HttpExchange exchange, int status, Object body) throws IOException {
        byte[] bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
