package koala.fluent.wire;

/**
 * What a master event is about: the {@code kind} of its JSON line in {@code events.log}
 * ({@link koala.common.event.EventLine}). Programs act on these and the fields named here.
 */
public enum MasterEventKind {
    /** A worker joined the master and can run applications: fields node, slots, url. */
    JOINED,
    /** A worker's DeviceManager reported in again: fields node, url. */
    REJOINED,
    /** A worker the runner no longer has left the master: field node. */
    LEFT,
    /** A job arrived: fields job, apps (how many applications). */
    JOB_ARRIVED,
    /** The runner answered a grow: fields count (asked), granted, nodes. */
    GROWN,
    /** The runner refused a grow outright: field count. */
    GROW_REFUSED,
    /** Workers released through the runner: field nodes. */
    RELEASED,
    /** An application finished: fields app, node. */
    APP_FINISHED,
    /** An application failed: field app. */
    APP_FAILED,
    /** A suspended word count's components moved to other workers, their state carried: fields app, components. */
    MOVED,
    /** A worker taken back by the grid yielded its word counts (moved to other workers) and was given back: field node. */
    YIELDED,
    /** The master started serving: its instance, port and slots per worker. */
    STARTED,
    /**
     * A grow or release the policy computes but does not ask for (Static, Proactive: the runner
     * resizes), so its reasoning can be compared with what the runner does.
     */
    RESIZE_REPORTED,
    /** Anything else worth a line: placements, settings, refusals. */
    NOTE
}
