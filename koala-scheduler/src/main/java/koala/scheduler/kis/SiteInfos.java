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
}
