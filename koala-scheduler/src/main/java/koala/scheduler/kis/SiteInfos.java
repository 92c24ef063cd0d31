package koala.scheduler.kis;

import java.util.Optional;

/**
 * What the scheduler reads of the information service: the last word from each site. The
 * scheduler's decisions need only this, so they run the same on the real service and on a grid
 * made up for a test or a benchmark.
 */
@FunctionalInterface
public interface SiteInfos {
    /** What was last learned of {@code site}; empty if it was never heard from. */
    Optional<SiteInfo> site(String site);

    /**
     * {@code site} at the largest it was seen lately, up: what "could this job ever fit here?" is judged
     * against. A host missing from a snapshot for a while (its execd or slurmd registering again after a
     * restart) does not make the site smaller for that. By default the last word.
     */
    default Optional<SiteInfo> fullest(String site) {
        return site(site);
    }
}
