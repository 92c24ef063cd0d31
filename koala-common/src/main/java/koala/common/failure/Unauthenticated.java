package koala.common.failure;

/** The caller did not prove who it is: no token, or the wrong one. */
public final class Unauthenticated extends Failure {
    public Unauthenticated(String message) {
        super(message, null);
    }

    public Unauthenticated(String message, String field) {
        super(message, field);
    }

    @Override
    public Kind kind() {
        return Kind.UNAUTHENTICATED;
    }
}
