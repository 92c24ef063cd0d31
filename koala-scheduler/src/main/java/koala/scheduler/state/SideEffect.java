package koala.scheduler.state;

/** What the scheduler must do when a transition happens: returned as values, done by the caller. */
public enum SideEffect {
    /** Submit pilots for the placed components. */
    CLAIM_NODES,
    /** Tell every node to run its component's command. */
    START_COMPONENTS,
    /** Kill every pilot the job still holds or is claiming. */
    RELEASE_NODES,
    /** Put the job back into the placement queue. */
    REQUEUE,
    /**
     * Make the job's usage record for the accounting file: last, once its nodes are given back. The
     * scheduler marks the job in its store before the ended state is saved, so a crash between the
     * two still gets the job its record.
     */
    RECORD_USAGE
}
