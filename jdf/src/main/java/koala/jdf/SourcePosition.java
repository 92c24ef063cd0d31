package koala.jdf;

/** A place in a job description file, 1-based, for messages of the form {@code file:line:column}. */
public record SourcePosition(String file, int line, int column) {
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
