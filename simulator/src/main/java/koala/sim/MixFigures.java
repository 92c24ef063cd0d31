package koala.sim;

/**
 * What one instance's run of RLs mixed with SWCs gave, with or without suspension.
 *
 * @param rls                RLs submitted to the master
 * @param rlRejected         RLs rejected (no idle worker, nothing to suspend, no grow)
 * @param rlStartSeconds     mean time from an RL's arrival to its start, of the RLs that started (a grow's wait included)
 * @param swcsFinished       SWCs that ran to the end within the run
 * @param swcsUnfinished     SWCs running, suspended or waiting at the end
 * @param swcCompletionSeconds mean time from an SWC's (first) arrival to its end, of those finished
 * @param nodeHours          worker node-time held, node-hours
 * @param suspensions        SWC suspensions for RLs
 * @param resumed            suspended SWCs that ran again
 * @param moved              of those, moved to other workers
 * @param takenBack          workers KOALA's arbitration took back (idle, given back, yielded or ended)
 * @param killed             applications lost with a worker KOALA ended (take-backs)
 * @param yielded            workers taken back that yielded their batch work instead of losing it
 * @param yieldedSlots       SWC components moved off workers taken back
 * @param lostSwcSlots       SWC components lost with workers taken back (their SWC lost and submitted again)
 */
public record MixFigures(long rls, long rlRejected, double rlStartSeconds, long swcsFinished, long swcsUnfinished,
        double swcCompletionSeconds, double nodeHours, long suspensions, long resumed, long moved, long takenBack, long killed,
        long yielded, long yieldedSlots, long lostSwcSlots) {

    /** Rejected RLs / RLs, percent. */
    public double rlRejectPercent() {
        return rls == 0 ? 0 : 100.0 * rlRejected / rls;
    }
}
