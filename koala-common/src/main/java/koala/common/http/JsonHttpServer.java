package koala.common.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import koala.common.json.Json;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * A small JSON-over-HTTP server on the JDK's built-in HTTP server. Routes are a method and a path
 * pattern whose {@code {name}} segments become path parameters. A handler that throws
 * {@link ApiException} answers with that status and reason; anything else is a 500 that is logged
 * and never takes the process down.
 */
public final class JsonHttpServer implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(JsonHttpServer.class);

    /** Handles one request. */
    @FunctionalInterface
    public interface Handler {
        Response handle(Request request);
    }

    private record Route(String method, String[] segments, Handler handler) {
    }

    private final List<Route> routes = new ArrayList<>();
    private final java.util.concurrent.atomic.AtomicLong requests = new java.util.concurrent.atomic.AtomicLong();
    private final HttpServer server;
    private final ExecutorService executor;

    public JsonHttpServer(InetSocketAddress address, int threads) throws IOException {
        server = HttpServer.create(address, 64);
        executor = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "http-" + address.getPort());
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::dispatch);
    }

    public JsonHttpServer route(String method, String pattern, Handler handler) {
        routes.add(new Route(method, split(pattern), handler));
        return this;
    }

    public void start() {
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Requests received so far: a process can tell from it that nobody calls it any more. */
    public long requestsSeen() {
        return requests.get();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void dispatch(HttpExchange exchange) throws IOException {
        requests.incrementAndGet();
        Response response;
        try {
            response = answer(exchange);
        } catch (ApiException e) {
            response = new Response(e.status(), e.toError());
        } catch (RuntimeException e) {
            LOG.error("{} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
            response = new Response(500, new ApiError("internal error: " + e, null));
        }
        send(exchange, response);
    }

    private Response answer(HttpExchange exchange) throws IOException {
        URI uri = exchange.getRequestURI();
        String[] path = split(uri.getPath());
        boolean pathKnown = false;
        for (Route route : routes) {
            Map<String, String> params = match(route.segments(), path);
            if (params == null) {
                continue;
            }
            pathKnown = true;
            if (route.method().equals(exchange.getRequestMethod())) {
                byte[] body;
                try (InputStream in = exchange.getRequestBody()) {
                    body = in.readAllBytes();
                }
                return route.handler().handle(new Request(exchange.getRequestMethod(), uri.getPath(), params,
                        query(uri.getRawQuery()), body, headers(exchange)));
            }
        }
        if (pathKnown) {
            throw new ApiException(405, exchange.getRequestMethod() + " is not allowed on " + uri.getPath());
        }
        throw new ApiException(404, "no such resource: " + uri.getPath());
    }

    private static void send(HttpExchange exchange, Response response) throws IOException {
        byte[] bytes = response.body() == null ? new byte[0]
                : Json.write(response.body()).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(response.status(), bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static Map<String, String> headers(HttpExchange exchange) {
        Map<String, String> headers = new HashMap<>();
        exchange.getRequestHeaders().forEach((name, values) -> {
            if (!values.isEmpty()) {
                headers.put(name.toLowerCase(java.util.Locale.ROOT), values.get(0));
            }
        });
        return headers;
    }

    private static String[] split(String path) {
        String trimmed = path.replaceAll("^/+|/+$", "");
        return trimmed.isEmpty() ? new String[0] : trimmed.split("/+");
    }

    private static Map<String, String> match(String[] pattern, String[] path) {
        if (pattern.length != path.length) {
            return null;
        }
        Map<String, String> params = new HashMap<>();
        for (int i = 0; i < pattern.length; i++) {
            if (pattern[i].startsWith("{") && pattern[i].endsWith("}")) {
                params.put(pattern[i].substring(1, pattern[i].length() - 1), decode(path[i]));
            } else if (!pattern[i].equals(path[i])) {
                return null;
            }
        }
        return params;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            query.put(decode(eq < 0 ? pair : pair.substring(0, eq)), eq < 0 ? "" : decode(pair.substring(eq + 1)));
        }
        return query;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
