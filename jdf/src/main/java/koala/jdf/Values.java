package koala.jdf;

import java.math.BigDecimal;
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
    private static final Pattern SIZE = Pattern.compile("(\\d+)([KMGT])");
    /** What a size might have been meant as: a sign, a number, blanks, a unit in some other spelling. */
    private static final Pattern SIZE_LIKE = Pattern.compile("([-+]?)(\\d+(?:\\.\\d+)?|\\.\\d+)\\s*([KkMmGgTt])(?:i?[Bb])?");
    static final String SIZE_FORM = "a whole number and a unit K, M, G or T (binary: 1G = 1024M), as in 4G or 512M";

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

    /** Cores per node: 1 or more. */
    static Integer cores(String text) {
        return positiveWhole(text);
    }

    /** GPUs per node: 0 or more. */
    static Integer gpus(String text) {
        return whole(text, "is not a whole number of GPUs (0 or more)");
    }

    /**
     * Memory per node, in MiB: a whole number with a binary unit, {@code 512M}, {@code 4G} (4096),
     * {@code 1T} (1048576); kibibytes are rounded up to whole MiB ({@code 1536K} is 2). The unit is
     * required and upper case: SGE reads a lower-case {@code g} as 10^9 bytes, so {@code 4g} is
     * refused with a suggestion rather than guessed. A near miss ({@code 4 GB}, {@code 4GiB},
     * {@code 1.5G}) is told what to write instead.
     */
    static Long memoryMiB(String text) {
        Matcher size = SIZE.matcher(text);
        if (!size.matches()) {
            throw new Bad(sizeLike(text));
        }
        if (size.group(1).length() > 9) {
            throw new Bad("is too large");
        }
        long amount = Long.parseLong(size.group(1));
        if (amount == 0) {
            throw new Bad("is not a positive size: " + SIZE_FORM);
        }
        return switch (size.group(2)) {
            case "K" -> (amount + 1023) / 1024;
            case "M" -> amount;
            case "G" -> amount * 1024;
            default -> amount * 1024 * 1024;
        };
    }

    /** Why a text that is not {@code 123G} is no size, with what to write when that can be told. */
    private static String sizeLike(String text) {
        Matcher like = SIZE_LIKE.matcher(text.strip());
        if (!like.matches()) {
            return "is not a size: " + SIZE_FORM;
        }
        if (like.group(1).equals("-") || new BigDecimal(like.group(2)).signum() == 0) {
            return "is not a positive size: " + SIZE_FORM;
        }
        String unit = like.group(3).toUpperCase(Locale.ROOT);
        BigDecimal mib = new BigDecimal(like.group(2))
                .multiply(BigDecimal.valueOf(switch (unit) {
                    case "K" -> 1;
                    case "M" -> 1024;
                    case "G" -> 1024 * 1024;
                    default -> 1024L * 1024 * 1024;
                })).divide(BigDecimal.valueOf(1024));
        String hint = "";
        if (mib.stripTrailingZeros().scale() <= 0 && mib.compareTo(BigDecimal.valueOf(999_999_999L)) <= 0) {
            hint = "; did you mean '" + NodeResources.size(mib.longValueExact()) + "'?";
        }
        return "is not a size: " + SIZE_FORM + hint;
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
