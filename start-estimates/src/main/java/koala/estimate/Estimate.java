package koala.estimate;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import koala.placement.PlacementReason;

/**
 * When one queued job will likely start.
 *
 * @param likely  the likely start: the median over the sampled runs ({@code replayed}), calibrated by how right
 *                earlier estimates were ({@link StartHistory}); null when it does not start in most of them
 * @param low     the 10th percentile: the 80% range's start; null as {@code likely}
 * @param high    the 90th percentile: the 80% range's end; null when it does not start in more than 10% of them
 * @param replayed the median start over the sampled runs before calibration: what to compare the actual start
 *                with to feed {@link StartHistory}
 * @param sites   the sites placement chose for it in the likely run (runtimes at their median, local users at
 *                their mean load) or, when it does not start there, in the sampled run that starts it at its
 *                median; empty when it starts in neither
 * @param reasons why placement does not place it now (for {@link Status#NEVER_PLACEABLE}: even on an idle grid)
 * @param waits   per chosen site, what it waits for in the likely run
 */
public record Estimate(String jobId, Status status, Instant likely, Instant low, Instant high, Instant replayed, List<String> sites,
        List<PlacementReason> reasons, List<SiteWait> waits) {
    /** Where the job stands. */
    public enum Status {
        /** Its nodes are claimed now: it starts as its pilots do. */
        STARTING,
        /** Placement places it in this round. */
        NOW,
        /** It waits for work to end; {@code likely}, {@code low} and {@code high} say until when. */
        WAITING,
        /** It starts in too few of the sampled runs: what it needs is held past everything the snapshot knows ends. */
        NOT_FORESEEN,
        /** Placement cannot place it even on an idle grid; {@code reasons} say why. */
        NEVER_PLACEABLE
    }

    /**
     * What a job waits for on one site in the likely run: the site is busy until {@code until} with the work in
     * {@code ending} (running now or started since, ending by then), and {@code ahead} are the jobs ahead of it in
     * the queue that take the site's resources first. Each list holds at most {@value #LISTED} ids.
     */
    public record SiteWait(String site, Instant until, List<String> ending, List<String> ahead) {
        public static final int LISTED = 8;

        public SiteWait {
            ending = List.copyOf(ending);
            ahead = List.copyOf(ahead);
        }
    }

    public Estimate {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(status, "status");
        sites = List.copyOf(sites);
        reasons = List.copyOf(reasons);
        waits = List.copyOf(waits);
    }

    /** In a user's words, times of day in {@code zone}: "fs0 busy until ~14:10 with jobs 31, 33; behind 35". */
    public String describe(ZoneId zone) {
        DateTimeFormatter hm = DateTimeFormatter.ofPattern("HH:mm").withZone(zone);
        return switch (status) {
            case STARTING -> "starting: its nodes are being claimed";
            case NOW -> "starts in this placement round on " + String.join(", ", sites);
            case NOT_FORESEEN -> "no start foreseen: " + reasonText();
            case NEVER_PLACEABLE -> "never placeable: " + reasonText();
            case WAITING -> "likely ~" + hm.format(likely) + " (80%: " + hm.format(low) + " to "
                    + (high == null ? "later" : hm.format(high)) + "); " + waitText(hm);
        };
    }

    private String reasonText() {
        return reasons.isEmpty() ? "what it needs stays held" : String.join("; ", reasons.stream().map(PlacementReason::text).toList());
    }

    private String waitText(DateTimeFormatter hm) {
        List<String> parts = new ArrayList<>();
        for (SiteWait w : waits) {
            String s = w.site() + " busy until ~" + hm.format(w.until());
            s += w.ending().isEmpty() ? "" : " with jobs " + String.join(", ", w.ending());
            s += w.ahead().isEmpty() ? "" : "; behind " + String.join(", ", w.ahead());
            parts.add(s);
        }
        return parts.isEmpty() ? reasonText() : String.join("; ", parts);
    }
}
