package koala.jdf;

/** One problem in a JDF, printed as {@code file:line:column: message}. */
public record JdfError(SourcePosition where, String message) {
    @Override
    public String toString() {
        return where + ": " + message;
    }
}
