package koala.http;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The route table and the order a request goes through it: the endpoint's guard, the route
 * (404 for an unknown path, 405 for a known path with another method), the route's guard, and
 * only then the body and the handler. No HTTP engine here: {@link JettyBridge} feeds it.
 */
final class Routes {
    private record Route(String method, String[] segments, Guard guard, JsonHttpServer.Handler handler) {
    }

    private record Match(Route route, Map<String, String> params) {
    }

    private final List<Route> routes = new CopyOnWriteArrayList<>();
    private final Map<String, Guard> endpointGuards = new ConcurrentHashMap<>();
    /** What answers a request no route matches, if anything does: a standby's relay to its leader. */
    private volatile JsonHttpServer.Handler otherwise;

    void add(String method, String pattern, Guard guard, JsonHttpServer.Handler handler) {
        routes.add(new Route(method, segments(pattern), guard, handler));
    }

    /** {@code handler} answers, with its body read, every request that passed its endpoint's guard and no route matches. */
    void otherwise(JsonHttpServer.Handler handler) {
        this.otherwise = handler;
    }

    /** Every request through {@code endpoint} must pass {@code guard} too (after any guard set before). */
    void guard(String endpoint, Guard guard) {
        endpointGuards.merge(endpoint, guard, Guard::and);
    }

    /**
     * Answers a request whose body is still unread: {@code body} reads it, and is called only
     * once every guard has passed. Routes match {@code rawPath}, the path as sent, so that an
     * encoded slash stays inside its segment. Refusals are thrown as {@link ApiException}.
     */
    Response answer(Request head, String rawPath, Supplier<byte[]> body) {
        endpointGuards.getOrDefault(head.endpoint(), Guard.OPEN).check(head);
        JsonHttpServer.Handler fallback = otherwise;
        Match match;
        try {
            match = match(head, segments(rawPath));
        } catch (ApiException e) {
            if (fallback == null || (e.status() != 404 && e.status() != 405)) {
                throw e;
            }
            return fallback.handle(head.withBody(body.get()));
        }
        Request withParams = head.withPathParams(match.params());
        match.route().guard().check(withParams);
        return match.route().handler().handle(withParams.withBody(body.get()));
    }

    private Match match(Request head, String[] path) {
        boolean pathKnown = false;
        for (Route route : routes) {
            Map<String, String> params = match(route.segments(), path);
            if (params == null) {
                continue;
            }
            pathKnown = true;
            if (route.method().equals(head.method())) {
                return new Match(route, params);
            }
        }
        if (pathKnown) {
            throw new ApiException(405, head.method() + " is not allowed on " + head.path());
        }
        throw new ApiException(404, "no such resource: " + head.path());
    }

    /** The segments of a (percent-encoded) path, each decoded: {@code /nodes/a%2Fb} is {@code [nodes, a/b]}. */
    static String[] segments(String rawPath) {
        String trimmed = rawPath.replaceAll("^/+|/+$", "");
        if (trimmed.isEmpty()) {
            return new String[0];
        }
        String[] parts = trimmed.split("/+");
        for (int i = 0; i < parts.length; i++) {
            parts[i] = JettyBridge.decode(parts[i].replace("+", "%2B"));
        }
        return parts;
    }

    private static Map<String, String> match(String[] pattern, String[] path) {
        if (pattern.length != path.length) {
            return null;
        }
        Map<String, String> params = new HashMap<>();
        for (int i = 0; i < pattern.length; i++) {
            if (pattern[i].startsWith("{") && pattern[i].endsWith("}")) {
                params.put(pattern[i].substring(1, pattern[i].length() - 1), path[i]);
            } else if (!pattern[i].equals(path[i])) {
                return null;
            }
        }
        return params;
    }
}
