package koala.scheduler.state;

/** What can happen to a job. */
public enum JobEvent {
    /** A placement policy found sites for every component. */
    PLACED,
    /** The job waited through the configured number of placement tries. */
    GAVE_UP_PLACING,
    /** Every node of every component has arrived. */
    ALL_CLAIMED,
    /** Claims failed too often: release everything and queue the job again. */
    CLAIMS_FAILED,
    /** Every component's process has ended with status 0. */
    COMPLETED,
    /** A component's process ended non-zero, or a node was lost while running. */
    BROKE,
    CANCEL,
    /** The owner of an allocation gives it back. */
    CLOSED
}
