package koala.scheduler.kis;

import java.time.Instant;
import koala.api.site.AgentHealth;
import koala.api.site.CellSnapshot;

/** What the information service last learned of a site: its agent's health and the cell's snapshot. */
public record SiteInfo(String site, AgentHealth health, CellSnapshot snapshot, String error, Instant seenAt) {
    public boolean up() {
        return health != null && health.up() && snapshot != null && error == null;
    }
}
