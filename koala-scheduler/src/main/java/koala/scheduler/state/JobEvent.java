package koala.scheduler.state;

/**
 * What can happen to a job, and every word its history is written with: the events that move it
 * (the keys of {@link JobStateMachine}'s table) and those its history notes while it stays where it
 * is — an allocation's grows and shrinks, the grid's arbitration, a node's last words. One
 * vocabulary, so that what the history says, what the accounting counts and what the tests read
 * cannot drift apart.
 */
public enum JobEvent {
    // ---- events that move a job: JobStateMachine's table
    /** A placement policy found sites for every component. */
    PLACED(true),
    /** The job waited through the configured number of placement tries. */
    GAVE_UP_PLACING(true),
    /** Every node of every component has arrived. */
    ALL_CLAIMED(true),
    /** Claims failed too often: release everything and queue the job again. */
    CLAIMS_FAILED(true),
    /** Every component's process has ended with status 0. */
    COMPLETED(true),
    /** A component's process ended non-zero, or a node was lost while running. */
    BROKE(true),
    CANCEL(true),
    /** The owner of an allocation gives it back. */
    CLOSED(true),

    // ---- notes: what the history says of a job that stays in its state
    /** A job came in (its first line: no state before it). */
    SUBMITTED(false),
    /** A runner opened an allocation (its first line: it is RUNNING from then on). */
    ALLOCATED(false),
    /** An allocation was granted nodes. */
    GREW(false),
    /** An allocation's grow, or nodes owed to it, were refused. */
    GROW_REFUSED(false),
    /** An allocation gave nodes back. */
    SHRANK(false),
    /** The grid's arbitration ended idle workers of an instance for another. */
    TAKEN_BACK(false),
    /** The grid's arbitration ended workers whose instance did not give them back within the grace period. */
    ENDED_AFTER_GRACE(false),
    /** The grid's arbitration asked an instance to give workers back. */
    ASKED_TO_SHRINK(false),
    /** Nodes are owed to an instance: the grid's arbitration will grant them as they come free. */
    PROMISED(false),
    /** The scheduler started an instance's runner again. */
    RUNNER_RESTARTED(false),
    /** A node's last words before the job ended (an MPI rank's failure, say). */
    ENDED_SAYING(false),
    /** A node an allocation was growing by did not arrive in time. */
    CLAIM_TIMED_OUT(false),
    /** A claimed node was given up and another asked for in its place. */
    REPLACED(false),
    /** A site refused a node's pilot; the reason is the site's (SGE's) own words. */
    PILOT_REFUSED(false),
    /** A lost node's site said how its pilot ended: stopped by SGE for passing its memory claim, a signal. */
    PILOT_ENDED(false);

    private final boolean moves;

    JobEvent(boolean moves) {
        this.moves = moves;
    }

    /** Whether the event moves a job by the transition table; a note leaves it in its state. */
    public boolean moves() {
        return moves;
    }
}
