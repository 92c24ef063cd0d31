package koala.fluent.master;

import java.util.HashMap;
import java.util.Map;

/** An application's output against what the master expects: an SWC's word counts must match the master's own count. */
final class Checks {
    private Checks() {
    }

    /** The master's verdict on an application's result: {@code ok} false for a mismatch; {@code text} says why. */
    record Verdict(boolean ok, String text) {
    }

    static Verdict check(AppBook.Entry app, Map<String, Object> result) {
        JobIntake.Expected expected = app.expected();
        if (expected == null) {
            return new Verdict(true, "done " + result);
        }
        long words = number(result.get("words"));
        long distinct = number(result.get("distinct"));
        String counted = words + " words, " + distinct + " distinct";
        return words == expected.words() && distinct == expected.distinct()
                ? new Verdict(true, "counts check: " + counted)
                : new Verdict(false, "MISMATCH: counted " + counted + ", the file has " + expected.words()
                        + " words, " + expected.distinct() + " distinct");
    }

    /** The result with the master's verdict and expectation added. */
    static Map<String, Object> withCheck(AppBook.Entry app, Map<String, Object> result, Verdict verdict) {
        if (app.expected() == null) {
            return result;
        }
        Map<String, Object> checked = new HashMap<>(result);
        checked.put("expectedWords", app.expected().words());
        checked.put("expectedDistinct", app.expected().distinct());
        checked.put("check", verdict.ok() ? "ok" : "mismatch");
        return checked;
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : -1;
    }
}
