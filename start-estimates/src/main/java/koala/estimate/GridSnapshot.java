package koala.estimate;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import koala.placement.FileLocations;

/**
 * The grid as the scheduler sees it at {@code now}, all an estimate is made from.
 *
 * @param sites     every site with its hosts, what they have and what is free now
 * @param running   the jobs running now and what they hold
 * @param claims    nodes held for jobs whose pilots have not started: busy, and those jobs count as starting
 * @param shrinks   framework instances' idle nodes that come back at a known time
 * @param localLoad local users' load per site, by site name; a site not named has none
 * @param queue     the placement queue in the order a round tries it: high priority first, then low, each by
 *                  arrival; a job that cannot be placed does not block the ones behind it
 * @param arrivals  the submissions still to come, drawn from what was submitted lately
 * @param files     the grid's file catalog, as Close-to-Files places by it ({@link FileLocations#NONE}: none)
 */
public record GridSnapshot(Instant now, List<SiteState> sites, List<RunningWork> running, List<Claim> claims,
        List<Shrink> shrinks, Map<String, LocalLoad> localLoad, List<QueuedJob> queue, Arrivals arrivals,
        FileLocations files) {
    public GridSnapshot {
        files = files == null ? FileLocations.NONE : files;
        Objects.requireNonNull(now, "now");
        sites = List.copyOf(sites);
        running = List.copyOf(running);
        claims = List.copyOf(claims);
        shrinks = List.copyOf(shrinks);
        localLoad = Map.copyOf(localLoad);
        queue = List.copyOf(queue);
        arrivals = arrivals == null ? Arrivals.NONE : arrivals;
        Set<String> names = new HashSet<>();
        if (!sites.stream().allMatch(s -> names.add(s.name()))) {
            throw new IllegalArgumentException("a site appears twice in the snapshot");
        }
    }

    /** A snapshot with no file catalog. */
    public GridSnapshot(Instant now, List<SiteState> sites, List<RunningWork> running, List<Claim> claims,
            List<Shrink> shrinks, Map<String, LocalLoad> localLoad, List<QueuedJob> queue, Arrivals arrivals) {
        this(now, sites, running, claims, shrinks, localLoad, queue, arrivals, FileLocations.NONE);
    }

    /** A snapshot that foresees no more submissions, with no file catalog. */
    public GridSnapshot(Instant now, List<SiteState> sites, List<RunningWork> running, List<Claim> claims,
            List<Shrink> shrinks, Map<String, LocalLoad> localLoad, List<QueuedJob> queue) {
        this(now, sites, running, claims, shrinks, localLoad, queue, Arrivals.NONE);
    }

    /** This snapshot with {@code arrivals} to come. */
    public GridSnapshot withArrivals(Arrivals arrivals) {
        return new GridSnapshot(now, sites, running, claims, shrinks, localLoad, queue, arrivals, files);
    }

    /** This snapshot with {@code queue} as its placement queue. */
    public GridSnapshot withQueue(List<QueuedJob> queue) {
        return new GridSnapshot(now, sites, running, claims, shrinks, localLoad, queue, arrivals, files);
    }
}
