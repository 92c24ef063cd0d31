package koala.common.json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON for a process whose start is on the clock: the node launcher, which every grow starts.
 * Jackson's object mapper costs such a JVM 250–400 ms of class loading and introspection before its
 * first request (its streaming core alone about 80 ms); this codec loads nothing beyond
 * {@code java.lang} and {@code java.util}. It writes maps, lists, strings, numbers, booleans,
 * {@code null} and anything else by its {@code toString()} (an {@link java.time.Instant} as
 * ISO-8601, as {@link Json} writes it); it reads objects into maps (in order), arrays into lists,
 * whole numbers into {@link Long}, other numbers into {@link Double}. Everything else speaks
 * {@link Json}; the two agree on the wire (a test holds them to it).
 */
public final class PlainJson {
    private final String text;
    private int at;

    private PlainJson(String text) {
        this.text = text;
    }

    /** The value {@code text} holds; {@link IllegalArgumentException} naming the offset where it is not JSON. */
    public static Object read(String text) {
        PlainJson reader = new PlainJson(text);
        Object value = reader.value();
        reader.blanks();
        if (reader.at != text.length()) {
            throw reader.error("text after the value");
        }
        return value;
    }

    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null || value instanceof Boolean || value instanceof Number) {
            out.append(value);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            String comma = "";
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (e.getValue() != null) { // as Json, which leaves out null fields
                    out.append(comma);
                    string(String.valueOf(e.getKey()), out);
                    out.append(':');
                    write(e.getValue(), out);
                    comma = ",";
                }
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i == 0 ? "" : ",");
                write(list.get(i), out);
            }
            out.append(']');
        } else {
            string(value.toString(), out);
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private Object value() {
        blanks();
        if (at >= text.length()) {
            throw error("a value expected");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        at++;
        blanks();
        if (peek('}')) {
            return map;
        }
        do {
            blanks();
            if (!peekOnly('"')) {
                throw error("a field name expected");
            }
            String key = string();
            blanks();
            expect(':');
            map.put(key, value());
            blanks();
        } while (peek(','));
        expect('}');
        return map;
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        at++;
        blanks();
        if (peek(']')) {
            return list;
        }
        do {
            list.add(value());
            blanks();
        } while (peek(','));
        expect(']');
        return list;
    }

    private String string() {
        StringBuilder out = new StringBuilder();
        at++;
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) {
                break;
            }
            char e = text.charAt(at++);
            switch (e) {
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw error("a cut \\u escape");
                    }
                    out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                case '"', '\\', '/' -> out.append(e);
                default -> throw error("an unknown escape \\" + e);
            }
        }
        throw error("an unterminated string");
    }

    private Object number() {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        String n = text.substring(start, at);
        try {
            return n.contains(".") || n.contains("e") || n.contains("E") ? (Object) Double.parseDouble(n) : (Object) Long.parseLong(n);
        } catch (NumberFormatException e) {
            at = start;
            throw error("a value expected");
        }
    }

    private Object word(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error("a value expected");
        }
        at += word.length();
        return value;
    }

    private void blanks() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private boolean peek(char c) {
        if (peekOnly(c)) {
            at++;
            return true;
        }
        return false;
    }

    private boolean peekOnly(char c) {
        return at < text.length() && text.charAt(at) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("'" + c + "' expected");
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("not JSON at offset " + at + ": " + what);
    }
}
