package koala.resourcemanager;

import java.time.Duration;
import koala.common.time.Durations;

/**
 * The cluster's resource manager did not answer: the message is what it said, or that it said
 * nothing in time. Unchecked, because a look at the cluster ({@link ResourceManager#load},
 * {@link ResourceManager#probe}) either answers or the cluster reads DOWN.
 */
public class ManagerUnreachable extends RuntimeException {
    private final boolean timedOut;

    public ManagerUnreachable(String message) {
        this(message, false);
    }

    public ManagerUnreachable(String message, boolean timedOut) {
        super(message);
        this.timedOut = timedOut;
    }

    /** A command or call still waiting at its time-out: "qstat -u koala did not answer within 5 s". */
    public static ManagerUnreachable silent(String what, Duration timeout) {
        return new ManagerUnreachable(what + " did not answer within " + Durations.text(timeout), true);
    }

    /** True when the command was still waiting at its time-out (a stalled manager), not refused. */
    public boolean timedOut() {
        return timedOut;
    }
}
