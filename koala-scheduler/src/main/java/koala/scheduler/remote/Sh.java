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

    /** A command as a message names it: its first line, cut at 60 characters. */
    static String brief(String command) {
        String first = command.strip().lines().findFirst().orElse("");
        boolean cut = first.length() > 60 || command.strip().lines().count() > 1;
        return "`" + (first.length() > 60 ? first.substring(0, 60) : first) + (cut ? " ..." : "") + "`";
    }
}
