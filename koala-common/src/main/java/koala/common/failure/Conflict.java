package koala.common.failure;

/** The thing asked about is in a state, or of a kind, that does not allow the request: "allocation 7 is DONE". */
public final class Conflict extends Failure {
    public Conflict(String message) {
        super(message, null);
    }

    /** @param field the request field naming what conflicts, e.g. "nodes" */
    public Conflict(String message, String field) {
        super(message, field);
    }

    @Override
    public Kind kind() {
        return Kind.CONFLICT;
    }
}
