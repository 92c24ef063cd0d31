package koala.common.failure;

import java.util.Objects;

/** One field of the request is wrong; the message is "FIELD: REASON", e.g. "nodes: 0: ask for at least 1 node". */
public final class InvalidField extends Failure {
    private final String reason;

    public InvalidField(String field, String reason) {
        this(field, reason, Objects.requireNonNull(field, "field") + ": " + reason);
    }

    private InvalidField(String field, String reason, String message) {
        super(message, field);
        this.reason = reason;
    }

    /**
     * The field at fault, with a message that names the problem its own way, e.g. field "jdf" and
     * "x.jdf, line 3, column 7: count: 'two' is not a whole number".
     */
    public static InvalidField worded(String field, String message) {
        return new InvalidField(Objects.requireNonNull(field, "field"), message, message);
    }

    /** What is wrong with the field, without its name. */
    public String reason() {
        return reason;
    }

    @Override
    public Kind kind() {
        return Kind.INVALID_FIELD;
    }
}
