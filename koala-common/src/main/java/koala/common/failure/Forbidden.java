package koala.common.failure;

/** The caller may not do this: "bob may not cancel job 7 (owned by alice)". */
public final class Forbidden extends Failure {
    public Forbidden(String message) {
        super(message, null);
    }

    @Override
    public Kind kind() {
        return Kind.FORBIDDEN;
    }
}
