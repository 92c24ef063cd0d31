package koala.api.scheduler;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * A site as the KOALA Information Service sees it.
 *
 * @param idle     nodes neither KOALA nor local users occupy
 * @param koala    nodes held by KOALA's pilots
 * @param others   nodes used by local users' jobs
 * @param claiming nodes KOALA asked for whose pilots have not started yet
 * @param agent    UP or DOWN, with {@code agentReason} when down
 * @param resources the cores, memory and GPUs of its hosts, in all and free, from its cell's last snapshot; null
 *                 when its agent is down or no host of its reports them (left out of the JSON then)
 * @param manager  the resource manager the site runs, as its agent last reported it ("SGE 8.1.9", "slurm
 *                 22.05.8"); null before its agent was first heard from (left out of the JSON then)
 */
public record SiteStatus(String site, int total, int idle, int koala, int others, int claiming, String agent,
                         String agentReason, Instant seenAt,
                         @JsonInclude(JsonInclude.Include.NON_NULL) SiteResources resources,
                         @JsonInclude(JsonInclude.Include.NON_NULL) String manager) {
    /** A site whose hosts' resources are not known. */
    public SiteStatus(String site, int total, int idle, int koala, int others, int claiming, String agent,
                      String agentReason, Instant seenAt) {
        this(site, total, idle, koala, others, claiming, agent, agentReason, seenAt, null);
    }

    /** A site whose manager is not known. */
    public SiteStatus(String site, int total, int idle, int koala, int others, int claiming, String agent,
                      String agentReason, Instant seenAt, SiteResources resources) {
        this(site, total, idle, koala, others, claiming, agent, agentReason, seenAt, resources, null);
    }
}
