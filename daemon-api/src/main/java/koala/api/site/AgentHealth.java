package koala.api.site;

import java.time.Instant;

/**
 * Whether a site agent can reach its cell.
 *
 * @param status {@code UP} or {@code DOWN}
 * @param reason why it is down, as SGE said it
 * @param since  when the status last changed
 */
public record AgentHealth(String site, String cell, String status, String reason, Instant since,
                          String drmSystem, int pilotsTracked) {
    public boolean up() {
        return "UP".equals(status);
    }
}
