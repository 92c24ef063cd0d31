package koala.fluent.master;

import java.util.HashMap;
import java.util.Map;

/** An application's output against what the master expects: an SWC's word counts must match the master's own count. */
final class Checks {
    private Checks() {
    }

    static String describe(AppBook.Entry app, Map<String, Object> result) {
        JobIntake.Expected expected = app.expected();
        if (expected == null) {
            return "done " + result;
        }
        long words = number(result.get("words"));
        long distinct = number(result.get("distinct"));
        String counted = words + " words, " + distinct + " distinct";
        return words == expected.words() && distinct == expected.distinct() ? "counts check: " + counted
                : "MISMATCH: counted " + counted + ", the file has " + expected.words() + " words, "
                + expected.distinct() + " distinct";
    }

    /** The result with the master's verdict and expectation added. */
    static Map<String, Object> withCheck(AppBook.Entry app, Map<String, Object> result) {
        if (app.expected() == null) {
            return result;
        }
        Map<String, Object> checked = new HashMap<>(result);
        checked.put("expectedWords", app.expected().words());
        checked.put("expectedDistinct", app.expected().distinct());
        checked.put("check", describe(app, result).startsWith("MISMATCH") ? "mismatch" : "ok");
        return checked;
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : -1;
    }
}
