package koala.fluent;

/**
 * The two applications of the paper's workload (Kuzmanovska, Mak, Epema, JSSPP 2014), which
 * differ in how they take a worker and in what happens when there is no room.
 */
public enum AppKind {
    /**
     * The video filter: computationally intensive, one component that takes a whole worker node.
     * It starts at once on an idle worker or is rejected; it is never queued.
     */
    RL,
    /**
     * Streaming word count: a reader, 2^n mappers and a counter over a text file; each component
     * takes one slot of a worker, so many run on one worker. It waits in the queue when there is
     * no room, and starts first come, first served when room appears.
     */
    SWC
}
