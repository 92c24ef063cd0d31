package koala.common.failure;

/** It was there and is no more, for good: "node 7.0.3 is not (or no longer) a node of instance 7". Asking again is pointless. */
public final class Gone extends Failure {
    public Gone(String message, String field) {
        super(message, field);
    }

    @Override
    public Kind kind() {
        return Kind.GONE;
    }
}
