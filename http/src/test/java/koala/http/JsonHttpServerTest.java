package koala.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class JsonHttpServerTest {
    record Grow(int nodes, String role, List<String> sites) {
    }

    record Component(String site, int count) {
    }

    record Job(List<Component> components) {
    }

    private JsonHttpServer server;
    private JsonHttpClient client;

    @BeforeEach
    void start() throws Exception {
        server = new JsonHttpServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 2);
        server.route("POST", "/grow", r -> Response.created(r.body(Grow.class)))
                .route("POST", "/jobs", r -> Response.created(r.body(Job.class)))
                .route("GET", "/nodes/{id}", r -> Response.ok(Map.of("id", r.param("id"))))
                .route("GET", "/text", r -> Response.raw("text/plain; version=0.0.4; charset=utf-8",
                        "koala_up 1.0\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)))
                .route("GET", "/page", r -> Response.raw("text/html; charset=utf-8",
                        "<p>hello</p>".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        Map.of("Content-Security-Policy", "default-src 'none'", "X-Frame-Options", "DENY")))
                .route("GET", "/boom", r -> {
                    throw new IllegalStateException("bug");
                })
                .route("GET", "/fail/{kind}", r -> {
                    throw failure(r.param("kind"));
                });
        server.start();
        client = new JsonHttpClient(URI.create("http://127.0.0.1:" + server.port()), Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aRequestNoRouteMatchesGoesToTheFallbackWithItsBodyAndStatus() throws Exception {
        server.otherwise(r -> new Response(409, new RawBody("application/json",
                ("{\"error\":\"" + r.method() + " " + r.path() + " " + new String(r.body(),
                        java.nio.charset.StandardCharsets.UTF_8).length() + " bytes\"}").getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        assertThatThrownBy(() -> client.post("/elsewhere/7", new Grow(3, "worker", List.of("fs0")), Map.class))
                .isInstanceOf(ApiException.class).hasMessage("POST /elsewhere/7 43 bytes")
                .extracting(e -> ((ApiException) e).status()).isEqualTo(409);
        assertThatThrownBy(() -> client.delete("/grow", Map.class)).hasMessage("DELETE /grow 0 bytes");
        assertThat(client.get("/nodes/fs0-17", Map.class)).as("a route that matches still answers").isEqualTo(Map.of("id", "fs0-17"));
    }

    @Test
    void aWellFormedBodyRoundTrips() throws Exception {
        assertThat(client.post("/grow", new Grow(3, "worker", List.of("fs0")), Grow.class))
                .isEqualTo(new Grow(3, "worker", List.of("fs0")));
        assertThat(client.get("/nodes/fs0-17", Map.class)).isEqualTo(Map.of("id", "fs0-17"));
        // path parameters are decoded; extra slashes do not matter
        assertThat(client.get("/nodes/fs0%2D%C3%A9", Map.class)).isEqualTo(Map.of("id", "fs0-\u00e9"));
        try (RawHttp raw = new RawHttp(server.port())) { // (java.net.URI reads "//nodes" as a host)
            assertThat(RawHttp.body(raw.send("GET //nodes//fs0-17/ HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
                    .untilClosed())).isEqualTo("{\"id\":\"fs0-17\"}");
        }
    }

    private static koala.common.failure.Failure failure(String kind) {
        return switch (kind) {
            case "invalid" -> new koala.common.failure.InvalidField("nodes", "0: ask for at least 1 node");
            case "missing" -> new koala.common.failure.NotFound("job 7");
            case "busy" -> new koala.common.failure.Unavailable("the scheduler is busy; try again");
            case "state" -> new koala.common.failure.Conflict("node fs0-3 is not a node of allocation 7", "nodes");
            case "theirs" -> new koala.common.failure.Forbidden("bob may not cancel job 7 (owned by alice)");
            case "cap" -> new koala.common.failure.OverLimit("bob has 3 jobs queued");
            default -> new koala.common.failure.Refused("pilot submission refused by SGE: no queue");
        };
    }

    /** The plain-JSON call a quick command makes reads what Jackson writes, failures included. */
    /** A raw body goes out as it is, under its own content type: what a metrics scrape answers. */
    @Test
    void aRawBodyIsWrittenAsItIsUnderItsOwnContentType() throws Exception {
        java.net.http.HttpResponse<String> answer = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/text")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(answer.body()).isEqualTo("koala_up 1.0\n");
    }

    /** A page goes out with the headers it names; every answer, JSON or not, tells browsers not to guess its type. */
    @Test
    void aRawBodyCarriesItsOwnHeadersAndNoAnswerIsSniffed() throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.http.HttpResponse<String> page = http.send(java.net.http.HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/page")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(page.headers().firstValue("Content-Type")).hasValue("text/html; charset=utf-8");
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue("default-src 'none'");
        assertThat(page.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        assertThat(page.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(page.body()).isEqualTo("<p>hello</p>");

        java.net.http.HttpResponse<String> json = http.send(java.net.http.HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/nodes/fs0-1")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(json.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(json.headers().firstValue("Content-Security-Policy")).isEmpty();
        java.net.http.HttpResponse<String> missing = http.send(java.net.http.HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + "/nowhere")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(missing.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    }

    @Test
    void aPlainCallReadsWhatTheServerWrites() {
        assertThat(client.plain("POST", "/grow", Map.of("nodes", 3, "role", "worker", "sites", List.of("fs0"))))
                .isEqualTo(Map.of("nodes", 3L, "role", "worker", "sites", List.of("fs0")));
        assertThatThrownBy(() -> client.plain("GET", "/fail/invalid", null))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.field()).isEqualTo("nodes");
                    assertThat(e.getMessage()).isEqualTo("nodes: 0: ask for at least 1 node");
                });
    }

    @Test
    void domainFailuresAnswerWithTheirStatusAndTheUsualErrorBody() throws Exception {
        assertFails("invalid", 400, "nodes", "nodes: 0: ask for at least 1 node");
        assertFails("missing", 404, null, "job 7 not found");
        assertFails("busy", 503, null, "the scheduler is busy; try again");
        assertFails("state", 409, "nodes", "node fs0-3 is not a node of allocation 7");
        assertFails("theirs", 403, null, "bob may not cancel job 7 (owned by alice)");
        assertFails("cap", 429, null, "bob has 3 jobs queued");
        assertFails("sge", 422, null, "pilot submission refused by SGE: no queue");
        try (RawHttp raw = new RawHttp(server.port())) {
            assertThat(RawHttp.body(raw.send("GET /fail/invalid HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
                    .untilClosed())).isEqualTo("{\"error\":\"nodes: 0: ask for at least 1 node\",\"field\":\"nodes\"}");
        }
    }

    private void assertFails(String kind, int status, String field, String message) {
        assertThatThrownBy(() -> client.get("/fail/" + kind, Map.class)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(status);
            assertThat(e.field()).isEqualTo(field);
            assertThat(e.getMessage()).isEqualTo(message);
            assertThat(e.transientFailure()).isEqualTo(status == 503);
            assertThat(e.unreached()).isFalse();
        });
    }

    @Test
    void aServerNobodyListensOnIsUnreachedAndTransient() {
        int port = server.port();
        server.close();
        assertThatThrownBy(() -> client.get("/nodes/x", Map.class)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(503);
            assertThat(e.unreached()).isTrue();
            assertThat(e.transientFailure()).isTrue();
            assertThat(e.getMessage()).startsWith("cannot reach http://127.0.0.1:" + port);
        });
    }

    @Test
    void malformedBodiesAre400sNamingTheField() {
        assertRefused(Map.of("nodes", "three", "role", "worker"), 400, "nodes",
                "nodes: expected a whole number, got the string \"three\"");
        assertRefused(Map.of("nodes", 3, "role", "worker", "colour", "red"), 400, "colour", "colour: unknown field");
        assertRefused(Map.of("nodes", 3, "sites", "fs0"), 400, "sites", "sites: expected a list, got the string \"fs0\"");
        assertRefused("{\"nodes\": 3,", 400, null, null);
        assertRefused("", 400, null, "request body is empty; expected a JSON object");
    }

    @Test
    void numbersAreNotCoercedIntoWholeNumbers() {
        assertRefused(Map.of("nodes", 1.5), 400, "nodes", "nodes: expected a whole number, got 1.5");
        assertRefused(Map.of("nodes", "2"), 400, "nodes", "nodes: expected a whole number, got the string \"2\"");
        assertRefused(Map.of("nodes", true), 400, "nodes", "nodes: expected a whole number, got true");
        assertRefused(Map.of("nodes", 2.0), 400, "nodes", "nodes: expected a whole number, got 2.0");
        // the field is named by its whole path
        assertThatThrownBy(() -> client.post("/jobs", Map.of("components", List.of(Map.of("site", "fs0", "count", 1),
                Map.of("site", "fs1", "count", "2"))), Job.class)).isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.field()).isEqualTo("components[1].count");
                    assertThat(e.getMessage()).isEqualTo("components[1].count: expected a whole number, got the string \"2\"");
                });
    }

    @Test
    void whatJettyRefusesItselfIsJsonToo() {
        // an encoded slash inside a segment is ambiguous; Jetty refuses it before any route
        assertThatThrownBy(() -> client.get("/nodes/a%2Fb", Map.class)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(400);
            assertThat(e.getMessage()).isEqualTo("HTTP 400: Ambiguous URI path separator");
        });
    }

    @Test
    void theServerStartsNoThreadThatKeepsTheProcessAlive() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        try (JsonHttpServer another = new JsonHttpServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4)) {
            another.route("GET", "/ping", r -> Response.ok(Map.of()));
            another.start();
            new JsonHttpClient(URI.create("http://127.0.0.1:" + another.port()), Duration.ofSeconds(5)).get("/ping", Map.class);
            List<String> started = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> !before.contains(t) && t.getName().startsWith("http-")).map(Thread::getName).toList();
            assertThat(started).isNotEmpty();
            assertThat(Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> !before.contains(t) && !t.isDaemon()).map(Thread::getName)).isEmpty();
        }
    }

    @Test
    void unknownPathsMethodsAndHandlerBugsGetTheirOwnStatus() {
        assertStatus(() -> client.get("/nope", Map.class), 404);
        assertStatus(() -> client.delete("/grow", Map.class), 405);
        assertStatus(() -> client.get("/boom", Map.class), 500);
        // the server survives a handler's bug
        assertThat(client.get("/nodes/1", Map.class)).isEqualTo(Map.of("id", "1"));
    }

    @Test
    void anUnreachableServerIsA503SayingWhere() {
        server.close();
        assertThatThrownBy(() -> client.get("/nodes/1", Map.class)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status()).isEqualTo(503);
            assertThat(e.getMessage()).startsWith("cannot reach http://127.0.0.1:");
        });
    }

    private void assertRefused(Object body, int status, String field, String message) {
        assertThatThrownBy(() -> client.post("/grow", body instanceof String s ? new RawJson(s) : body, Grow.class))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(status);
                    assertThat(e.field()).isEqualTo(field);
                    if (message != null) {
                        assertThat(e.getMessage()).isEqualTo(message);
                    }
                });
    }

    private static void assertStatus(Runnable call, int status) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(status));
    }

    /** A body sent as it is, to send broken JSON. */
    record RawJson(@com.fasterxml.jackson.annotation.JsonValue @com.fasterxml.jackson.annotation.JsonRawValue String json) {
    }
}
