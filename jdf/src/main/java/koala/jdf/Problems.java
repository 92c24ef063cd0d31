package koala.jdf;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The errors found in one file so far, kept in file order. Every stage of the parser reports here
 * instead of throwing, so that one run names every problem it can see.
 */
final class Problems {
    private final String file;
    private final List<JdfError> errors = new ArrayList<>();
    private SourcePosition cutOff;

    Problems(String file) {
        this.file = file;
    }

    String file() {
        return file;
    }

    SourcePosition at(int line, int column) {
        return new SourcePosition(file, line, column);
    }

    void add(SourcePosition where, String message) {
        if (cutOff == null || before(where, cutOff)) {
            errors.add(new JdfError(where, message));
        }
    }

    /**
     * From here on the text cannot be trusted (an unterminated string or comment swallowed it): later
     * errors at or after this place would only be knock-on effects, and are dropped.
     */
    void cutOff(SourcePosition from) {
        cutOff = from;
    }

    static boolean before(SourcePosition a, SourcePosition b) {
        return a.line() < b.line() || (a.line() == b.line() && a.column() < b.column());
    }

    boolean any() {
        return !errors.isEmpty();
    }

    /** Errors sorted by line and column; errors at one place keep the order they were found in. */
    List<JdfError> sorted() {
        List<JdfError> copy = new ArrayList<>(errors);
        copy.sort(Comparator.comparingInt((JdfError e) -> e.where().line()).thenComparingInt(e -> e.where().column()));
        return copy;
    }

    void throwIfAny() {
        if (any()) {
            throw new JdfException(sorted());
        }
    }

    /** "line:column" without the file, for messages that point at a second place. */
    static String lineColumn(SourcePosition where) {
        return where.line() + ":" + where.column();
    }
}
