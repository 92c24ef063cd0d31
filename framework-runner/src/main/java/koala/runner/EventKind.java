package koala.runner;

/**
 * What a runner event is about: the {@code kind} of its JSON line ({@link koala.common.event.EventLine}).
 * A program reading the runner's log acts on these and the fields named here, never on the words.
 */
public enum EventKind {
    /** Nodes granted and starting: fields role, count, nodes. */
    GROW,
    /** Nodes asked for, none granted: fields role, count (asked). */
    NO_NODE,
    /** The framework's grow request refused by the policy: fields count (asked), decision (its WorkerDecision kind). */
    GROW_REFUSED,
    /** Nodes given back: field nodes. */
    RELEASE,
    /** A shrink that released nothing: field decision. */
    SHRINK_REFUSED,
    /** A sample's Keep, logged when its decision kind changes: field decision. */
    KEEP,
    /** A new orchestrator placed on an existing node: field node. */
    ORCHESTRATOR,
    /** A node lost (its entity exited, its heartbeats stopped): fields node, role. */
    LOST,
    /** The instance ended, its nodes given back: field state (FINISHED or FAILED). */
    ENDED,
    /** Anything else worth a line: registration, settings, the scheduler's silences. */
    NOTE
}
