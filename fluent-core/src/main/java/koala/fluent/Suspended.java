package koala.fluent;

/**
 * An SWC suspended so that an RL runs at once: its {@code slots} components on worker
 * {@code workerId} lent their slots to the RL. The whole application pauses at a record boundary:
 * its components on every worker keep their state in their DeviceManager and lend their slots
 * until it resumes. {@code times} is how often it has been suspended now, this time included.
 */
public record Suspended(String appId, String workerId, int slots, int times, int maxTimes) {
    public Suspended {
        if (appId == null || workerId == null || slots < 1 || times < 1 || times > maxTimes) {
            throw new IllegalArgumentException("a suspension names an application, a worker, at least 1 slot and "
                    + "a count in 1..max, not " + appId + ", " + workerId + ", " + slots + ", " + times + "/" + maxTimes);
        }
    }

    /** "swc-4 (6 slots, suspension 1 of 3)", as listed in reasons. */
    @Override
    public String toString() {
        return appId + " (" + slots + (slots == 1 ? " slot" : " slots") + ", suspension " + times + " of " + maxTimes + ")";
    }
}
