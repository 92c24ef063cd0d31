package koala.scheduler.state;

/** Where a job is in its life. */
public enum JobState {
    /** In the placement queue, waiting for enough idle nodes. */
    QUEUED,
    /** Placed; its pilots are being claimed on the chosen sites. */
    CLAIMING,
    /** Every component holds its nodes and runs. */
    RUNNING,
    FINISHED, FAILED, CANCELLED;

    public boolean ended() {
        return this == FINISHED || this == FAILED || this == CANCELLED;
    }
}
