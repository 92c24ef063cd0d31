package koala.jdf;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Readers of single attribute values. Each returns the value in the form the job description keeps
 * (an Integer, a Duration, a canonical name, or the text as written) or throws {@link Bad} with the
 * end of the message: {@code count: 'four' } + {@code is not a positive whole number}.
 */
final class Values {
    private static final Pattern WHOLE = Pattern.compile("\\d+");
    private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?|\\.\\d+");
    private static final Pattern HH_MM_SS = Pattern.compile("(\\d+):([0-5]\\d):([0-5]\\d)");
    private static final Pattern VARIABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private Values() {
    }

    /** A value that cannot be used; the message says why, after the quoted value. */
    static final class Bad extends RuntimeException {
        Bad(String reason) {
            super(reason, null, false, false);
        }
    }

    /** A reader of one literal. */
    @FunctionalInterface
    interface Reader {
        Object read(String text);
    }

    /** 0 or more; 0 is refused later for anything but framework workers, with the same message. */
    static Integer nodeCount(String text) {
        return whole(text, "is not a positive whole number");
    }

    static Integer positiveWhole(String text) {
        return positive(whole(text, "is not a positive whole number"), "is not a positive whole number");
    }

    /** Like {@link #positiveWhole}, keeping the text as written. */
    static String positiveWholeText(String text) {
        positiveWhole(text);
        return text;
    }

    static String workers(String text) {
        whole(text, "is not a whole number of workers");
        return text;
    }

    static String nodes(String text) {
        whole(text, "is not a whole number of nodes");
        return text;
    }

    static String seconds(String text) {
        whole(text, "is not a whole number of seconds");
        return text;
    }

    static String positiveSeconds(String text) {
        positive(whole(text, "is not a positive whole number of seconds"), "is not a positive whole number of seconds");
        return text;
    }

    static String positiveNumber(String text) {
        if (!NUMBER.matcher(text).matches() || Double.parseDouble(text) <= 0) {
            throw new Bad("is not a positive number");
        }
        return text;
    }

    static String percent(String text) {
        if (!NUMBER.matcher(text).matches() || Double.parseDouble(text) > 100) {
            throw new Bad("is not a percentage (0 to 100)");
        }
        return text;
    }

    /** An absolute path, or one that starts with a variable the node fills in (e.g. {@code ${HOME}/out}). */
    static String absolutePath(String text) {
        if (!text.startsWith("/") && !text.matches("\\$\\{[A-Za-z_][A-Za-z0-9_]*}(/.*)?")) {
            throw new Bad("is not an absolute path");
        }
        return text;
    }

    static String text(String text) {
        if (text.isBlank()) {
            throw new Bad("is empty");
        }
        return text;
    }

    /** A tag: no spaces or ',', and not one of KOALA's own keys ({@code role=}, {@code job=}...). */
    static String tag(String text) {
        if (text.isBlank() || text.chars().anyMatch(c -> Character.isWhitespace(c) || c == ',')) {
            throw new Bad("is not a tag: one word, without spaces or ','");
        }
        int eq = text.indexOf('=');
        if (eq > 0 && ConstraintSpec.KOALA_TAG_KEYS.contains(text.substring(0, eq))) {
            throw new Bad("is KOALA's to give: every node carries job=, owner=, component= (and role=, instance= "
                    + "in a framework) tags of its own");
        }
        return text;
    }

    static boolean isVariableName(String text) {
        return VARIABLE.matcher(text).matches();
    }

    /** Minutes as a positive whole number, or {@code H:MM:SS}. */
    static Duration wallTime(String text) {
        String reason = "is not minutes (a positive whole number) or HH:MM:SS";
        Matcher hms = HH_MM_SS.matcher(text);
        Duration time;
        if (hms.matches() && hms.group(1).length() <= 6) {
            time = Duration.ofHours(Long.parseLong(hms.group(1))).plusMinutes(Long.parseLong(hms.group(2)))
                    .plusSeconds(Long.parseLong(hms.group(3)));
        } else {
            time = Duration.ofMinutes(whole(text, reason));
        }
        if (time.isZero()) {
            throw new Bad(reason);
        }
        return time;
    }

    /** One of a few names, compared without regard to case; returns the canonical (listed) spelling. */
    static Reader oneOf(String... names) {
        List<String> allowed = List.of(names);
        return text -> allowed.stream().filter(n -> n.equalsIgnoreCase(text)).findFirst()
                .orElseThrow(() -> new Bad("is not one of: " + String.join(", ", allowed)));
    }

    private static int whole(String text, String reason) {
        if (!WHOLE.matcher(text).matches()) {
            throw new Bad(reason);
        }
        if (text.length() > 9) {
            throw new Bad("is too large");
        }
        return Integer.parseInt(text);
    }

    private static int positive(int value, String reason) {
        if (value < 1) {
            throw new Bad(reason);
        }
        return value;
    }

    /** Lower case without '_': how Globus RSL compares attribute names. */
    static String canonical(String name) {
        return name.toLowerCase(Locale.ROOT).replace("_", "");
    }
}
