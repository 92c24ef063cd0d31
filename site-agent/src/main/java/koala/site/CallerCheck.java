package koala.site;

import java.util.concurrent.atomic.AtomicLong;
import koala.api.site.AgentSecret;
import koala.http.ApiException;
import koala.http.JsonHttpServer;

/**
 * Lets in only callers that know the agent's secret: every route, {@code /health} included, is
 * wrapped so that a request without {@code Authorization: Bearer <secret>}, or with another
 * secret, is answered 401 with the reason and does nothing. The check lives here rather than in
 * the HTTP server so that it does not depend on which server engine carries the routes.
 */
final class CallerCheck {
    private final AgentSecret secret;
    private final AtomicLong admitted = new AtomicLong();

    CallerCheck(AgentSecret secret) {
        this.secret = secret;
    }

    JsonHttpServer.Handler guard(JsonHttpServer.Handler handler) {
        return request -> {
            String authorization = request.header("Authorization").orElse(null);
            if (authorization == null) {
                throw new ApiException(401, "this agent answers only its scheduler: send Authorization: Bearer <secret>, "
                        + "the secret the scheduler gave the agent when it started it");
            }
            if (!secret.admits(authorization)) {
                throw new ApiException(401, "wrong secret in the Authorization header");
            }
            admitted.incrementAndGet();
            return handler.handle(request);
        };
    }

    /**
     * Requests let in so far. The idle exit counts these, not every request: a stranger knocking
     * must not keep an agent alive that its scheduler has left.
     */
    long admitted() {
        return admitted.get();
    }
}
