package koala.api.site;

import com.fasterxml.jackson.core.type.TypeReference;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import koala.http.JsonHttpClient;

/**
 * The site agent's HTTP API as the scheduler, the CLI and the tests call it. Every request carries
 * the agent's secret ({@code Authorization: Bearer}); the agent refuses any other with a 401.
 */
public final class SiteAgentClient {
    private final JsonHttpClient http;

    public SiteAgentClient(URI base, AgentSecret secret) {
        this.http = new JsonHttpClient(base, Duration.ofSeconds(30), Map.of("Authorization", secret.authorization()));
    }

    public URI base() {
        return http.base();
    }

    public AgentHealth health() {
        return http.get("/health", AgentHealth.class);
    }

    public PilotStatus submit(PilotSpec spec) {
        return http.post("/pilots", spec, PilotStatus.class);
    }

    public PilotStatus status(String id) {
        return http.get("/pilots/" + id, PilotStatus.class);
    }

    /** Waits at most {@code timeout} for the pilot to leave its queued state or finish. */
    public PilotStatus awaitChange(String id, PilotState from, Duration timeout) {
        return http.getLong("/pilots/" + id + "?waitWhile=" + from + "&timeoutMs=" + timeout.toMillis(),
                PilotStatus.class, timeout);
    }

    public List<PilotStatus> pilots() {
        return http.get("/pilots", new TypeReference<List<PilotStatus>>() { });
    }

    /** Kills the pilot; empty when the agent knows no such pilot (it ended and was forgotten, or never was). */
    public java.util.Optional<PilotStatus> kill(String id) {
        try {
            return java.util.Optional.of(http.delete("/pilots/" + id, PilotStatus.class));
        } catch (koala.http.ApiException e) {
            if (e.status() == 404) {
                return java.util.Optional.empty();
            }
            throw e;
        }
    }

    public CellSnapshot snapshot() {
        return http.get("/snapshot", CellSnapshot.class);
    }

    /**
     * A relay to {@code target} on the agent's loopback: the one on {@code port} if that is given
     * (re-pointed if it led elsewhere), else the one to {@code target} if there is one, else a new
     * one on {@code port}, or on any port when that is 0 or taken.
     */
    public RelayAddress relay(int target, int port) {
        return http.post("/relays", new RelayRequest(target, port), RelayAddress.class);
    }

    /** Closes the relay on {@code port}; false when none listens there (closed already). */
    public boolean closeRelay(int port) {
        try {
            http.delete("/relays/" + port, RelayAddress.class);
            return true;
        } catch (koala.http.ApiException e) {
            if (e.status() == 404) {
                return false;
            }
            throw e;
        }
    }

    public List<RelayAddress> relays() {
        return http.get("/relays", new TypeReference<List<RelayAddress>>() { });
    }
}
