package koala.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import koala.common.json.Json;

/**
 * Debian's Chromium, headless, driven over the DevTools protocol (a WebSocket to the page, from the
 * JDK's own client): load a page, run script in it, read what it shows, take a screenshot, and see
 * every request it made and every script error or policy violation it logged. For tests of the
 * scheduler's live page; {@link #find()} is empty where no Chromium is installed.
 */
public final class HeadlessChromium implements AutoCloseable {
    private static final Duration COMMAND = Duration.ofSeconds(15);

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<String> problems = new CopyOnWriteArrayList<>();

    private HeadlessChromium(Process process, URI page) throws IOException {
        this.process = process;
        try {
            this.socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(COMMAND)
                    .buildAsync(page, new Listener()).get(COMMAND.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted connecting to " + page, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("cannot reach Chromium's DevTools at " + page + ": " + e, e);
        }
        send("Page.enable", Map.of());
        send("Runtime.enable", Map.of());
        send("Log.enable", Map.of());
        send("Network.enable", Map.of());
        send("Emulation.setDeviceMetricsOverride", Map.of("width", 1280, "height", 900, "deviceScaleFactor", 1,
                "mobile", false));
    }

    /** Debian's {@code chromium} (or a {@code chromium-browser}) on this machine, if there is one. */
    public static Optional<Path> find() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            for (String name : List.of("chromium", "chromium-browser")) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Starts {@code chromium} headless with a fresh profile in {@code profile} (its log there too),
     * its DevTools on a loopback port of its choosing, and attaches to its one tab.
     */
    public static HeadlessChromium start(Path chromium, Path profile) throws IOException {
        Files.createDirectories(profile);
        Process process = new ProcessBuilder(chromium.toString(), "--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-default-apps", "--no-proxy-server", "--mute-audio", "--hide-scrollbars",
                "--window-size=1280,900", "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                "--user-data-dir=" + profile, "about:blank")
                .redirectErrorStream(true).redirectOutput(profile.resolve("chromium.log").toFile()).start();
        try {
            return new HeadlessChromium(process, page(process, profile.resolve("DevToolsActivePort")));
        } catch (IOException | RuntimeException e) {
            stop(process);
            throw e;
        }
    }

    /** The WebSocket of the browser's tab, once it has written the port it listens on. */
    private static URI page(Process process, Path portFile) throws IOException {
        Instant deadline = Instant.now().plusSeconds(20);
        while (!Files.exists(portFile) || Files.readAllLines(portFile).size() < 2) {
            if (!process.isAlive() || Instant.now().isAfter(deadline)) {
                throw new IOException("Chromium did not open its DevTools port (alive: " + process.isAlive()
                        + "); see " + portFile.resolveSibling("chromium.log"));
            }
            pause(Duration.ofMillis(50));
        }
        int port = Integer.parseInt(Files.readAllLines(portFile).get(0).strip());
        try {
            HttpResponse<String> list = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/json/list")).timeout(COMMAND).build(),
                    HttpResponse.BodyHandlers.ofString());
            for (JsonNode target : Json.mapper().readTree(list.body())) {
                if (target.path("type").asText().equals("page")) {
                    return URI.create(target.path("webSocketDebuggerUrl").asText());
                }
            }
            throw new IOException("Chromium has no page open: " + list.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** Loads {@code url} in the tab and waits until its document is complete. */
    public void load(String url) {
        send("Page.navigate", Map.of("url", url));
        await("document.readyState === 'complete' && location.href === new URL(" + Json.write(url) + ").href",
                JsonNode::asBoolean, Duration.ofSeconds(10));
    }

    /** The value of {@code expression} (a promise's, awaited) in the page, as JSON. */
    public JsonNode evaluate(String expression) {
        JsonNode result = send("Runtime.evaluate", Map.of("expression", expression, "returnByValue", true,
                "awaitPromise", true));
        if (result.has("exceptionDetails")) {
            throw new IllegalStateException(expression + " threw: " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value");
    }

    /** The value of {@code expression} once {@code until} holds of it, evaluated every 100 ms for at most {@code within}. */
    public JsonNode await(String expression, Predicate<JsonNode> until, Duration within) {
        Instant deadline = Instant.now().plus(within);
        JsonNode value = evaluate(expression);
        while (!until.test(value)) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("after " + within + ", " + expression + " is still " + value);
            }
            pause(Duration.ofMillis(100));
            value = evaluate(expression);
        }
        return value;
    }

    /** The whole page as a PNG, at 1280 pixels wide. */
    public byte[] screenshot() {
        JsonNode size = send("Page.getLayoutMetrics", Map.of()).path("cssContentSize");
        JsonNode shot = send("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true,
                "clip", Map.of("x", 0, "y", 0, "width", size.path("width").asDouble(1280),
                        "height", size.path("height").asDouble(900), "scale", 1)));
        return Base64.getDecoder().decode(shot.path("data").asText());
    }

    /** Every request the page made so far, as {@code METHOD URL}. */
    public List<String> requests() {
        return List.copyOf(requests);
    }

    /**
     * Every uncaught script error and every message the browser logged, as {@code SOURCE LEVEL: TEXT}
     * ({@code network error: ... 401} for a refused call, {@code security error: ...} for a policy
     * violation, {@code javascript exception: ...} for a script's error).
     */
    public List<String> logged() {
        return List.copyOf(problems);
    }

    private JsonNode send(String method, Map<String, Object> params) {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        pending.put(id, answer);
        ObjectNode message = Json.mapper().createObjectNode().put("id", id).put("method", method);
        message.set("params", Json.mapper().valueToTree(params));
        try {
            socket.sendText(message.toString(), true).get(COMMAND.toSeconds(), TimeUnit.SECONDS);
            JsonNode reply = answer.get(COMMAND.toSeconds(), TimeUnit.SECONDS);
            if (reply.has("error")) {
                throw new IllegalStateException(method + " failed: " + reply.get("error"));
            }
            return reply.path("result");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(method + ": no answer from Chromium: " + e, e);
        } finally {
            pending.remove(id);
        }
    }

    private void received(JsonNode message) {
        if (message.has("id")) {
            CompletableFuture<JsonNode> answer = pending.get(message.get("id").asInt());
            if (answer != null) {
                answer.complete(message);
            }
            return;
        }
        JsonNode p = message.path("params");
        switch (message.path("method").asText()) {
            case "Network.requestWillBeSent" -> requests.add(p.path("request").path("method").asText() + " "
                    + p.path("request").path("url").asText());
            case "Log.entryAdded" -> problems.add(p.path("entry").path("source").asText() + " "
                    + p.path("entry").path("level").asText() + ": " + p.path("entry").path("text").asText());
            case "Runtime.exceptionThrown" -> problems.add("javascript exception: "
                    + p.path("exceptionDetails").path("exception").path("description").asText(
                    p.path("exceptionDetails").path("text").asText()));
            case "Runtime.consoleAPICalled" -> {
                if (p.path("type").asText().equals("error")) {
                    problems.add("console error: " + p.path("args"));
                }
            }
            default -> { }
        }
    }

    /** Reassembles the frames of each message and hands it on. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder partial = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                try {
                    received(Json.mapper().readTree(text));
                } catch (IOException e) {
                    problems.add("devtools unreadable: " + e.getMessage());
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            pending.values().forEach(f -> f.completeExceptionally(error));
        }
    }

    @Override
    public void close() {
        socket.abort();
        stop(process);
    }

    /** Ends the browser and every process it started (its renderers, its crash handler). */
    private static void stop(Process process) {
        List<ProcessHandle> children = new ArrayList<>(process.descendants().toList());
        process.destroy();
        children.forEach(ProcessHandle::destroy);
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    private static void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
