package koala.site;

import java.time.Duration;
import java.util.Optional;
import koala.api.site.PilotSpec;
import koala.api.site.PilotState;
import koala.api.site.RelayRequest;
import koala.http.ApiException;
import koala.http.JsonHttpServer;
import koala.http.Request;
import koala.http.Response;

/**
 * The site agent's HTTP/JSON API. Every route needs {@code Authorization: Bearer <secret>}
 * ({@link CallerCheck}); without it, or with a wrong one: 401.
 *
 * <pre>
 * GET    /health          is the cell reachable (UP/DOWN, reason, since)
 * GET    /snapshot        hosts, queue instances, every job in the cell (KOALA's and local users')
 * POST   /pilots          submit a pilot ({@link PilotSpec}); 201 with its status
 * GET    /pilots          the pilots this agent submitted
 * GET    /pilots/{id}     one pilot; ?waitWhile=STATE&amp;timeoutMs=N waits for it to leave STATE
 * DELETE /pilots/{id}     kill a pilot
 * POST   /relays          {target, port}: a relay to loopback port target ({@link Relays#open}); {host, port, target}
 * GET    /relays          the relays this agent runs
 * DELETE /relays/{port}   close the relay on that port ({@link Relays#close}); the relay closed, 404 if none
 * </pre>
 */
final class AgentApi {
    private static final long MAX_WAIT_MS = 120_000;

    private AgentApi() {
    }

    static void register(JsonHttpServer server, CallerCheck check, SiteAgent agent, Optional<Relays> relays) {
        server.route("GET", "/health", check.guard(r -> Response.ok(agent.health())))
                .route("GET", "/snapshot", check.guard(r -> Response.ok(agent.snapshot())))
                .route("POST", "/pilots", check.guard(r -> Response.created(agent.submit(r.body(PilotSpec.class)))))
                .route("GET", "/pilots", check.guard(r -> Response.ok(agent.pilots())))
                .route("GET", "/pilots/{id}", check.guard(r -> Response.ok(status(agent, r))))
                .route("DELETE", "/pilots/{id}", check.guard(r -> Response.ok(agent.kill(r.param("id")))))
                .route("POST", "/relays", check.guard(r -> Response.ok(open(relays(relays), r.body(RelayRequest.class)))))
                .route("GET", "/relays", check.guard(r -> Response.ok(relays(relays).all())))
                .route("DELETE", "/relays/{port}", check.guard(r -> Response.ok(close(relays(relays), r.param("port")))));
    }

    private static Object open(Relays relays, RelayRequest request) {
        return relays.open(request.target(), request.port());
    }

    private static Object close(Relays relays, String port) {
        int number;
        try {
            number = Integer.parseInt(port);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("port", "'" + port + "' is not a port");
        }
        return relays.close(number).orElseThrow(() -> new ApiException(404, "no relay listens on port " + number));
    }

    private static Relays relays(Optional<Relays> relays) {
        return relays.orElseThrow(() -> new ApiException(404, "this agent runs no relays: it was started without "
                + "--relay-host (only a remote site's agent relays call-backs)"));
    }

    private static Object status(SiteAgent agent, Request r) {
        String id = r.param("id");
        if (r.queryParam("waitWhile").isEmpty()) {
            return agent.status(id);
        }
        PilotState from = parseState(r.queryParam("waitWhile").get());
        long timeout = r.queryParam("timeoutMs").map(AgentApi::parseMillis).orElse(30_000L);
        try {
            return agent.awaitChange(id, from, Duration.ofMillis(Math.min(timeout, MAX_WAIT_MS)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("agent shutting down");
        }
    }

    private static PilotState parseState(String s) {
        try {
            return PilotState.valueOf(s);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("waitWhile", "'" + s + "' is not a pilot state");
        }
    }

    private static long parseMillis(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("timeoutMs", "'" + s + "' is not a number of milliseconds");
        }
    }
}
