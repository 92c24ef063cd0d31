package koala.fluent;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * How durations, instants and lists read in reasons: "240 s", "10:02:00" (UTC), "w3, w7". The
 * same wording as the provisioning module's, copied rather than shared so that this module
 * depends on nothing.
 */
final class Texts {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private Texts() {
    }

    /** Seconds, to the millisecond, without trailing zeros: "240 s", "30.5 s". */
    static String seconds(Duration duration) {
        return BigDecimal.valueOf(duration.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
    }

    /** The UTC time of day, "10:02:00": reasons are read next to the master's log. */
    static String clock(Instant instant) {
        return CLOCK.format(instant);
    }

    /** "w3, w7". */
    static String list(List<String> ids) {
        return String.join(", ", ids);
    }

    /** "1 worker", "3 workers". */
    static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
