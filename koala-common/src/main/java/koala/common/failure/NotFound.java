package koala.common.failure;

/** Nothing by that name: "job 7 not found". */
public final class NotFound extends Failure {
    /** @param what what was looked for, e.g. "job 7"; the message is "job 7 not found" */
    public NotFound(String what) {
        super(what + " not found", null);
    }

    @Override
    public Kind kind() {
        return Kind.NOT_FOUND;
    }
}
