package koala.api.scheduler;

import java.time.Instant;

/**
 * A site as the KOALA Information Service sees it.
 *
 * @param idle     nodes neither KOALA nor local users occupy
 * @param koala    nodes held by KOALA's pilots
 * @param others   nodes used by local users' jobs
 * @param claiming nodes KOALA asked for whose pilots have not started yet
 * @param agent    UP or DOWN, with {@code agentReason} when down
 */
public record SiteStatus(String site, int total, int idle, int koala, int others, int claiming, String agent,
                         String agentReason, Instant seenAt) {
}
