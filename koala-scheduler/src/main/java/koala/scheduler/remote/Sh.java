package koala.scheduler.remote;

import java.util.List;
import java.util.stream.Collectors;

/** Quoting for the POSIX shell that runs commands on a head node. */
final class Sh {
    private Sh() {
    }

    /** {@code value} as one shell word, whatever it holds. */
    static String quote(String value) {
        return "'" + value.replace("'", "'\\''") + "'";
    }

    static String words(List<String> values) {
        return values.stream().map(Sh::quote).collect(Collectors.joining(" "));
    }
}
