package koala.common.failure;

/** Nothing by that name: "job 7 not found". */
public final class NotFound extends Failure {
    /** @param what what was looked for, e.g. "job 7"; the message is "job 7 not found" */
    public NotFound(String what) {
        super(what + " not found", null);
    }

    private NotFound(String message, boolean worded) {
        super(message, null);
    }

    /** With a message that says it its own way, e.g. a server's answer read back by its client. */
    public static NotFound worded(String message) {
        return new NotFound(message, true);
    }

    @Override
    public Kind kind() {
        return Kind.NOT_FOUND;
    }
}
