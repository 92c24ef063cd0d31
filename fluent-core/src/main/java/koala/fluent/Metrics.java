package koala.fluent;

import java.util.Map;

/**
 * Counters of the master at one instant. Every submitted application is counted once in
 * {@code accepted}, {@code queued} or {@code rejected}, by what happened at submission; a queued
 * SWC that starts later is counted again in {@code startedFromQueue}.
 *
 * @param accepted         applications started at once when their job was submitted
 * @param queued           SWCs queued when their job was submitted
 * @param rejected         RLs rejected for want of an idle worker
 * @param startedFromQueue queued SWCs started since, when room appeared
 * @param finished         applications that ran to the end
 * @param waiting          SWCs in the queue now
 * @param running          applications running now, one orchestrator each
 * @param workerTime       busy and idle time of every worker that has been in the framework, removed ones included
 * @param suspended        SWC suspensions for RLs so far (an SWC suspended twice counts twice)
 * @param resumed          suspended SWCs that ran again, in place or moved
 * @param moved            of those, the ones whose suspended components moved to other workers
 * @param suspendedNow     SWCs suspended now
 * @param yielded          workers taken back that yielded their batch work (moved) instead of losing it
 */
public record Metrics(int accepted, int queued, int rejected, int startedFromQueue, int finished, int waiting,
        int running, Map<String, WorkerTime> workerTime, int suspended, int resumed, int moved, int suspendedNow,
        int yielded) {
    public Metrics(int accepted, int queued, int rejected, int startedFromQueue, int finished, int waiting,
                   int running, Map<String, WorkerTime> workerTime) {
        this(accepted, queued, rejected, startedFromQueue, finished, waiting, running, workerTime, 0, 0, 0, 0, 0);
    }

    public Metrics {
        workerTime = Map.copyOf(workerTime);
    }
}
