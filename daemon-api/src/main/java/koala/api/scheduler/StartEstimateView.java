package koala.api.scheduler;

import java.time.Instant;
import java.util.List;

/**
 * When a waiting job will likely start, as the scheduler last estimated it ({@code koala status}, {@code koala jobs},
 * {@code koala submit --dry-run}): its own placement code replayed forward from the grid as it stands.
 *
 * @param status  STARTING (its nodes are being claimed), NOW (placed in this round), WAITING, NOT_FORESEEN (what it
 *                needs is held past everything the scheduler sees end) or NEVER_PLACEABLE (not even on an idle grid)
 * @param likely  the likely start (the median); null when not foreseen
 * @param low     the start of the range it starts in 8 times out of 10; null as {@code likely}
 * @param high    the end of that range; null when later than anything foreseen
 * @param sites   where placement would put it
 * @param because in words: what it waits for ("fs0 busy until ~14:10 with jobs 31, 33"), or why it never starts
 * @param madeAt  when the estimate was made
 */
public record StartEstimateView(String status, Instant likely, Instant low, Instant high, List<String> sites,
                                String because, Instant madeAt) {
    public StartEstimateView {
        sites = sites == null ? List.of() : List.copyOf(sites);
    }
}
