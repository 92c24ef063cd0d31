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
    REQUEUE
}
