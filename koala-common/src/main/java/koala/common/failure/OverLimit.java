package koala.common.failure;

/** The caller asked for more than one user may have at once; the message names the limit and its key. */
public final class OverLimit extends Failure {
    public OverLimit(String message) {
        super(message, null);
    }

    @Override
    public Kind kind() {
        return Kind.OVER_LIMIT;
    }
}
