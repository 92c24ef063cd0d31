package koala.scheduler.claiming;

/** Where one claimed node is. */
public enum NodeState {
    /** Its pilot is submitted and waits in the site's queue. */
    SUBMITTED,
    /** Its pilot runs and its launcher has called back: the node is KOALA's. */
    ARRIVED,
    /** It runs the component's command. */
    RUNNING,
    /** The command ended; the exit status is known. */
    EXITED,
    /** KOALA gave it back (cancel, re-placement, job ended). */
    RELEASED,
    /** Its pilot ended without the launcher reporting: killed, node lost. */
    LOST;

    public boolean held() {
        return this == SUBMITTED || this == ARRIVED || this == RUNNING;
    }
}
