package koala.common.event;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import koala.common.json.PlainJson;

/**
 * One event of a runner or a master, as one JSON line: what happened ({@code kind}, a program's
 * word), when, the words a user reads, and the fields that matter to a program reading it back
 * (node, nodes, role, site, count, seconds...). For example
 * <pre>{"time":"2026-11-21T14:00:10Z","kind":"GROW","text":"grow 2 workers [9.2.0, 9.2.1]: ...","role":"worker","nodes":["9.2.0","9.2.1"]}</pre>
 * A log holding these among other lines is read back with {@link #parse}, which skips what is not an event.
 *
 * @param fields extra fields, kept sorted by name (a null value is left out); values are strings,
 *     numbers, booleans or lists of them
 */
public record EventLine(Instant time, String kind, String text, Map<String, Object> fields) {
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");
    private static final List<String> OWN = List.of("time", "kind", "text");

    public EventLine {
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(text, "text");
        TreeMap<String, Object> sorted = new TreeMap<>();
        fields.forEach((k, v) -> {
            if (v != null) {
                sorted.put(k, v);
            }
        });
        fields = Collections.unmodifiableMap(sorted);
        for (String own : OWN) {
            if (fields.containsKey(own)) {
                throw new IllegalArgumentException("'" + own + "' is an event's own field, not an extra one");
            }
        }
    }

    /** The line: time, kind and text first, then the fields sorted by name, so that a line reads the same each time. */
    public String json() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("time", time.toString());
        out.put("kind", kind);
        out.put("text", text);
        out.putAll(fields);
        return PlainJson.write(out);
    }

    /** "14:00:10 grow 2 workers [9.2.0, 9.2.1]: ...", for a person, the time of day in {@code zone}. */
    public String readable(ZoneId zone) {
        return CLOCK.withZone(zone).format(time) + " " + text;
    }

    /** The event a line holds; empty for a line that is not one (a log line, a READY line, broken JSON). */
    public static Optional<EventLine> parse(String line) {
        String s = line.strip();
        if (!s.startsWith("{")) {
            return Optional.empty();
        }
        try {
            if (!(PlainJson.read(s) instanceof Map<?, ?> map) || !(map.get("time") instanceof String time)
                    || !(map.get("kind") instanceof String kind) || !(map.get("text") instanceof String text)) {
                return Optional.empty();
            }
            Map<String, Object> fields = new LinkedHashMap<>();
            map.forEach((k, v) -> {
                if (!OWN.contains(k) && v != null) {
                    fields.put(k.toString(), v);
                }
            });
            return Optional.of(new EventLine(Instant.parse(time), kind, text, fields));
        } catch (IllegalArgumentException | DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** Fields from names and values in turn, {@code "node", node, "role", role}; unlike Map.of a value may be null (it is left out). */
    public static Map<String, Object> fields(Object... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("names and values in pairs, not " + namesAndValues.length + " things");
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            fields.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return fields;
    }

    /** A string field, or empty. */
    public Optional<String> string(String name) {
        return fields.get(name) instanceof String s ? Optional.of(s) : Optional.empty();
    }

    /** A list field's strings; empty when there is none. */
    public List<String> strings(String name) {
        return fields.get(name) instanceof List<?> list ? list.stream().map(String::valueOf).toList() : List.of();
    }

    /** A number field, or empty. */
    public Optional<Double> number(String name) {
        return fields.get(name) instanceof Number n ? Optional.of(n.doubleValue()) : Optional.empty();
    }
}
