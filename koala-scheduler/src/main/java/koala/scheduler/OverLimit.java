package koala.scheduler;

/** A user asked for more than one user may have at once (e.g. queued jobs); the message names the limit and its key. */
public final class OverLimit extends RuntimeException {
    public OverLimit(String reason) {
        super(reason);
    }
}
