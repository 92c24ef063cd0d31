package koala.cli;

import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import koala.api.scheduler.StartEstimateView;

/** How a waiting job's start estimate reads in {@code koala jobs}, {@code koala status} and a dry run. */
final class StartLines {
    private static final DateTimeFormatter HM = DateTimeFormatter.ofPattern("HH:mm");

    private StartLines() {
    }

    /** A column of {@code koala jobs}: the likely start's time of day, "~now", "never", "?" (not foreseen) or "". */
    static String column(StartEstimateView e, ZoneId zone) {
        if (e == null) {
            return "";
        }
        return switch (e.status()) {
            case "STARTING", "NOW" -> "~now";
            case "WAITING" -> "~" + HM.withZone(zone).format(e.likely());
            case "NEVER_PLACEABLE" -> "never";
            default -> "?";
        };
    }

    /** The scheduler's sentence, and when it was made: for {@code koala status} and a dry run. */
    static String sentence(StartEstimateView e, ZoneId zone) {
        String at = e.madeAt() == null ? "" : " (estimated at " + DateTimeFormatter.ofPattern("HH:mm:ss").withZone(zone)
                .format(e.madeAt()) + ")";
        return e.because() + at;
    }
}
