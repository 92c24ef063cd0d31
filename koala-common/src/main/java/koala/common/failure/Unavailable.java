package koala.common.failure;

/** Cannot be done now, may be later: a site or cell unreachable, the scheduler busy. Worth a retry. */
public final class Unavailable extends Failure {
    public Unavailable(String message) {
        super(message, null);
    }

    public Unavailable(String message, Throwable cause) {
        super(message, null, cause);
    }

    @Override
    public Kind kind() {
        return Kind.UNAVAILABLE;
    }
}
