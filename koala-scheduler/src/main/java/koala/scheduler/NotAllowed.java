package koala.scheduler;

/**
 * A caller asked to change what is not theirs: only a job's owner or an admin may cancel, grow,
 * shrink, release, close, fail or re-point it. The message says whose it is.
 */
public final class NotAllowed extends RuntimeException {
    public NotAllowed(String reason) {
        super(reason);
    }
}
