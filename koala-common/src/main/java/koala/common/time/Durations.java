package koala.common.time;

import java.time.Duration;

/** Durations as messages show them: "300 ms", "5 s", "1.5 s". */
public final class Durations {
    private Durations() {
    }

    public static String text(Duration d) {
        long millis = d.toMillis();
        if (millis < 1000) {
            return millis + " ms";
        }
        if (millis % 1000 == 0) {
            return millis / 1000 + " s";
        }
        return java.math.BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString() + " s";
    }
}
