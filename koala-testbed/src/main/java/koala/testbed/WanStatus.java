package koala.testbed;

import java.util.List;

/**
 * The testbed's wide-area links as {@code testbed status} shows them: the delay each way between
 * cells, the delay program's process, and the round trips measured inside and between cells.
 *
 * @param delayMs each way between hosts of different cells, 0 for none
 * @param pid     the delay program's process, null when it does not run
 */
public record WanStatus(int delayMs, Long pid, List<RoundTrip> roundTrips) {
    public static final WanStatus NONE = new WanStatus(0, null, List.of());

    public WanStatus {
        roundTrips = List.copyOf(roundTrips);
    }

    /**
     * A round trip from one host to another, measured by TCP connects: the median and the least of
     * {@value RttProbe#SAMPLES} in milliseconds, or null with the reason none answered.
     */
    public record RoundTrip(String label, String from, String to, Double medianMs, Double minMs, String error) {
    }

    /** Up when there is no delay to apply, or the program that applies it runs. */
    public boolean up() {
        return delayMs == 0 || pid != null;
    }
}
