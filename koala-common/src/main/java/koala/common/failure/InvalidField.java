package koala.common.failure;

import java.util.Objects;

/** One field of the request is wrong; the message is "FIELD: REASON", e.g. "nodes: 0: ask for at least 1 node". */
public final class InvalidField extends Failure {
    private final String reason;

    public InvalidField(String field, String reason) {
        super(Objects.requireNonNull(field, "field") + ": " + reason, field);
        this.reason = reason;
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
