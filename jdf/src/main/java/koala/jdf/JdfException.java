package koala.jdf;

import java.util.List;
import java.util.stream.Collectors;

/** A JDF that cannot be used, with every problem found. */
public class JdfException extends RuntimeException {
    private final List<JdfError> errors;

    public JdfException(List<JdfError> errors) {
        super(errors.stream().map(JdfError::toString).collect(Collectors.joining("\n")));
        this.errors = List.copyOf(errors);
    }

    public List<JdfError> errors() {
        return errors;
    }
}
