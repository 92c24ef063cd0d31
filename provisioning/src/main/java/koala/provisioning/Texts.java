package koala.provisioning;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** How numbers, durations and instants read in reasons: "240 s", "46%", "10:02:00" (UTC). */
public final class Texts {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    private Texts() {
    }

    /** Seconds, to the millisecond, without trailing zeros: "240 s", "30.5 s". */
    public static String seconds(Duration duration) {
        return BigDecimal.valueOf(duration.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
    }

    /** A percentage to one decimal: "46%", "45.7%". */
    public static String percent(double value) {
        return rounded(value, 1) + "%";
    }

    /** A number to two decimals: "45", "2.5". */
    public static String number(double value) {
        return rounded(value, 2);
    }

    /** The UTC time of day, "10:02:00": reasons are read next to the runner's log. */
    public static String clock(Instant instant) {
        return CLOCK.format(instant);
    }

    /** "w3, w7". */
    public static String list(List<String> ids) {
        return String.join(", ", ids);
    }

    /** "1 worker", "3 workers". */
    public static String count(long n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }

    private static String rounded(double value, int decimals) {
        if (!Double.isFinite(value)) {
            return String.valueOf(value);
        }
        return BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }
}
