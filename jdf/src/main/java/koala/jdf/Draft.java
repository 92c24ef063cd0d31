package koala.jdf;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * One request with its attributes read: for each attribute given, the relation (for positions in
 * messages) and the value read from it, or none when the value was bad (already reported).
 */
final class Draft {
    /** An attribute as written: its relation, and its value unless that was bad. */
    record Found(Attribute attribute, Rsl.Relation relation, Object value) {
        /** Where to point at the value: its first literal, else the attribute's name. */
        SourcePosition valueAt() {
            return relation.values().isEmpty() ? relation.at() : relation.values().get(0).at();
        }

        /** How the value is shown in messages: the first literal as written. */
        String written() {
            return relation.values().isEmpty() || !(relation.values().get(0) instanceof Rsl.Literal l) ? "" : l.text();
        }
    }

    private final SourcePosition at;
    private final Map<Attribute, Found> found = new EnumMap<>(Attribute.class);

    Draft(SourcePosition at) {
        this.at = at;
    }

    /** Where the request starts: its '&amp;'. */
    SourcePosition at() {
        return at;
    }

    Map<Attribute, Found> found() {
        return found;
    }

    boolean has(Attribute attribute) {
        return found.containsKey(attribute);
    }

    Optional<Found> get(Attribute attribute) {
        return Optional.ofNullable(found.get(attribute));
    }

    /** The value, if the attribute is given and its value was good. */
    <T> Optional<T> value(Attribute attribute, Class<T> type) {
        return get(attribute).map(Found::value).filter(type::isInstance).map(type::cast);
    }

    /** Where to point at this attribute's value, or at the request when it is not given. */
    SourcePosition where(Attribute attribute) {
        return get(attribute).map(Found::valueAt).orElse(at);
    }
}
