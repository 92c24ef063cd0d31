package koala.grid;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hosts of one node group an admin declares ({@code site.fs0.groups.rack.r1 = fs0-n1..fs0-n8, fs0-gpu*}):
 * comma-separated items, each a host name, a range of names that differ only in a number at their end
 * ({@code fs0-n1..fs0-n8}, {@code n01..n16} keeps the zeros), or a pattern where {@code *} stands for
 * any characters ({@code fs0-gpu*}).
 */
public record HostList(String text, List<Item> items) {
    private static final Pattern NUMBERED = Pattern.compile("(.*?)(\\d+)");

    /** One item of the list. */
    public sealed interface Item permits Name, Range, Glob {
        boolean matches(String host);
    }

    public record Name(String name) implements Item {
        @Override
        public boolean matches(String host) {
            return name.equals(host);
        }
    }

    /** {@code prefix} then a number from {@code from} to {@code to}, zero-padded to {@code width} when it is above 0. */
    public record Range(String prefix, long from, long to, int width) implements Item {
        @Override
        public boolean matches(String host) {
            if (!host.startsWith(prefix)) {
                return false;
            }
            String digits = host.substring(prefix.length());
            if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(Character::isDigit)
                    || (width > 0 && digits.length() != width) || (width == 0 && digits.length() > 1 && digits.charAt(0) == '0')) {
                return false;
            }
            long n = Long.parseLong(digits);
            return n >= from && n <= to;
        }
    }

    public record Glob(String pattern, Pattern regex) implements Item {
        @Override
        public boolean matches(String host) {
            return regex.matcher(host).matches();
        }
    }

    public HostList {
        items = List.copyOf(items);
    }

    public boolean matches(String host) {
        return items.stream().anyMatch(i -> i.matches(host));
    }

    /** Reads a list; throws {@link IllegalArgumentException} saying what is wrong. */
    public static HostList parse(String text) {
        List<Item> items = new ArrayList<>();
        for (String raw : text.split(",", -1)) {
            String item = raw.strip();
            if (item.isEmpty()) {
                throw new IllegalArgumentException(text.isBlank() ? "no hosts" : "an empty item between commas");
            }
            if (item.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException("'" + item + "' holds a space; separate hosts with ','");
            }
            items.add(item(item));
        }
        return new HostList(text.strip(), items);
    }

    /** What is wrong with {@code text} as a host list, if anything. */
    public static Optional<String> problem(String text) {
        try {
            parse(text);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
    }

    private static Item item(String item) {
        int dots = item.indexOf("..");
        if (dots >= 0) {
            return range(item, item.substring(0, dots), item.substring(dots + 2));
        }
        if (item.contains("*")) {
            StringBuilder regex = new StringBuilder();
            for (String part : item.split("\\*", -1)) {
                regex.append(Pattern.quote(part)).append(".*");
            }
            return new Glob(item, Pattern.compile(regex.substring(0, regex.length() - 2)));
        }
        return new Name(item);
    }

    private static Range range(String item, String first, String last) {
        Matcher a = NUMBERED.matcher(first);
        Matcher b = NUMBERED.matcher(last);
        if (!a.matches() || !b.matches() || !a.group(1).equals(b.group(1)) || a.group(2).length() > 18
                || b.group(2).length() > 18) {
            throw new IllegalArgumentException("range '" + item + "': its ends are one name with a number at the "
                    + "end, as in fs0-n1..fs0-n8");
        }
        long from = Long.parseLong(a.group(2));
        long to = Long.parseLong(b.group(2));
        if (to < from) {
            throw new IllegalArgumentException("range '" + item + "' ends below where it starts");
        }
        boolean padded = a.group(2).length() == b.group(2).length() && a.group(2).startsWith("0");
        return new Range(a.group(1), from, to, padded ? a.group(2).length() : 0);
    }
}
