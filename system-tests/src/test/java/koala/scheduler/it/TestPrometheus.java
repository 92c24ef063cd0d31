package koala.scheduler.it;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import koala.common.json.Json;
import koala.common.time.Poll;

/**
 * A Prometheus server of the tests' own: Debian's {@code prometheus} (installed when missing; its
 * service is not started, as none is here), run on a free loopback port with a configuration the
 * test gives and a storage directory of its own, and queried through its HTTP API.
 */
final class TestPrometheus implements AutoCloseable {
    private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");

    private final Path dir;
    private final int port;
    private final Process process;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private TestPrometheus(Path dir, int port, Process process) {
        this.dir = dir;
        this.port = port;
        this.process = process;
    }

    /** Starts Prometheus with {@code config} (its YAML), ready to be queried. */
    static TestPrometheus start(String config) throws IOException, InterruptedException {
        installIfMissing();
        Path dir = Files.createTempDirectory("koala-prometheus-");
        Files.writeString(dir.resolve("prometheus.yml"), config);
        int port = TestScheduler.freePort();
        Process process = new ProcessBuilder(PROMETHEUS.toString(),
                "--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port).redirectErrorStream(true)
                .redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        TestPrometheus prometheus = new TestPrometheus(dir, port, process);
        if (!Poll.system().until(prometheus::ready, Duration.ofSeconds(30))) {
            prometheus.close();
            throw new IllegalStateException("Prometheus was not ready on " + port + " within 30 s; see "
                    + dir.resolve("prometheus.log"));
        }
        return prometheus;
    }

    /** Debian's prometheus, as {@link TestSshd} installs openssh-server: apt-get, only when missing. */
    private static void installIfMissing() throws IOException, InterruptedException {
        if (Files.isExecutable(PROMETHEUS)) {
            return;
        }
        ProcessBuilder apt = new ProcessBuilder("sh", "-c", "(apt-get update -q && apt-get install -y -q "
                + "--no-install-recommends prometheus) > /tmp/koala-prometheus-install.log 2>&1");
        apt.environment().put("DEBIAN_FRONTEND", "noninteractive");
        if (apt.start().waitFor() != 0 || !Files.isExecutable(PROMETHEUS)) {
            throw new IllegalStateException("cannot install prometheus; see /tmp/koala-prometheus-install.log");
        }
    }

    private boolean ready() {
        try {
            return get("/-/ready").statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    /** The series an instant query finds now: {@code data.result} of {@code /api/v1/query}. */
    List<JsonNode> query(String promql) {
        JsonNode answer = api("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        return list(answer.path("data").path("result"));
    }

    /** The series whose samples match {@code selector}, by their labels: {@code /api/v1/series}. */
    List<JsonNode> series(String selector) {
        return list(api("/api/v1/series?match[]=" + URLEncoder.encode(selector, StandardCharsets.UTF_8)).path("data"));
    }

    /** The scrape targets and their health: {@code /api/v1/targets}'s active ones. */
    List<JsonNode> targets() {
        return list(api("/api/v1/targets").path("data").path("activeTargets"));
    }

    private JsonNode api(String path) {
        try {
            HttpResponse<String> r = get(path);
            JsonNode body = Json.mapper().readTree(r.body());
            if (r.statusCode() != 200 || !"success".equals(body.path("status").asText())) {
                throw new IllegalStateException("Prometheus answered " + r.statusCode() + " to " + path + ": " + r.body());
            }
            return body;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private HttpResponse<String> get(String path) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).GET().build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }

    Path dir() {
        return dir;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
