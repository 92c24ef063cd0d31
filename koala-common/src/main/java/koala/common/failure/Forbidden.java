package koala.common.failure;

/** The caller may not do this: "bob may not cancel job 7 (owned by alice)". */
public final class Forbidden extends Failure {
    public Forbidden(String message) {
        super(message, null);
    }

    /** @param field the request field naming what the caller may not have, e.g. "file" */
    public Forbidden(String message, String field) {
        super(message, field);
    }

    @Override
    public Kind kind() {
        return Kind.FORBIDDEN;
    }
}
